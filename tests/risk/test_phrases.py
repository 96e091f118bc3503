"""Rare phrases of free text: what counts as a candidate, how it is typed, and what a rewrite leaves."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.risk.helpers import release
from toolkit.risk import plan_risk
from toolkit.risk.phrases import (
    PHRASE_SCHEMA,
    PhraseFinder,
    PhraseRewriter,
    Restater,
    phrase_key,
    phrase_keys,
    restated_keys,
    value_keys,
)
from toolkit.rules import load_risk_rules


@pytest.fixture(scope="module")
def finder() -> PhraseFinder:
    from toolkit.rules import load_privacy_rules

    risk = load_risk_rules()
    assert risk.phrases is not None
    return PhraseFinder(risk.phrases, load_privacy_rules())


@pytest.mark.parametrize(
    ("text", "phrases"),
    [
        ("Directed the Quorvex project with OpenXLA.", [("Quorvex", "PROJECT"), ("OpenXLA", "PROJECT")]),
        ("Works on ByteMLPerf and veScale.", [("ByteMLPerf", "PROJECT"), ("veScale", "PROJECT")]),
        ("With the Vision Group at Hillcrest Institute of Technology.",
         [("Vision Group", "ORG"), ("Hillcrest Institute of Technology", "ORG")]),
        ("Won a medal in the Baltic Informatics Olympiad 2014.", [("Baltic Informatics Olympiad 2014", "AWARD")]),
        ("At Marigold Health he builds Kafka pipelines.", [("Marigold Health", "PROJECT"), ("Kafka", "PROJECT")]),
        ("Led the Maia 100 effort.", [("Maia 100", "PROJECT")]),
        ("Migrated 312 services in 2019.", [("312", "NUMBER"), ("2019", "NUMBER")]),
        ("Builds Kubernetes and Kafka tooling in Python.", [("Kubernetes", "PROJECT"), ("Kafka", "PROJECT")]),
        ("Python tooling.", []),  # an everyday word, or an allowed word opening a sentence
        ("The team ships weekly.", []),
    ],
)  # fmt: skip
def test_candidates_and_their_types(finder: PhraseFinder, text: str, phrases: list[tuple[str, str]]) -> None:
    found = [(text[p.start : p.end], p.kind) for p in finder(text) if not p.allowed]
    assert found == phrases


def test_rare_phrases_become_typed_tokens_and_shared_ones_stay(finder: PhraseFinder) -> None:
    text = "<PERSON_1a2b3c4d> built Quorvex at Hillcrest Institute with 13 years of Rust, in <LOCATION_0f0f0f0f>."
    shared = {p.key for p in finder(text) if text[p.start : p.end] in ("Hillcrest Institute", "Rust")}
    rewritten = PhraseRewriter(finder, shared=shared, forced={})(text)
    assert (
        rewritten == "<PERSON> built <PROJECT> at Hillcrest Institute with <NUMBER> of Rust, in <LOCATION>."
    )


def test_values_of_a_coarsened_column_are_replaced_in_text_whatever_their_count(finder: PhraseFinder) -> None:
    text = "At Marigold Health and at NVIDIA."
    everything = {p.key for p in finder(text)}
    forced = value_keys(finder, {"employer": {"Marigold Health", "NVIDIA"}})
    assert (
        PhraseRewriter(finder, shared=everything, forced=forced)(text) == "At <EMPLOYER> and at <EMPLOYER>."
    )


@pytest.mark.parametrize(
    ("value", "restated"),
    [
        ("Engineer at Marigold Health", "Engineer at <EMPLOYER>"),
        ("Marigold Health Research Lab", "<EMPLOYER> Research Lab"),
        ("Marigold Health", "Marigold Health"),  # the whole value: the column's own, its view guards it
        ("Marigold Health.", "Marigold Health."),
        ("Engineer at Zylophone Labs", "Engineer at Zylophone Labs"),  # rare, but restating cuts only names
        ("Engineer at Blue", "Engineer at Blue"),  # not a coarsened value
        ("Software Engineer", "Software Engineer"),  # "Software" names no employer
        ("Blue Heron Systems Applied Research", "<EMPLOYER> Research"),
    ],
)
def test_a_restater_replaces_only_coarsened_values_inside_a_value(
    finder: PhraseFinder, value: str, restated: str
) -> None:
    forced = restated_keys(
        finder, {"employer": {"Marigold Health", "Software", "Blue Heron Systems, Applied"}}
    )
    assert Restater(forced)(value) == restated


@given(st.text(max_size=200))
def test_rewriting_never_raises_and_is_idempotent(finder: PhraseFinder, text: str) -> None:
    rewriter = PhraseRewriter(finder, shared=set(), forced={})
    once = rewriter(text)
    assert rewriter(once) == once


def test_phrase_keys_count_each_phrase_once_per_person(finder: PhraseFinder) -> None:
    risk = load_risk_rules()
    assert risk.phrases is not None
    tables = {
        "profiles": pl.DataFrame({"profile_id": ["a", "b"], "summary": ["Quorvex and Quorvex.", "Quorvex."]}),
        "experience": pl.DataFrame({"profile_id": ["a"], "bullets": [["Built Quorvex."]]}),
    }
    keys = phrase_keys(tables, risk.phrases, finder)
    assert keys.group_by("profile_id").len().sort("profile_id").get_column("len").to_list() == [1, 1]


@pytest.mark.parametrize(
    ("holders", "distinct", "kept"),
    [
        (["p0", "p1", "p2", "p3", "p4"], True, 1),  # five persons: shared by k
        (["p0", "p1", "p2", "p3", "p4"], False, 1),
        (["p0", "p0", "p1", "p2", "p3"], False, 0),  # a person's phrase twice is still one person
    ],
)
def test_a_phrase_is_kept_when_k_persons_hold_it(
    finder: PhraseFinder, holders: list[str], distinct: bool, kept: int
) -> None:
    risk = load_risk_rules()
    persons = [f"p{i}" for i in range(8)]
    phrases = pl.LazyFrame(
        {"profile_id": holders, "phrase": [phrase_key("quorvex")] * len(holders), "kind": ["PROJECT"] * 5},
        schema=PHRASE_SCHEMA,
    )
    plan = plan_risk(release(persons), risk, phrases, finder, phrases_distinct=distinct)
    assert plan.phrases["PROJECT"] == {"kept": kept, "replaced": 1 - kept}


def test_a_name_token_k_persons_share_is_counted_replaced_not_kept(finder: PhraseFinder) -> None:
    """The card's "kept" must match the text: a keyed PERSON token is always written `<PERSON>`."""
    risk = load_risk_rules()
    persons = [f"p{i}" for i in range(8)]
    holders = persons[:5]
    phrases = pl.LazyFrame(
        {"profile_id": holders, "phrase": [phrase_key("<PERSON_1a2b3c4d>")] * 5, "kind": ["PERSON"] * 5},
        schema=PHRASE_SCHEMA,
    )
    plan = plan_risk(release(persons), risk, phrases, finder, phrases_distinct=True)
    assert plan.phrases["PERSON"] == {"kept": 0, "replaced": 1}
    assert (
        PhraseRewriter(finder, shared={phrase_key("<PERSON_1a2b3c4d>")}, forced={})("with <PERSON_1a2b3c4d>")
        == "with <PERSON>"
    )

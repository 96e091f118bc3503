"""k-anonymous text (toolkit.risk.runs): what is kept, what is cut, and that the figures are right."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.risk.runs import (
    MARKER,
    OkSets,
    TermVocabulary,
    anonymize_text,
    cells_of,
    level_keys,
    shared_keys,
    term_rows,
    words_of,
)
from toolkit.rules import TextRules

K = 3
RULES = TextRules(
    enabled=True, max_run=3, modes={"profiles.summary": "k_anonymous", "profiles.badges": "k_anonymous"}
)
VOCABULARY = ["kafka", "flink", "power bi", "and", "on", "works", "the", "a", "with", "team"]
ALLOWED = OkSets.allowed(VOCABULARY, RULES.max_run)
TERMS = OkSets.allowed(["kafka", "flink"], 1)[1]


def release(
    summaries: Sequence[str | None], badges: Sequence[list[str] | None] | None = None
) -> pl.DataFrame:
    persons = [f"p{index:03d}" for index in range(len(summaries))]
    return pl.DataFrame(
        {"profile_id": persons, "summary": summaries, "badges": badges or [None] * len(summaries)},
        schema={"profile_id": pl.String, "summary": pl.String, "badges": pl.List(pl.String)},
    )


def cut(frame: pl.DataFrame) -> tuple[pl.DataFrame, dict[str, Any]]:
    tables, report = anonymize_text({"profiles": frame}, RULES, K, ALLOWED, TERMS)
    return tables["profiles"], report


CROWD = ["Built a data platform for the payments team"] * K


@pytest.mark.parametrize(
    ("text", "released"),
    [
        # shared whole by k persons: kept as it is, longer than max_run
        ("Built a data platform for the payments team", "Built a data platform for the payments team"),
        # a rare word is cut and marked; the shared runs around it stay, at most max_run words each
        # ("team" is everyday, not a technical term: alone it is cut too)
        ("Built a data platform for the zanzibar team", f"Built a data {MARKER} platform for the {MARKER}"),
        # a single allowed technical word stands alone; an everyday word alone does not
        ("Quixotic frobnication with Kafka", f"{MARKER} Kafka"),
        # an allowed term of two words is one run; a run of allowed words is not
        ("Dashboards in Power BI", f"{MARKER} Power BI"),
        ("Kafka and Flink", f"Kafka {MARKER} Flink"),
        # nothing left: null
        ("Quixotic frobnication", None),
        # no word at all: as it is
        ("—", "—"),
    ],
)
def test_what_a_cell_keeps(text: str, released: str | None) -> None:
    frame, _ = cut(release([*CROWD, text]))
    assert frame.get_column("summary")[-1] == released


def test_list_items_are_cells_and_an_item_left_without_words_is_left_out() -> None:
    badges: list[list[str] | None] = [["Top School", "Open Source"] for _ in range(K)]
    badges += [["Top School", "Zanzibar Gold"], None]
    frame, _ = cut(release([None] * (K + 2), badges))
    assert frame.get_column("badges").to_list()[-2:] == [["Top School"], None]


def test_a_run_counts_persons_not_rows() -> None:
    one_person = pl.DataFrame(
        {"profile_id": ["p1"] * 5, "summary": ["Zanzibar lighthouse keeper"] * 5, "badges": [None] * 5},
        schema={"profile_id": pl.String, "summary": pl.String, "badges": pl.List(pl.String)},
    )
    frame, _ = cut(one_person)
    assert frame.get_column("summary").to_list() == [None] * 5


def test_words_are_letters_and_digits_lower_cased_and_tokens_are_words() -> None:
    assert words_of("Led <PROJECT>'s C++ port, 2x faster.") == [
        "led",
        "<project>",
        "s",
        "c",
        "port",
        "2x",
        "faster",
    ]


def _released_runs(texts: list[str | None], n: int) -> dict[tuple[str, ...], set[int]]:
    """Independently: every run of n words of each released text, never across a marker."""
    found: dict[tuple[str, ...], set[int]] = defaultdict(set)
    for person, text in enumerate(texts):
        for piece in (text or "").split(MARKER):
            words = words_of(piece) if piece.strip() else []
            for at in range(len(words) - n + 1):
                found[tuple(words[at : at + n])].add(person)
    return found


SENTENCES = st.lists(
    st.lists(
        st.sampled_from(["kafka", "flink", "team", "the", "zorp", "quill", "data", "Built"]), max_size=8
    ).map(" ".join),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(SENTENCES)
def test_every_released_run_is_held_by_k_persons_in_the_input(texts: list[str]) -> None:
    """The guarantee, checked by brute force: every released run of 2+ words stands in the input text of
    k persons (single words: held by k, or an allowed term), unless the whole cell k persons share."""
    frame, _ = cut(release(list(texts)))
    released = frame.get_column("summary").to_list()
    held: dict[tuple[str, ...], set[int]] = defaultdict(set)
    cells: dict[str, set[int]] = defaultdict(set)
    for person, text in enumerate(texts):
        words = words_of(text)
        cells[" ".join(words)].add(person)
        for n in range(1, len(words) + 1):
            for at in range(len(words) - n + 1):
                held[tuple(words[at : at + n])].add(person)
    for person, text in enumerate(released):
        if text is None or (MARKER not in text and len(cells[" ".join(words_of(text))]) >= K):
            continue
        for piece in text.split(MARKER):
            run = tuple(words_of(piece))
            if not run:
                continue
            assert len(run) <= RULES.max_run
            allowed = len(run) == 1 and run[0] in {"kafka", "flink"}
            assert allowed or len(held[run]) >= K, (texts[person], text, run)


@settings(max_examples=40, deadline=None)
@given(SENTENCES, st.integers(min_value=1, max_value=5))
def test_counting_does_not_depend_on_the_batches(texts: list[str], size: int) -> None:
    """Level keys of batches merged (persons distinct) give the keys of the whole."""
    frame = release(list(texts))
    whole = cells_of({"profiles": frame}, ["profiles.summary"])
    expected = shared_keys(level_keys(whole, 1, None).lazy(), K, persons_distinct=True)
    parts = [
        level_keys(cells_of({"profiles": frame.slice(start, size)}, ["profiles.summary"]), 1, None)
        for start in range(0, frame.height, size)
    ]
    merged = shared_keys(pl.concat(parts).lazy(), K, persons_distinct=True, buckets=3)
    assert merged.to_list() == expected.to_list()


def test_cutting_twice_changes_nothing_more() -> None:
    texts = [*CROWD, "Built a data platform for the zanzibar team", "Quixotic frobnication with Kafka"]
    once, _ = cut(release(texts))
    twice, _ = cut(once)
    assert twice.get_column("summary").to_list() == once.get_column("summary").to_list()


def test_the_report_figures_match_an_independent_count() -> None:
    texts = [*CROWD, "Built a data platform for the zanzibar team", "Quixotic frobnication", None]
    frame, report = cut(release(texts))
    figures = report["columns"]["profiles.summary"]
    released = frame.get_column("summary").to_list()
    kept_words = sum(len(words_of(text.replace(MARKER, " "))) for text in released if text)
    all_words = sum(len(words_of(text)) for text in texts if text)
    assert figures["cells"] == len([text for text in texts if text])
    assert figures["words_kept"] == kept_words
    assert figures["words_cut"] == all_words - kept_words
    assert figures["cells_cut_whole"] == released.count(None) - texts.count(None)
    assert figures["persons_with_text_kept"] == len([text for text in released if text])
    longest = max(len(words_of(piece)) for text in released if text for piece in text.split(MARKER))
    assert figures["longest_kept_run"] == longest
    residual = report["residual"]
    assert residual["persons"] == len(texts)
    # the three crowd persons share one set of runs; the zanzibar one is alone with theirs
    assert residual["unique_run_sets"] == 1


def test_runs_are_at_most_max_run_words_between_markers() -> None:
    texts = ["one two three four five six seven"] * K + ["one two three four five six seven eight"]
    frame, _ = cut(release(texts))
    last = frame.get_column("summary")[-1]
    assert all(len(words_of(piece)) <= RULES.max_run for piece in last.split(MARKER))
    assert [len(words_of(piece)) for piece in last.split(MARKER)] == [
        3,
        3,
        0,
    ]  # seven alone is no term: cut, and marked
    assert all(a.strip() for a, _ in pairwise(last.split(MARKER)))


VOCABULARY_OF_TERMS = TermVocabulary.of(
    ["Apache Spark", "Spark", "Kafka", "ONNX Runtime", "Node.js", "Go"], 5
)


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("Built Apache Spark jobs on Kafka", ["apache spark", "kafka"]),  # the longest term, not also "spark"
        ("Spark, then Apache Spark, then Spark", ["spark", "apache spark"]),  # in order of first mention
        ("ONNX Runtime and NodeJS and Node.js", ["onnx runtime", "node.js"]),  # as the vocabulary writes it
        ("onnx runtime", ["onnx runtime"]),
        ("Sparkling water", []),  # whole words only
        ("", []),
    ],
)
def test_the_terms_a_text_mentions(text: str, terms: list[str]) -> None:
    tables = {"profiles": release([text])}
    listed = term_rows(tables, ["profiles.summary"], VOCABULARY_OF_TERMS)
    assert listed.get_column("term").to_list() == terms


def test_terms_are_listed_once_per_person() -> None:
    frame = release(["Kafka and Go", "Go"], [["Kafka"], None])
    listed = term_rows({"profiles": frame}, ["profiles.summary", "profiles.badges"], VOCABULARY_OF_TERMS)
    assert listed.rows() == [("p000", "kafka"), ("p000", "go"), ("p001", "go")]  # persons in profiles' order

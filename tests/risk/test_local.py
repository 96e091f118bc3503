"""Local recoding (toolkit/risk/local.py): where one level per column would withhold a column for everyone,
groups of at least k persons keep what they share, and every released class still has k persons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO_RULES
from tests.risk.helpers import release, risk_rules
from toolkit.risk import RiskPlan, plan_risk
from toolkit.risk.ladders import LOCAL
from toolkit.risk.phrases import PhraseFinder, phrase_keys
from toolkit.rules import Classification, PhraseRules, Step, View, load_privacy_rules, load_risk_rules
from tools import kanon

NETWORK = {"network": View(kind="record", columns=("profiles.employer", "profiles.country"))}
CAREER = {"career": View(kind="sequence", columns=("experience.title",), order="experience.position")}
FUNCTIONS = Classification(default="other", groups={"engineering": ("engineer",), "management": ("lead",)})


def _profiles(rows: Sequence[tuple[str | None, str | None]]) -> dict[str, pl.LazyFrame]:
    ids = [f"p{index:03d}" for index in range(len(rows))]
    tables = release(ids)
    tables["profiles"] = pl.LazyFrame(
        {"profile_id": ids, "employer": [e for e, _ in rows], "country": [c for _, c in rows]},
        schema={"profile_id": pl.String, "employer": pl.String, "country": pl.String},
    )
    return tables


def _released(tables: dict[str, pl.LazyFrame], plan: RiskPlan, table: str) -> pl.DataFrame:
    return plan.apply(table, tables[table]).collect()


# Six persons at Acme in Peru, three alone at their firms: one level per column must withhold both
# columns for everyone (any level that shows the employer or the country leaves someone alone).
SKEWED = [("Acme", "Peru")] * 6 + [("Blue", "Peru"), ("Cobalt", "Chile"), ("Dune", "Chile")]


@pytest.mark.parametrize(
    ("recoding", "employers", "countries"),
    [
        ("global", [None] * 9, [None] * 9),
        ("local", ["Acme"] * 6 + [None] * 3, ["Peru"] * 6 + [None] * 3),
    ],
)
def test_groups_of_k_keep_what_they_share(recoding: str, employers: list[Any], countries: list[Any]) -> None:
    tables = _profiles(SKEWED)
    rules = risk_rules(NETWORK, k=3, max_suppressed=0.0).model_copy(update={"recoding": recoding})
    plan = plan_risk(tables, rules)
    assert plan.written
    assert not plan.suppressed
    profiles = _released(tables, plan, "profiles").sort("profile_id")
    assert profiles["employer"].to_list() == employers
    assert profiles["country"].to_list() == countries
    assert plan.views["network"].after.smallest_k >= 3


def test_a_plan_lets_go_of_the_rows_its_search_read_and_still_applies() -> None:
    tables = _profiles(SKEWED)
    ladders = {"profiles.employer": [Step(frequent=True)]}
    plan = plan_risk(tables, risk_rules(NETWORK, ladders, k=3, max_suppressed=0.0))
    assert plan.ladders is not None
    assert not plan.ladders.frames
    assert _released(tables, plan, "profiles")["employer"].to_list() == ["Acme"] * 6 + [None] * 3


INDUSTRIES = Classification(default=None, groups={"software": ("soft",), "banking": ("bank",)})


@pytest.mark.parametrize("presence", [0.0, 0.5])
def test_a_step_loses_what_it_no_longer_tells_apart_less_what_holding_a_value_keeps(presence: float) -> None:
    employers = ["Acme Soft", "Blue Soft", "Cobalt Soft", "Dune Soft", "Echo Bank", "Fern Bank", "Glen Bank"]
    tables = _profiles([(employer, "Peru") for employer in [*employers, "Hill Bank"]])
    ladders = {"profiles.employer": [Step(classify=("industries",))]}
    rules = risk_rules(
        NETWORK, ladders, k=4, max_suppressed=0.0, classifications={"industries": INDUSTRIES}
    ).model_copy(update={"recoding": "global", "presence": presence})
    columns = {level.column: level for level in plan_risk(tables, rules).columns}
    assert columns["profiles.employer"].step == "classify:industries"
    # 8 employers released, 2 industries: the industry tells apart a third of what the employer did.
    assert columns["profiles.employer"].information_loss == pytest.approx((1 - presence) * 2 / 3, abs=1e-4)


def test_the_report_counts_the_persons_at_each_step() -> None:
    plan = plan_risk(_profiles(SKEWED), risk_rules(NETWORK, k=3, max_suppressed=0.0))
    columns = {level.column: level for level in plan.columns}
    assert columns["profiles.employer"].step == "local"
    assert columns["profiles.employer"].persons_per_step == {"released": 6, "withheld": 3}
    assert columns["profiles.employer"].information_loss == pytest.approx(3 / 9, abs=1e-4)
    assert plan.to_json()["columns"]["profiles.employer"]["persons_per_step"] == {
        "released": 6,
        "withheld": 3,
    }


def test_a_value_holding_a_keyed_token_is_never_kept_for_being_shared() -> None:
    token = "<PERSON_1a2b3c4d> Consulting"
    tables = _profiles([(token, "Peru")] * 6 + [("Blue", "Peru"), ("Cobalt", "Chile"), ("Dune", "Chile")])
    ladders = {"profiles.employer": [Step(frequent=True)]}
    for recoding in ("global", "local"):
        rules = risk_rules(NETWORK, ladders, k=3, max_suppressed=0.0).model_copy(
            update={"recoding": recoding}
        )
        plan = plan_risk(tables, rules)
        assert token not in _released(tables, plan, "profiles")["employer"].to_list(), recoding


def test_a_sequence_view_keeps_the_careers_that_k_persons_share() -> None:
    careers = [["engineer", "lead"]] * 4 + [["engineer"], ["lead", "engineer"], ["engineer", "engineer"]]
    ids = [f"p{index:03d}" for index in range(len(careers))]
    experience = [
        {"profile_id": person, "position": position, "title": title}
        for person, titles in zip(ids, careers, strict=True)
        for position, title in enumerate(titles, start=1)
    ]
    tables = release(ids, experience=experience)
    ladders = {"experience.title": [Step(classify=("functions",))]}
    rules = risk_rules(CAREER, ladders, k=3, max_suppressed=0.0, classifications={"functions": FUNCTIONS})
    plan = plan_risk(tables, rules)
    rows = _released(tables, plan, "experience")
    kept = rows.group_by("profile_id", maintain_order=True).agg("title").sort("profile_id")["title"].to_list()
    assert kept[:4] == [["engineer", "lead"]] * 4
    assert all(title != "engineer" and title != "lead" for career in kept[4:] for title in career)
    assert plan.views["career"].after.smallest_k >= 3


person = st.tuples(
    st.sampled_from(["Acme", "Blue", "Cobalt", "Dune", None]), st.sampled_from(["Chile", "Peru"])
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(person, min_size=1, max_size=40), k=st.integers(2, 4))
def test_local_recoding_keeps_k_and_never_loses_more_than_global(
    rows: list[tuple[str | None, str]], k: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tables = _profiles(rows)
    plans = {
        recoding: plan_risk(
            tables, risk_rules(NETWORK, k=k, max_suppressed=0.2).model_copy(update={"recoding": recoding})
        )
        for recoding in ("global", "local")
    }
    assert plans["local"].written >= plans["global"].written
    assert (
        plans["local"].loss <= plans["global"].loss + 1e-9
    )  # the global plan, recoded locally, is a candidate
    if not plans["local"].written:
        return
    folder = tmp_path_factory.mktemp("release")
    _released(tables, plans["local"], "profiles").write_parquet(folder / "profiles.parquet")
    sizes = kanon.class_sizes(folder, {"kind": "record", "columns": list(NETWORK["network"].columns)})
    assert min(sizes.values(), default=k) >= k
    assert plans["local"].views["network"].after.smallest_k == min(sizes.values(), default=0)


def test_the_shipped_rules_recode_locally() -> None:
    assert load_risk_rules(REPO_RULES).recoding == "local"


# Either column alone puts everyone in a class of 3; both together leave classes of 1 and 2: one must go.
EITHER = [("Acme", "Peru"), ("Acme", "Peru"), ("Acme", "Chile"), ("Blue", "Chile"), ("Blue", "Chile"),
          ("Blue", "Peru")]  # fmt: skip


@pytest.mark.parametrize(
    ("worth", "kept"),
    [({"profiles.employer": 3.0}, "employer"), ({"profiles.country": 3.0}, "country")],
)
def test_the_column_worth_least_gives_way(worth: dict[str, float], kept: str) -> None:
    rules = risk_rules(NETWORK, k=3, max_suppressed=0.0).model_copy(
        update={"recoding": "global", "worth": worth}
    )
    tables = _profiles(EITHER)
    plan = plan_risk(tables, rules)
    profiles = _released(tables, plan, "profiles")
    gone = ({"employer", "country"} - {kept}).pop()
    assert profiles[kept].null_count() == 0
    assert profiles[gone].null_count() == profiles.height


# Three engineers at Blue whose title names Acme, and three chefs alone at their firms (Acme among them):
# the engineers keep their title as it is, while Acme is withheld for the chef who works there.
RESTATING = [("Blue", "Engineer at Acme")] * 3 + [("Acme", "Chef at Acme"), ("Cobalt", "Chef"), ("Dune", "Head Chef")]  # fmt: skip


@pytest.mark.parametrize(
    ("recoding", "title_steps", "restated", "title", "others"),
    [
        ("local", [Step(classify=("functions",))], {}, "Engineer at Acme", "kitchen"),
        ("local", [Step(classify=("functions",))], {"profiles.title": ("profiles.employer",)},
         "Engineer at <EMPLOYER>", "kitchen"),
        ("global", [Step(frequent=True)], {"profiles.title": ("profiles.employer",)},
         "Engineer at <EMPLOYER>", None),
    ],
)  # fmt: skip
def test_a_title_kept_as_it_is_loses_an_employer_the_release_coarsened(
    recoding: str,
    title_steps: list[Step],
    restated: dict[str, tuple[str, ...]],
    title: str,
    others: str | None,
) -> None:
    ids = [f"p{index:03d}" for index in range(len(RESTATING))]
    tables = release(ids)
    tables["profiles"] = pl.LazyFrame(
        {"profile_id": ids, "employer": [e for e, _ in RESTATING], "title": [t for _, t in RESTATING]}
    )
    views = {"network": View(kind="record", columns=("profiles.employer", "profiles.title"))}
    functions = Classification(default="other", groups={"engineering": ("engineer",), "kitchen": ("chef",)})
    phrases = PhraseRules(columns=("profiles.title",), restated=restated)
    rules = risk_rules(
        views, {"profiles.title": title_steps}, k=3, max_suppressed=0.0,
        classifications={"functions": functions},
    ).model_copy(update={"phrases": phrases, "recoding": recoding})  # fmt: skip
    finder = PhraseFinder(phrases, load_privacy_rules(REPO_RULES))
    found = phrase_keys({"profiles": tables["profiles"].collect()}, phrases, finder)
    plan = plan_risk(tables, rules, found.lazy(), finder)
    assert plan.levels["profiles.title"] == (LOCAL if recoding == "local" else 1)  # 1: frequent
    profiles = _released(tables, plan, "profiles").sort("profile_id")
    assert profiles["title"].to_list() == [title] * 3 + [others] * 3
    assert plan.to_json()["restated_columns"] == sorted(restated)

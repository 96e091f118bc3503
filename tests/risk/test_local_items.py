"""Local recoding of items views, row by row (toolkit/risk/local_items.py): where one level per column
would give every skill its topic, the rows whose items and pairs of items k persons share keep their
names, and every released item and pair is still shared by k persons."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.risk.helpers import release, risk_rules
from toolkit.risk import RiskPlan, plan_risk
from toolkit.rules import Classification, RiskRules, Step, View
from tools import kanon

SKILLS = {"talent_site": View(kind="items", m=2, columns=("skills.skill",))}
TOPICS = Classification(
    default="other",
    groups={"languages": ("python", "rust", "go", "zig"), "data": ("sql", "spark", "kafka", "dbt")},
)
TOPIC_LADDER = {"skills.skill": [Step(classify=("topics",))]}


def _tables(lists: Sequence[Sequence[str]]) -> dict[str, pl.LazyFrame]:
    ids = [f"p{index:03d}" for index in range(len(lists))]
    skills = [
        {"profile_id": person, "kind": "github_skill", "skill": skill, "score": None}
        for person, held in zip(ids, lists, strict=True)
        for skill in held
    ]
    return release(ids, skills=skills)


def _rules(k: int, recoding: str = "local", max_withheld: float = 0.0) -> RiskRules:
    return risk_rules(
        SKILLS, TOPIC_LADDER, k=k, max_withheld_items=max_withheld, classifications={"topics": TOPICS}
    ).model_copy(update={"recoding": recoding})


def _skills(tables: dict[str, pl.LazyFrame], plan: RiskPlan) -> dict[str, list[str | None]]:
    rows = plan.apply("skills", tables["skills"]).collect()
    grouped = rows.group_by("profile_id").agg(pl.col("skill").sort()).sort("profile_id")
    return dict(zip(grouped["profile_id"], grouped["skill"].to_list(), strict=True))


# Four persons hold Python and SQL; two hold Rust and SQL, one Zig and Kafka. At k = 3 with no rows
# withheld, "rust" and "zig" make the names rare, so one level for the column gives everyone topics.
SHARED = [["python", "sql"]] * 4 + [["rust", "sql"]] * 2 + [["zig", "kafka"]]


@pytest.mark.parametrize(
    ("recoding", "first", "last"),
    [
        ("global", ["data", "languages"], ["data", "languages"]),
        ("local", ["python", "sql"], ["data", "languages"]),
    ],
)
def test_rows_whose_items_and_pairs_k_persons_share_keep_their_names(
    recoding: str, first: list[str], last: list[str]
) -> None:
    tables = _tables(SHARED)
    plan = plan_risk(tables, _rules(3, recoding))
    skills = _skills(tables, plan)
    assert skills["p000"] == first
    assert skills["p006"] == last
    assert plan.views["talent_site"].after.smallest_k >= 3


def test_the_report_counts_the_rows_at_each_step() -> None:
    plan = plan_risk(_tables(SHARED), _rules(3))
    (column,) = (level for level in plan.columns if level.column == "skills.skill")
    assert column.step == "local:rows"
    assert column.rows_per_step == {"released": 8, "classify:topics": 6}
    assert not column.persons_per_step
    assert plan.to_json()["columns"]["skills.skill"]["rows_per_step"] == column.rows_per_step


def test_a_value_holding_a_keyed_token_stays_coarse() -> None:
    token = "<PERSON_1a2b3c4d>"
    tables = _tables([[f"{token} python", "sql"]] * 4 + [["rust", "sql"]] * 2)
    plan = plan_risk(tables, _rules(3))
    assert all(token not in (skill or "") for held in _skills(tables, plan).values() for skill in held)


def test_a_table_another_view_reads_is_not_refined() -> None:
    views = {**SKILLS, "scores": View(kind="record", columns=("skills.score",))}
    rules = risk_rules(views, TOPIC_LADDER, k=3, max_withheld_items=0.0, classifications={"topics": TOPICS})
    tables = _tables(SHARED)
    assert set(_skills(tables, plan_risk(tables, rules))["p000"]) <= {"data", "languages"}


skill_lists = st.lists(
    st.lists(st.sampled_from(["python", "rust", "go", "zig", "sql", "spark", "kafka", "dbt"]), max_size=4),
    min_size=4,  # at least k persons: fewer can never be released
    max_size=30,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lists=skill_lists, k=st.integers(2, 4))
def test_row_by_row_keeps_k_squared_and_never_shows_less_than_global(
    lists: list[list[str]], k: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tables = _tables(lists)
    plans = {recoding: plan_risk(tables, _rules(k, recoding, 0.3)) for recoding in ("global", "local")}
    released = {recoding: _skills(tables, plan) for recoding, plan in plans.items()}
    assert released["local"].keys() == released["global"].keys()
    names = {"python", "rust", "go", "zig", "sql", "spark", "kafka", "dbt"}
    for person, held in released["global"].items():
        named = sum(skill in names for skill in released["local"][person])
        assert named >= sum(skill in names for skill in held)
        assert len(released["local"][person]) == len(held)  # refining withholds no row
    assert plans["local"].written == plans["global"].written
    if not plans["local"].written:
        return
    folder = tmp_path_factory.mktemp("release")
    for table in ("profiles", "skills"):
        plans["local"].apply(table, tables[table]).collect().write_parquet(folder / f"{table}.parquet")
    sizes = kanon.class_sizes(folder, {"kind": "items", "m": 2, "columns": ["skills.skill"]})
    assert min(sizes.values(), default=k) >= k

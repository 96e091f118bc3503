"""The validate engine: the seeds' findings, contract breaches, thresholds, masking, and loud failures."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pandera.config
import polars as pl
import pytest

import toolkit
from tests.quality.factories import valid_tables
from toolkit.errors import ToolkitError
from toolkit.model import ProfileSet
from toolkit.quality import mask, validate_tables
from toolkit.quality.checks import CHECKS
from toolkit.rules import (
    CHECK_PARAMS,
    CheckKind,
    InRangeParams,
    MatchesParams,
    PrivacyRules,
    QualityRule,
    QualityRules,
)

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_the_seed_lookalikes_give_the_seeds_findings(quality_rules: QualityRules) -> None:
    tables = toolkit.parse([FIXTURES / "talent_page_lookalike.txt", FIXTURES / "resume_lookalike.txt"])
    result = validate_tables(tables, quality_rules)
    found = {(f.rule, f.severity, f.rows): f.examples for f in result.findings}
    assert found == {
        ("profiles.declared_skills.agrees", "warning", 1): [{"row": 1, "declared_skills": 9, "listed": 7}],
        ("profiles.declared_programming_languages.agrees", "warning", 1): [
            {"row": 1, "declared_programming_languages": 3, "listed": 0}
        ],
        ("profiles.declared_contributions.agrees", "warning", 1): [
            {"row": 1, "declared_contributions": 4, "listed": 2}
        ],
        ("education.degree.written_once", "warning", 1): [
            {
                "row": 1,
                "degree": "Xxxxxx xx Xxxxxxxxxx (Xx.X.)",
                "field": "Xxxxxxxx Xxxxxxxxxxx, Xxxxxx xx Xxxxxxxx…",
            }
        ],
    }
    assert not result.failed


def test_examples_show_values_the_policy_keeps_and_mask_the_others(
    quality_rules: QualityRules, privacy_rules: PrivacyRules
) -> None:
    from toolkit.scrub.shapes import shown_as_is

    tables = toolkit.parse([FIXTURES / "talent_page_lookalike.txt"])
    degree = tables.education.row(0)[1]
    contact = "Signal: quietkoala77"
    misplaced = tables.education.with_columns(
        pl.lit(contact).alias("degree"), pl.lit(f"CS, {contact}, CS").alias("field")
    )
    frames = dict(tables.tables())
    reveal = shown_as_is(privacy_rules)
    for education, shown in [(tables.education, degree), (misplaced, "Xxxxxx: xxxxxxxxxx99")]:
        frames["education"] = education
        result = validate_tables(ProfileSet.from_frames(frames), quality_rules, reveal=reveal)
        twice = next(f for f in result.findings if f.rule == "education.degree.written_once")
        assert twice.examples[0]["degree"] == shown
    warnings = [finding.to_json() for finding in result.findings if finding.severity == "warning"]
    assert warnings
    assert {finding["beyond_threshold"] for finding in warnings} == {False}


@pytest.mark.parametrize(
    ("table", "column", "value", "shown"),
    [
        ("education", "degree", "Master of Science (M.Sc.)", True),
        ("education", "degree", "PhD supervised by Ada Byron", False),
        ("skills", "score", 7, True),
        ("skills", "skill", "python", True),
        ("profiles", "summary", "Builds compilers", False),
        ("profiles", "name", "Ada Byron", False),
        ("profiles", "badges", ["Top School"], True),
        ("profiles", "badges", ["Top School", "ada.byron@example.org"], False),
        ("profiles", "no_such_column", "x", False),
    ],
)
def test_shown_as_is_follows_the_policy(
    table: str, column: str, value: object, shown: bool, privacy_rules: PrivacyRules
) -> None:
    from toolkit.scrub.shapes import shown_as_is

    assert shown_as_is(privacy_rules)(table, column, value) is shown


def test_every_check_kind_has_exactly_one_implementation() -> None:
    kinds = set(typing.get_args(CheckKind))
    assert kinds == set(CHECK_PARAMS) == set(CHECKS)


def _rule(**fields: object) -> QualityRule:
    base: dict[str, object] = {
        "id": "test.rule",
        "table": "skills",
        "columns": ("score",),
        "check": "in_range",
        "params": InRangeParams(max=5),
        "severity": "error",
        "description": "test",
    }
    return QualityRule.model_validate(base | fields)


def test_a_check_that_cannot_run_fails_loudly() -> None:
    wrong_dtype = _rule(check="matches", params=MatchesParams(pattern="^x$"))  # a regex on integers
    with pytest.raises(ToolkitError, match=r"quality check test\.rule on table skills could not run"):
        validate_tables(ProfileSet.from_frames(valid_tables()), QualityRules(rules=(wrong_dtype,)))


@pytest.mark.parametrize("how", ["environment", "global config"])
def test_a_schema_only_setting_cannot_turn_off_data_checks(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if how == "environment":
        monkeypatch.setenv("PANDERA_VALIDATION_DEPTH", "SCHEMA_ONLY")
    else:
        monkeypatch.setattr(
            pandera.config.CONFIG, "validation_depth", pandera.config.ValidationDepth.SCHEMA_ONLY
        )
    result = validate_tables(ProfileSet.from_frames(valid_tables()), QualityRules(rules=(_rule(),)))
    assert result.findings
    assert result.findings[0].rows == int((valid_tables()["skills"]["score"] > 5).sum())


@pytest.mark.parametrize(
    ("threshold", "fails"),
    [(None, True), (0, True), (1000, False), (0.99, False), (0.0001, True)],
)
def test_threshold_decides_whether_an_error_rule_fails_the_job(threshold: float | None, fails: bool) -> None:
    rules = QualityRules(rules=(_rule(threshold=threshold),))
    result = validate_tables(ProfileSet.from_frames(valid_tables()), rules)
    (finding,) = result.findings
    assert finding.rows > 0
    assert result.failed is fails
    assert result.quarantine["skills"].height == finding.rows  # quarantined whatever the threshold


def test_a_table_that_breaks_the_contract_is_one_finding_and_wholly_quarantined(
    quality_rules: QualityRules,
) -> None:
    frames = valid_tables()
    frames["skills"] = frames["skills"].with_columns(pl.col("score").cast(pl.String)).drop("kind")
    result = validate_tables(ProfileSet.from_frames(frames), quality_rules)
    (finding,) = [f for f in result.findings if f.severity == "error"]
    assert (finding.rule, finding.rows) == ("skills.contract", frames["skills"].height)
    problems = " ".join(example["problem"] for example in finding.examples)
    assert "kind" in problems
    assert "score" in problems
    assert result.valid.skills.is_empty()
    assert result.valid.skills.schema == toolkit.TABLE_SCHEMAS["skills"]
    assert result.quarantine["skills"].height == frames["skills"].height


@pytest.mark.parametrize(
    ("value", "masked"),
    [
        ("Ada Byron", "Xxx Xxxxx"),
        ("ada.byron@example.org", "xxx.xxxxx@xxxxxxx.xxx"),
        ("+351 912 345 678", "+999 999 999 999"),
        ("Zoë", "Xxx"),
        (7, 7),
        (None, None),
        (["Ada", "Byron"], ["Xxx", "Xxxxx"]),
        ("x" * 50, "x" * 40 + "…"),
    ],
)
def test_mask_keeps_shape_not_content(value: object, masked: object) -> None:
    assert mask(value) == masked


def test_findings_never_show_personal_text(quality_rules: QualityRules) -> None:
    frames = valid_tables()
    name = frames["profiles"]["name"][0]
    frames["profiles"] = frames["profiles"].with_columns(
        pl.lit(f"Top School{name} is great").alias("summary")
    )
    result = validate_tables(ProfileSet.from_frames(frames), quality_rules)
    assert [f.rule for f in result.findings] == ["profiles.text.no_parser_leftovers"]
    dumped = json.dumps([finding.to_json() for finding in result.findings], ensure_ascii=False)
    for part in name.split():
        assert part not in dumped

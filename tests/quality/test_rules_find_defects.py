"""Each quality rule, as a case table: plant one defect in valid tables, the rule (and only it) finds it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import polars as pl
import pytest

from tests.quality.factories import valid_tables
from toolkit.model import ProfileSet
from toolkit.quality import PARENT_QUARANTINED, validate_tables
from toolkit.rules import QualityRules

Mutation = Callable[[dict[str, pl.DataFrame]], None]


def _set(table: str, column: str, value: object, row: int = 0) -> Mutation:
    def mutate(frames: dict[str, pl.DataFrame]) -> None:
        frame = frames[table]
        values = frame[column].to_list()
        values[row] = value
        frames[table] = frame.with_columns(pl.Series(column, values, dtype=frame.schema[column]))

    return mutate


def _append_copy(table: str, row: int = 0, **changes: object) -> Mutation:
    def mutate(frames: dict[str, pl.DataFrame]) -> None:
        frame = frames[table]
        copy = frame[row].with_columns(
            *(pl.lit(v, dtype=frame.schema[k]).alias(k) for k, v in changes.items())
        )
        frames[table] = pl.concat([frame, copy])

    return mutate


def _both(first: Mutation, second: Mutation) -> Mutation:
    def mutate(frames: dict[str, pl.DataFrame]) -> None:
        first(frames)
        second(frames)

    return mutate


def _degree_twice(frames: dict[str, pl.DataFrame]) -> None:
    degree, field = frames["education"].row(0)[1:3]
    _set("education", "field", f"{field}, {degree}, {field}")(frames)


ERROR_CASES: list[tuple[str, Mutation, str, int]] = [
    ("profiles.profile_id.not_null", _set("profiles", "source", None), "profiles", 0),
    ("profiles.profile_id.unique", _append_copy("profiles"), "profiles", 2),
    ("profiles.name.required_for_talent_page", _set("profiles", "name", None), "profiles", 0),
    ("profiles.layout.known", _set("profiles", "layout", "linkedin"), "profiles", 0),
    ("profiles.coding_years.range", _set("profiles", "coding_years", 61), "profiles", 0),
    ("profiles.employment_years.range", _set("profiles", "employment_years", -1), "profiles", 0),
    ("profiles.text.no_parser_leftovers", _set("profiles", "summary", "Top SchoolAda Byron is ..."), "profiles", 0),
    ("profiles.text.no_parser_leftovers", _set("profiles", "summary", "Ada. Find and Hire Top Developers"), "profiles", 0),
    ("skills.profile_id.exists", _set("skills", "profile_id", "p-nobody"), "skills", 0),
    ("skills.required.not_null", _set("skills", "skill", None), "skills", 0),
    ("skills.kind.known", _set("skills", "kind", "soft_skill"), "skills", 0),
    ("skills.score.range", _set("skills", "score", 11), "skills", 0),
    ("skills.score.range", _set("skills", "score", -1), "skills", 0),
    ("skills.skill.unique", _append_copy("skills", score=3), "skills", 0),
    ("contributions.profile_id.exists", _set("contributions", "profile_id", "p-nobody"), "contributions", 0),
    ("contributions.repository.not_null", _set("contributions", "repository", None), "contributions", 0),
    ("contributions.repository.format", _set("contributions", "repository", "just-a-name"), "contributions", 0),
    ("contributions.repository.format", _set("contributions", "repository", "a/b/c"), "contributions", 0),
    ("contributions.period.ordered", _both(_set("contributions", "end", dt.date(2001, 1, 1)), _set("contributions", "duration_months", None)), "contributions", 0),
    ("contributions.duration.agrees", _set("contributions", "duration_months", 99), "contributions", 0),
    ("contributions.commits.range", _set("contributions", "commits", -5), "contributions", 0),
    ("contributions.text.no_parser_leftovers", _set("contributions", "role", "Back-end DeveloperContributions:56"), "contributions", 0),
    ("experience.profile_id.exists", _set("experience", "profile_id", "p-nobody"), "experience", 0),
    ("experience.position.not_null", _set("experience", "position", None), "experience", 0),
    ("experience.period.ordered", _both(_set("experience", "start", dt.date(2030, 1, 1)), _set("experience", "end", dt.date(2020, 1, 1))), "experience", 0),
    ("awards.profile_id.exists", _set("awards", "profile_id", "p-nobody"), "awards", 0),
    ("awards.title.not_null", _set("awards", "title", None), "awards", 0),
    ("education.profile_id.exists", _set("education", "profile_id", "p-nobody"), "education", 0),
]  # fmt: skip


def _findings(frames: dict[str, pl.DataFrame], rules: QualityRules) -> dict[str, int]:
    result = validate_tables(ProfileSet.from_frames(frames), rules)
    return {finding.rule: finding.rows for finding in result.findings}


def test_the_factory_tables_pass_every_error_rule(quality_rules: QualityRules) -> None:
    result = validate_tables(ProfileSet.from_frames(valid_tables()), quality_rules)
    assert [finding.rule for finding in result.findings if finding.severity == "error"] == []
    assert result.quarantined_rows == 0


@pytest.mark.parametrize(
    ("rule", "mutate", "table", "row"),
    ERROR_CASES,
    ids=[f"{case[0]}-{i}" for i, case in enumerate(ERROR_CASES)],
)
def test_error_rule_finds_its_defect_and_quarantines_the_row(
    rule: str, mutate: Mutation, table: str, row: int, quality_rules: QualityRules
) -> None:
    frames = valid_tables()
    mutate(frames)
    result = validate_tables(ProfileSet.from_frames(frames), quality_rules)
    errors = {finding.rule: finding for finding in result.findings if finding.severity == "error"}
    assert list(errors) == [rule]
    assert errors[rule].rows == 1
    assert result.failed
    quarantined = result.quarantine[table]
    assert rule in quarantined["failed_rules"].list.explode().to_list()
    assert result.valid.tables().__next__()  # the valid tables are still there
    assert getattr(result.valid, table).height == frames[table].height - quarantined.height


@pytest.mark.parametrize(
    ("rule", "mutate"),
    [
        ("profiles.declared_skills.agrees", _set("profiles", "declared_skills", 40)),
        ("profiles.declared_programming_languages.agrees", _set("profiles", "declared_programming_languages", 9)),
        ("profiles.declared_contributions.agrees", _set("profiles", "declared_contributions", 7)),
        ("education.degree.written_once", _degree_twice),
    ],
)  # fmt: skip
def test_warning_rule_reports_and_the_row_goes_on(
    rule: str, mutate: Mutation, quality_rules: QualityRules
) -> None:
    frames = valid_tables()
    mutate(frames)
    result = validate_tables(ProfileSet.from_frames(frames), quality_rules)
    assert [(finding.rule, finding.rows) for finding in result.findings] == [(rule, 1)]
    assert not result.failed
    assert result.quarantined_rows == 0


def test_children_of_a_quarantined_profile_are_quarantined_with_it(quality_rules: QualityRules) -> None:
    frames = valid_tables()
    _set("profiles", "name", None)(frames)
    victim = frames["profiles"]["profile_id"][0]
    result = validate_tables(ProfileSet.from_frames(frames), quality_rules)
    for table in ("skills", "contributions", "education"):
        quarantined = result.quarantine[table]
        assert quarantined.height == frames[table].filter(pl.col("profile_id") == victim).height > 0
        assert quarantined["failed_rules"].to_list() == [[PARENT_QUARANTINED]] * quarantined.height
        assert victim not in getattr(result.valid, table)["profile_id"].to_list()


def test_nulls_pass_every_check_but_not_null(quality_rules: QualityRules) -> None:
    frames = valid_tables()
    for column in ("coding_years", "employment_years", "declared_skills", "summary"):
        _set("profiles", column, None)(frames)
    for column in ("start", "end", "duration_months", "commits", "role"):
        _set("contributions", column, None)(frames)
    _set("skills", "score", None)(frames)
    assert _findings(frames, quality_rules) == {}

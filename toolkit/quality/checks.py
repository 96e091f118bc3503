"""What each check kind of `rules/quality.yaml` means, as a Polars expression over one table.

A builder gets the rule and all tables (cross-table checks look at other tables) and returns a `CheckPlan`:
`passes` is True on every row that passes and never null (nulls pass every check but not_null);
`detail` is an optional non-personal value shown beside failing examples ("listed: 15").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import reduce

import polars as pl

from toolkit.errors import ToolkitError
from toolkit.rules import (
    DeclaredCountParams,
    DurationAgreesParams,
    InRangeParams,
    MatchesParams,
    NoMatchParams,
    NotNullParams,
    OneOfParams,
    QualityRule,
    ReferencesParams,
)

Tables = Mapping[str, pl.DataFrame]


@dataclass(frozen=True)
class CheckPlan:
    passes: pl.Expr
    detail: pl.Expr | None = None


def _all(exprs: list[pl.Expr]) -> pl.Expr:
    return reduce(lambda left, right: left & right, exprs)


def _not_null(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, NotNullParams)
    present = _all([pl.col(column).is_not_null() for column in rule.columns])
    if not params.when:
        return CheckPlan(present)
    applies = _all([pl.col(column).eq(value).fill_null(False) for column, value in params.when.items()])
    return CheckPlan(~applies | present)


def _unique(rule: QualityRule, tables: Tables) -> CheckPlan:
    """The first row of each key passes; its repeats fail (they go to quarantine, not the void)."""
    return CheckPlan(pl.struct(list(rule.columns)).is_first_distinct())


def _in_range(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, InRangeParams)
    checks = []
    for column in rule.columns:
        if params.min is not None:
            checks.append(pl.col(column).ge(params.min).fill_null(True))
        if params.max is not None:
            checks.append(pl.col(column).le(params.max).fill_null(True))
    return CheckPlan(_all(checks))


def _matches(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, MatchesParams)
    whole = f"^(?:{params.pattern})$"
    return CheckPlan(_all([pl.col(column).str.contains(whole).fill_null(True) for column in rule.columns]))


def _one_of(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, OneOfParams)
    allowed = pl.Series(list(params.values), dtype=pl.String).implode()
    return CheckPlan(_all([pl.col(column).is_in(allowed).fill_null(True) for column in rule.columns]))


def _references(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, ReferencesParams)
    known = tables[params.table][params.column].unique().implode()
    return CheckPlan(_all([pl.col(column).is_in(known).fill_null(True) for column in rule.columns]))


def _ordered(rule: QualityRule, tables: Tables) -> CheckPlan:
    start, end = rule.columns
    return CheckPlan(pl.col(start).le(pl.col(end)).fill_null(True))


def _months_between(start: str, end: str) -> pl.Expr:
    return (
        (pl.col(end).dt.year() - pl.col(start).dt.year()) * 12
        + pl.col(end).dt.month().cast(pl.Int32)
        - pl.col(start).dt.month().cast(pl.Int32)
    )


def _duration_agrees(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, DurationAgreesParams)
    start, end, months = rule.columns
    period = _months_between(start, end)
    agrees = (period - pl.col(months)).abs().le(params.tolerance_months).fill_null(True)
    return CheckPlan(agrees, period.alias("months in the period"))


def _declared_count(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, DeclaredCountParams)
    children = tables[params.child_table]
    if params.where:
        children = children.filter(_all([pl.col(c).eq(v).fill_null(False) for c, v in params.where.items()]))
    counts = children.group_by("profile_id").len()
    listed = pl.col("profile_id").replace_strict(
        counts["profile_id"], counts["len"], default=0, return_dtype=pl.Int64
    )
    (declared,) = rule.columns
    return CheckPlan(pl.col(declared).cast(pl.Int64).eq(listed).fill_null(True), listed.alias("listed"))


def _no_repeat(rule: QualityRule, tables: Tables) -> CheckPlan:
    value, within = rule.columns
    recurs = pl.col(within).str.to_lowercase().str.contains(pl.col(value).str.to_lowercase(), literal=True)
    return CheckPlan(~recurs.fill_null(False))


def _no_match(rule: QualityRule, tables: Tables) -> CheckPlan:
    params = rule.params
    assert isinstance(params, NoMatchParams)
    any_pattern = "|".join(f"(?:{pattern})" for pattern in params.patterns)
    return CheckPlan(
        _all([~pl.col(column).str.contains(any_pattern).fill_null(False) for column in rule.columns])
    )


CHECKS: dict[str, Callable[[QualityRule, Tables], CheckPlan]] = {
    "not_null": _not_null,
    "unique": _unique,
    "in_range": _in_range,
    "matches": _matches,
    "one_of": _one_of,
    "references": _references,
    "ordered": _ordered,
    "duration_agrees": _duration_agrees,
    "declared_count": _declared_count,
    "no_repeat": _no_repeat,
    "no_match": _no_match,
}


def plan(rule: QualityRule, tables: Tables) -> CheckPlan:
    """The plan for one rule. An unknown check kind is an error here, never a skipped check."""
    builder = CHECKS.get(rule.check)
    if builder is None:
        raise ToolkitError(f"rule {rule.id}: check {rule.check!r} has no implementation")
    return builder(rule, tables)

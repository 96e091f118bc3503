"""Findings: what a rule found, with a few examples whose personal data is masked."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from toolkit.quality.schemas import RuleFailures
from toolkit.text import MAX_SHOWN_ITEMS, mask

MAX_EXAMPLES = MAX_SHOWN_ITEMS


@dataclass(frozen=True)
class Finding:
    """A rule that failed on some rows, or a table that breaks the data contract (rule `<table>.contract`)."""

    rule: str
    table: str
    columns: tuple[str, ...]
    severity: str
    description: str
    rows: int
    tolerated: int
    examples: list[dict[str, Any]] = field(default_factory=list)

    @property
    def beyond_threshold(self) -> bool:
        """An error rule that failed on more rows than it tolerates; a warning has no threshold."""
        return self.severity == "error" and self.rows > self.tolerated

    @property
    def fails_job(self) -> bool:
        """An error rule that failed on more rows than its threshold tolerates."""
        return self.beyond_threshold

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "table": self.table,
            "column": ", ".join(self.columns),
            "severity": self.severity,
            "description": self.description,
            "rows": self.rows,
            "tolerated": self.tolerated,
            "beyond_threshold": self.beyond_threshold,
            "examples": [
                {key: _jsonable(value) for key, value in example.items()} for example in self.examples
            ],
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


Reveal = Callable[[str, str, object], bool]
"""Whether a value of (table, column) may be shown as it is in a report; other text is masked."""


def finding_for(failures: RuleFailures, frame: pl.DataFrame, reveal: Reveal | None = None) -> Finding:
    """A finding from the failing rows of one rule, with examples from the first of them: `row` counts
    the table's rows from 1, in input order (as `toolkit check` counts a file's rows); a value of the
    rule's columns is masked unless `reveal` says it may be shown."""
    rule = failures.rule
    first = failures.rows.head(MAX_EXAMPLES)
    shown = frame.select(
        *rule.columns,
        *([failures.plan.detail] if failures.plan.detail is not None else []),
    )[first]

    def masked(column: str, value: Any) -> Any:
        if column not in rule.columns or (reveal is not None and reveal(rule.table, column, value)):
            return value
        return mask(value)

    examples = [
        {"row": int(row) + 1, **{key: masked(key, value) for key, value in values.items()}}
        for row, values in zip(first, shown.iter_rows(named=True), strict=True)
    ]
    return Finding(
        rule=rule.id,
        table=rule.table,
        columns=rule.columns,
        severity=rule.severity,
        description=rule.description,
        rows=failures.rows.len(),
        tolerated=rule.tolerated_rows(frame.height),
        examples=examples,
    )

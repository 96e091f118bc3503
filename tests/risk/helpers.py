"""Small hand-made releases and risk rules for the tests of toolkit.risk."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from toolkit.model import TABLE_SCHEMAS, TERMS, TERMS_TABLE
from toolkit.rules import Classification, RiskRules, Step, View


def risk_rules(
    views: Mapping[str, View],
    ladders: Mapping[str, Sequence[Step]] | None = None,
    k: int = 2,
    max_suppressed: float = 0.5,
    max_withheld_items: float = 0.5,
    classifications: Mapping[str, Classification] | None = None,
) -> RiskRules:
    viewed = sorted({column for view in views.values() for column in view.columns})
    ladders = ladders or {}
    return RiskRules(
        enabled=True,
        k=k,
        max_suppressed=max_suppressed,
        max_withheld_items=max_withheld_items,
        views=dict(views),
        ladders={column: tuple(ladders.get(column, ())) for column in viewed},
        classifications=dict(classifications or {}),
    )


def release(persons: Sequence[str], **tables: Sequence[Mapping[str, Any]]) -> dict[str, pl.LazyFrame]:
    """Released tables as lazy frames with the contract's columns (and the text pass's `terms`):
    `profiles` with one row per person, the others as given (columns not given are null)."""
    given = {"profiles": [{"profile_id": person} for person in persons], **tables}
    lazy: dict[str, pl.LazyFrame] = {}
    for table, schema in {**TABLE_SCHEMAS, TERMS_TABLE: TERMS}.items():
        if table == "rejects":
            continue
        rows = given.get(table, [])
        if not rows:
            lazy[table] = pl.LazyFrame(schema=dict(schema))
            continue
        frame = pl.DataFrame(list(rows), infer_schema_length=None)
        lazy[table] = frame.lazy().select(
            (pl.col(name) if name in frame.columns else pl.lit(None)).cast(dtype).alias(name)
            for name, dtype in schema.items()
        )
    return lazy

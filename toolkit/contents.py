"""What a release holds, counted from its tables, never from the policy that made them.

Per column: its rows, the cells that hold a value, the distinct values (items, for a list column), the
tokens the toolkit wrote into its text (`<PERSON_1a2b3c4d>` counted as the keyed form `<PERSON_…>`,
`<PROJECT>` as itself) and the cells the text pass cut (marked `…`). The card's column rows and its
banner are made from these counts, so what the card says a column holds is what a reader finds in it.

Everything is computed with lazy, streaming scans: one pass over each table for the plain counts and one
per text column for its tokens, with memory bounded by the distinct values and token types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from toolkit.risk.runs import MARKER

TOKEN_PATTERN = r"<[A-Z][A-Z_]*?(?:_[0-9a-f]{8})?>"
"""A token the toolkit writes: `<TYPE>` (a phrase or value replaced without a key) or `<TYPE_1a2b3c4d>`
(a value the scrubber replaced by a keyed token)."""
KEYED_SUFFIX = "_…>"
"""How a keyed token's type is written in the counts: `<PERSON_…>`."""
_KEY = r"_[0-9a-f]{8}>$"


@dataclass(frozen=True)
class ColumnContents:
    """One released column, as counted in the release."""

    rows: int
    values: int
    """Cells that hold a value (not null)."""
    distinct: int
    """Distinct values (a list column: distinct items)."""
    tokens: dict[str, int] = field(default_factory=dict)
    """Token form (`<PROJECT>`, `<PERSON_…>`) -> occurrences in the column."""
    cells_cut: int = 0
    """Texts in which the text pass cut words (they hold its mark `…`); a list's items count one each."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "values": self.values,
            "distinct": self.distinct,
            "tokens": dict(sorted(self.tokens.items())),
            "cells_cut": self.cells_cut,
        }


def release_contents(tables: Mapping[str, pl.LazyFrame]) -> dict[str, ColumnContents]:
    """`table.column` -> its `ColumnContents`, for every column of every table, tables in the given order."""
    found: dict[str, ColumnContents] = {}
    for table, frame in tables.items():
        schema = frame.collect_schema()
        counts = _plain_counts(frame, schema)
        for column, dtype in schema.items():
            texts = _texts(column, dtype)
            tokens, cut = _tokens(frame, texts) if texts is not None else ({}, 0)
            found[f"{table}.{column}"] = ColumnContents(
                rows=counts["rows"],
                values=counts[f"{column}\x00values"],
                distinct=counts[f"{column}\x00distinct"],
                tokens=tokens,
                cells_cut=cut,
            )
    return found


def values_of(contents: Mapping[str, ColumnContents], columns: Iterable[str]) -> dict[str, int]:
    """Per column of `columns`, its cells that hold a value, from counted `contents` (a column not in them:
    none)."""
    return {name: contents[name].values if name in contents else 0 for name in columns}


def values_in(tables: Mapping[str, pl.LazyFrame], columns: Iterable[str]) -> dict[str, int]:
    """Per column of `columns` (`table.column`), its cells that hold a value (a column no table has: none)."""
    wanted: dict[str, list[str]] = {}
    for name in dict.fromkeys(columns):
        table, _, column = name.partition(".")
        wanted.setdefault(table, []).append(column)
    found: dict[str, int] = {}
    for table, names in wanted.items():
        frame = tables.get(table)
        present = [name for name in names if frame is not None and name in frame.collect_schema()]
        by_name: dict[str, int] = {}
        if frame is not None and present:
            held = frame.select(pl.col(name).is_not_null().sum() for name in present)
            by_name = dict(zip(present, map(int, held.collect(engine="streaming").row(0)), strict=True))
        found |= {f"{table}.{name}": by_name.get(name, 0) for name in names}
    return found


def _plain_counts(frame: pl.LazyFrame, schema: pl.Schema) -> dict[str, int]:
    aggregations = [pl.len().alias("rows")]
    for column, dtype in schema.items():
        values = pl.col(column).is_not_null().sum().alias(f"{column}\x00values")
        items = pl.col(column).explode() if isinstance(dtype, pl.List) else pl.col(column)
        distinct = items.drop_nulls().n_unique().alias(f"{column}\x00distinct")
        aggregations += [values, distinct]
    row = frame.select(aggregations).collect(engine="streaming")
    return {name: int(value or 0) for name, value in row.row(0, named=True).items()}


def _texts(column: str, dtype: pl.DataType) -> pl.Expr | None:
    """The column's texts, one per row (a list of texts: one per item), or None if it holds no text."""
    if dtype == pl.String:
        return pl.col(column)
    if dtype == pl.List(pl.String):
        return pl.col(column).explode()
    return None


def _tokens(frame: pl.LazyFrame, texts: pl.Expr) -> tuple[dict[str, int], int]:
    """The column's token forms and their occurrences, and its cells the text pass cut."""
    forms = (
        frame.select(texts.str.extract_all(TOKEN_PATTERN).explode().alias("token"))
        .drop_nulls()
        .select(pl.col("token").str.replace(_KEY, KEYED_SUFFIX))
        .group_by("token")
        .len()
        .collect(engine="streaming")
    )
    tokens = {str(form): int(count) for form, count in forms.iter_rows()}
    cut = frame.select(texts.str.contains(MARKER, literal=True).sum()).collect(engine="streaming").item()
    return tokens, int(cut or 0)

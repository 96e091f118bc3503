"""Generalizations shared by the privacy policy and the risk pass, as Polars expressions (nulls stay null)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, cast

import polars as pl


def band(value: pl.Expr, edges: Sequence[int]) -> pl.Expr:
    """A number -> its band as text: '<1' below the first edge, '10-49' between edges, '1000+' beyond."""
    banded: Any = pl.when(value.is_null()).then(pl.lit(None, dtype=pl.String))
    banded = banded.when(value < edges[0]).then(pl.lit(f"<{edges[0]}"))
    for low, high in itertools.pairwise(edges):
        banded = banded.when(value < high).then(pl.lit(f"{low}-{high - 1}"))
    return cast(pl.Expr, banded.otherwise(pl.lit(f"{edges[-1]}+")).cast(pl.String))


def year_span(value: pl.Expr, years: int, dtype: pl.DataType) -> pl.Expr:
    """A year (or a date's year) -> the span of `years` years it falls in, e.g. '2015-2019'."""
    year = (value.dt.year() if dtype.is_temporal() else value).cast(pl.Int64)
    start = (year // years) * years
    return pl.concat_str(start.cast(pl.String), pl.lit("-"), (start + years - 1).cast(pl.String))

"""Column actions other than free text: keyed pseudonyms and generalization, as Polars expressions."""

from __future__ import annotations

import polars as pl

from toolkit.generalize import band
from toolkit.rules import Hierarchy
from toolkit.scrub.keys import Keyring


def pseudonymize(frame: pl.DataFrame, column: str, keys: Keyring) -> pl.Expr:
    """Each distinct value -> its keyed pseudonym (namespaced by the column name); nulls stay null."""
    distinct = frame.get_column(column).drop_nulls().unique().cast(pl.String)
    pseudonyms = [keys.pseudonym(column, value) for value in distinct]
    return (
        pl.col(column)
        .cast(pl.String)
        .replace_strict(distinct, pseudonyms, default=None, return_dtype=pl.String)
    )


def generalize(column: str, hierarchy: Hierarchy) -> pl.Expr:
    """'date_to_year': a date -> its year. 'number_band': a number -> its band, e.g. '10-14' or '30+'."""
    if hierarchy.kind == "date_to_year":
        return pl.col(column).dt.year().cast(pl.Int32)
    return band(pl.col(column), hierarchy.edges)

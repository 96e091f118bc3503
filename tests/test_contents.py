"""What a release holds, counted from its tables (`toolkit.contents`)."""

from __future__ import annotations

import polars as pl
import pytest

from toolkit.contents import release_contents, values_in, values_of


@pytest.fixture
def tables() -> dict[str, pl.LazyFrame]:
    profiles = pl.DataFrame(
        {
            "profile_id": ["a", "b", "c"],
            "summary": [
                "Worked with <PERSON_1a2b3c4d> and <PERSON_99aa00ff> on <PROJECT> …",
                "Mail <EMAIL_ADDRESS_0123abcd>, at <EMPLOYER>",
                None,
            ],
            "badges": [["gold", "<AWARD>"], None, ["gold"]],
            "years": [3, None, None],
        },
        schema={
            "profile_id": pl.String,
            "summary": pl.String,
            "badges": pl.List(pl.String),
            "years": pl.Int32,
        },
    )
    empty = pl.DataFrame(schema={"profile_id": pl.String, "title": pl.String})
    return {"profiles": profiles.lazy(), "awards": empty.lazy()}


@pytest.mark.parametrize(
    ("column", "rows", "values", "distinct", "tokens", "cells_cut"),
    [
        ("profiles.profile_id", 3, 3, 3, {}, 0),
        (
            "profiles.summary",
            3,
            2,
            2,
            {"<PERSON_…>": 2, "<PROJECT>": 1, "<EMAIL_ADDRESS_…>": 1, "<EMPLOYER>": 1},
            1,
        ),
        ("profiles.badges", 3, 2, 2, {"<AWARD>": 1}, 0),  # distinct items of the lists
        ("profiles.years", 3, 1, 1, {}, 0),
        ("awards.title", 0, 0, 0, {}, 0),
    ],
)
def test_each_column_is_counted_from_its_values(
    tables: dict[str, pl.LazyFrame],
    column: str,
    rows: int,
    values: int,
    distinct: int,
    tokens: dict[str, int],
    cells_cut: int,
) -> None:
    found = release_contents(tables)[column]
    assert (found.rows, found.values, found.distinct, found.tokens, found.cells_cut) == (
        rows,
        values,
        distinct,
        tokens,
        cells_cut,
    )


def test_every_column_of_every_table_is_listed_in_order(tables: dict[str, pl.LazyFrame]) -> None:
    assert list(release_contents(tables)) == [
        "profiles.profile_id",
        "profiles.summary",
        "profiles.badges",
        "profiles.years",
        "awards.profile_id",
        "awards.title",
    ]


def test_values_in_counts_each_named_columns_cells_with_a_value(tables: dict[str, pl.LazyFrame]) -> None:
    found = values_in(tables, ["profiles.summary", "profiles.years", "awards.title"])
    assert found == {"profiles.summary": 2, "profiles.years": 1, "awards.title": 0}
    assert values_in(tables, ["missing.column", "profiles.absent"]) == {
        "missing.column": 0,
        "profiles.absent": 0,
    }


def test_values_of_the_counted_contents_agree_with_a_count_of_the_tables(
    tables: dict[str, pl.LazyFrame],
) -> None:
    columns = ["profiles.summary", "profiles.years", "profiles.badges", "awards.title", "missing.column"]
    found = values_of(release_contents(tables), columns)
    assert found == values_in(tables, columns)
    assert sum(found.values()) == 5
    assert found["missing.column"] == 0

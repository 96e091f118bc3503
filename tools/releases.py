"""Comparing two releases of the same input: by their tables' rows and their reports, not their bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl


def without_folders(report: Any) -> Any:
    """A report without the output folders' names (the only thing that differs between two runs)."""
    if isinstance(report, dict):
        return {key: without_folders(value) for key, value in report.items() if key != "folder"}
    if isinstance(report, list):
        return [without_folders(value) for value in report]
    return report


def different_tables(one: Path, other: Path) -> list[str]:
    """The tables of release `one` whose schema or rows (in any order) differ in release `other`."""
    found = []
    for path in sorted(one.glob("*.parquet")):
        mine, theirs = pl.read_parquet(path), pl.read_parquet(other / path.name)
        if mine.schema != theirs.schema or not mine.sort(pl.all()).equals(theirs.sort(pl.all())):
            found.append(f"{path.name}: {mine.height} rows in {one.name}, {theirs.height} in {other.name}")
    return found

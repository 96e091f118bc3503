"""The staging store: each batch's tables as parts on disk, under a job's private work folder.

    <work>/parsed/<table>/part-N      phase 1: the contract's tables of batch N
    <work>/release|quarantine|suppressed/<table>/part-N
                                      phase 2: what the kernels release, quarantine and suppress
    <work>/phrases/part-N             the persons' candidate phrases of free text (`phrase_keys`)
    <work>/text/...                   the text pass's keys and the runs it keeps
    <work>/<name>.parquet             what a dataset-wide pass hands to the workers (the names index...)

A part is written whole or not at all (a hidden partial file, renamed), and the parts of a table are read in
batch order as one lazy scan: the passes stream over them, nothing holds a whole table in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl

from toolkit.model import TABLE_SCHEMAS
from toolkit.scrub import RELEASED_TABLES

_PART = "part-{:06d}.parquet"


def part(folder: Path, table: str, batch: int) -> Path:
    """Where batch `batch` of `table` lies under `folder`."""
    return folder / table / _PART.format(batch)


def parts(folder: Path, table: str) -> list[Path]:
    """The parts of `table` under `folder`, in batch order."""
    return sorted((folder / table).glob("part-*.parquet")) if (folder / table).is_dir() else []


def write_part(frame: pl.DataFrame, path: Path) -> None:
    """Write `frame` to `path` whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    frame.write_parquet(partial)
    partial.replace(path)


def scan_table(folder: Path, table: str, schema: dict[str, pl.DataType]) -> pl.LazyFrame:
    """The parts of `table`, in batch order, as one lazy frame (empty with `schema` when there are none)."""
    found = parts(folder, table)
    return pl.scan_parquet(found) if found else pl.LazyFrame(schema=schema)


def scan_numbered(folder: Path, table: str) -> pl.LazyFrame | None:
    """The parts of `table` with each row's batch (`_batch`) and place in its part (`_row`)."""
    found = parts(folder, table)
    if not found:
        return None
    return pl.concat(
        [
            pl.scan_parquet(path).with_columns(
                pl.lit(int(path.stem.removeprefix("part-")), dtype=pl.Int64).alias("_batch"),
                pl.int_range(pl.len(), dtype=pl.UInt32).alias("_row"),
            )
            for path in found
        ]
    )


def ids_in_several_batches(folder: Path, table: str = "profiles") -> pl.Series:
    """The profile ids with rows in more than one batch's part of `table` (the same profile given twice)."""
    found = parts(folder, table)
    if not found:
        return pl.Series("profile_id", [], dtype=pl.String)
    return (
        pl.scan_parquet(found, include_file_paths="_part")
        .select("profile_id", "_part")
        .unique()
        .group_by("profile_id")
        .len()
        .filter(pl.col("len") > 1)
        .select("profile_id")
        .collect(engine="streaming")
        .get_column("profile_id")
    )


def part_heights(folder: Path, table: str, batches: int) -> list[int]:
    """The rows of each batch's part of `table` (0 where a batch has none)."""
    return [
        int(pl.scan_parquet(path).select(pl.len()).collect().item()) if path.exists() else 0
        for path in (part(folder, table, batch) for batch in range(batches))
    ]


def persons_in(folder: Path) -> int:
    """The distinct profiles of the `profiles` parts under `folder`."""
    found = parts(folder, "profiles")
    if not found:
        return 0
    return int(pl.scan_parquet(found).select(pl.col("profile_id").n_unique()).collect().item())


def concat_parts(
    folder: Path,
    table: str,
    schema: dict[str, pl.DataType],
    target: Path,
    transform: Callable[[str, pl.LazyFrame], pl.LazyFrame] | None = None,
) -> int:
    """Stream the parts of `table` into one file, in batch order, through `transform`; the row count."""
    target.parent.mkdir(parents=True, exist_ok=True)
    rows = scan_table(folder, table, schema)
    if transform is not None:
        rows = transform(table, rows)
    rows.sink_parquet(target)
    return int(pl.scan_parquet(target).select(pl.len()).collect().item())


def collect_private(work: Path, private_stage: Path) -> pl.DataFrame:
    """Quarantined and suppressed rows, and the rejects, into the private folder; the rejects."""
    for kind in ("quarantine", "suppressed"):
        for table in RELEASED_TABLES:
            found = parts(work / kind, table)
            if found:
                pl.scan_parquet(found).sink_parquet(private_stage / kind / f"{table}.parquet", mkdir=True)
    found = parts(work / "parsed", "rejects")
    rejects = (
        pl.concat([pl.read_parquet(path) for path in found])
        if found
        else pl.DataFrame(schema=dict(TABLE_SCHEMAS["rejects"]))
    )
    rejects.write_parquet(private_stage / "rejects.parquet")
    return rejects

"""A job's inputs cut into batches of whole profiles, and how many workers are worth starting for them."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import polars as pl

from toolkit.errors import UsageError
from toolkit.io import is_parsed_folder, iter_inputs
from toolkit.job_config import JobSettings
from toolkit.kernels import as_profile_set
from toolkit.model import TABLE_SCHEMAS, ProfileSet
from toolkit.parse import record_folders
from toolkit.rules import ParsingRules

_T = TypeVar("_T")


def _batches(items: Iterable[_T], size: int) -> Iterator[list[_T]]:
    batch: list[_T] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _parsed_folder_batches(folder: Path, size: int) -> Iterator[ProfileSet]:
    """A folder written by `toolkit parse`, cut into batches of whole profiles (rejects in the first)."""
    files = {table: folder / f"{table}.parquet" for table in TABLE_SCHEMAS}
    ids = pl.read_parquet(files["profiles"], columns=["profile_id"]).get_column("profile_id")
    starts = range(0, max(ids.len(), 1), size)
    for start in starts:
        chosen = ids.slice(start, size).implode()
        frames = {}
        for table, path in files.items():
            if not path.exists():
                continue
            scan = pl.scan_parquet(path)
            if table == "rejects":
                frames[table] = scan.collect() if start == 0 else scan.head(0).collect()
            else:
                frames[table] = scan.filter(pl.col("profile_id").is_in(chosen)).collect()
        yield as_profile_set(frames)


def job_batches(
    inputs: Sequence[str], parsing: ParsingRules, settings: JobSettings
) -> tuple[Iterator[Any], int, int]:
    """The batches of phase 1, the number of items, and how many workers to run."""
    parsed = [given for given in inputs if is_parsed_folder(Path(given))]
    if parsed:
        if len(inputs) > 1:
            raise UsageError("give either one parsed folder or raw inputs, not both")
        folder = Path(parsed[0])
        try:
            count = pl.scan_parquet(folder / "profiles.parquet").select(pl.len()).collect().item()
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise UsageError(f"{folder}: not a readable parsed folder ({exc.__class__.__name__})") from None
        workers = workers_for(count, settings)
        size = batch_size(count, workers, settings)
        return _parsed_folder_batches(folder, size), count, workers
    is_record = record_folders(parsing)
    count = sum(1 for _ in iter_inputs(inputs, is_record))
    workers = workers_for(count, settings)
    return _batches(iter_inputs(inputs, is_record), batch_size(count, workers, settings)), count, workers


def workers_for(count: int, settings: JobSettings) -> int:
    return max(1, min(settings.workers(), count // max(settings.min_per_worker, 1)))


def batch_size(count: int, workers: int, settings: JobSettings) -> int:
    """The batch size asked for, or less, so that every worker has a batch."""
    return max(1, min(settings.batch_size, math.ceil(count / workers)))

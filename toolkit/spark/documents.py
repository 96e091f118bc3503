"""The job's phase 1 over a Spark DataFrame of raw documents, as `spark.read.format("binaryFile")` gives
(`path`, `content`; other columns are ignored): `toolkit.run(frame, out, engine="spark")`.

Each partition is parsed where it lies (`mapInArrow`), in slices of at most the batch size, each slice's
tables written to the staging store; the driver then numbers the slices in (partition, slice) order as
the job's batches, and the job goes on as it does on files. The documents never pass through the driver.

One row is one input: a file of one or several profiles, or a LinkedIn export as one `.zip` (a folder's
files as separate rows would be separate inputs).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import RejectReason, UsageError
from toolkit.executor import Executor, WorkerContext
from toolkit.io import ReadFailure, within_limit
from toolkit.job_config import JobSettings
from toolkit.kernels import SourceRecord, parse_batch
from toolkit.model import TABLE_SCHEMAS
from toolkit.spark.executor import (
    JobOnWorkers,
    SparkExecutor,
    guarded,
    map_in_arrow,
    spark_cores,
    succeeded,
    worker_context,
)
from toolkit.staging import part, write_part

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.core.broadcast import Broadcast
    from pyspark.sql import DataFrame

DOCUMENT_COLUMNS = ("path", "content")
_INCOMING = "incoming"


@dataclass(frozen=True)
class DocumentSlice:
    """Some documents of one partition, parsed together as one batch."""

    folder: str
    """Where the slice's tables go: `<folder>/<table>/<name>.parquet`."""
    name: str
    documents: list[tuple[str, bytes | None]]


def parse_slice(context: WorkerContext, task: DocumentSlice) -> dict[str, int]:
    """Parse one slice of documents into its staged tables; the rows of each table."""
    limit = context.rules.parsing.max_input_bytes
    records = [SourceRecord(path, _within(path, content, limit)) for path, content in task.documents]
    tables = parse_batch(records, context.rules.parsing)
    for table, frame in tables.tables():
        write_part(frame, Path(task.folder) / table / f"{task.name}.parquet")
    return {table: frame.height for table, frame in tables.tables()}


def _within(path: str, content: bytes | None, limit: int) -> bytes | ReadFailure:
    if content is None:
        return ReadFailure(path, RejectReason.UNREADABLE, "the row has no content")
    return within_limit(path, content, limit)


class Documents:
    """A DataFrame of documents as the source of a job (`toolkit.driver.Source`) on the Spark engine."""

    def __init__(self, frame: DataFrame) -> None:
        missing = [column for column in DOCUMENT_COLUMNS if column not in frame.columns]
        if missing:
            raise UsageError(
                f"the DataFrame of documents has no column {', '.join(missing)}: give path (string) and "
                'content (binary), as spark.read.format("binaryFile") does'
            )
        self.frame = frame
        self.batch_size = 0

    def plan(self, settings: JobSettings) -> int:
        self.batch_size = settings.batch_size
        return spark_cores(self.frame.sparkSession)

    def parse(self, executor: Executor, work: Path, progress: bool) -> list[dict[str, int]]:
        if not isinstance(executor, SparkExecutor) or executor.broadcast is None:
            raise UsageError("a DataFrame of documents is parsed on the Spark engine only (engine='spark')")
        from pyspark.sql import functions as F

        incoming = work / _INCOMING
        documents = self.frame.select(F.col("path").cast("string"), F.col("content").cast("binary"))
        parse = _parse_partition(executor.broadcast, str(incoming), self.batch_size)
        done = map_in_arrow(documents, parse, "partition long, slice long, rows binary")
        rows: list[dict[str, int]] = []
        for batch, found in enumerate(sorted(done, key=lambda row: (row["partition"], row["slice"]))):
            rows.append(succeeded(pickle.loads(found["rows"])))
            name = _slice_name(found["partition"], found["slice"])
            for table in TABLE_SCHEMAS:
                target = part(work / "parsed", table, batch)
                target.parent.mkdir(parents=True, exist_ok=True)
                (incoming / table / f"{name}.parquet").replace(target)
        return rows


def _slice_name(partition: int, number: int) -> str:
    return f"slice-{partition:06d}-{number:06d}"


def _parse_partition(
    job: Broadcast[JobOnWorkers], folder: str, size: int
) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa
        from pyspark import TaskContext

        task = TaskContext.get()
        partition = task.partitionId() if task is not None else 0
        context = worker_context(job)
        number = 0
        for batch in batches:
            paths, contents = batch.column("path").to_pylist(), batch.column("content").to_pylist()
            for start in range(0, batch.num_rows, max(size, 1)):
                chunk = DocumentSlice(
                    folder,
                    _slice_name(partition, number),
                    list(zip(paths[start : start + size], contents[start : start + size], strict=True)),
                )
                found: Any = guarded(context, parse_slice, chunk)
                yield pa.record_batch(
                    [pa.array([partition], pa.int64()), pa.array([number], pa.int64()),
                     pa.array([pickle.dumps(found)], pa.binary())],
                    names=["partition", "slice", "rows"],
                )  # fmt: skip
                number += 1

    return run


def read_release(out: str | Path, session: Any = None) -> dict[str, DataFrame]:
    """The tables of a written release as Spark DataFrames (the active session's, unless given)."""
    from pyspark.sql import SparkSession

    from toolkit.passes import OUTPUT_TABLES

    spark = session or SparkSession.getActiveSession()
    if spark is None:
        raise UsageError("read_release needs a Spark session: start one, or pass it")
    folder = Path(out)
    return {table: spark.read.parquet(str(folder / f"{table}.parquet")) for table in OUTPUT_TABLES}


__all__ = ("DOCUMENT_COLUMNS", "DocumentSlice", "Documents", "parse_slice", "read_release")

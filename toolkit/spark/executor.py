"""The Spark executor and session (`toolkit run ... --engine spark`).

`SparkExecutor` is an executor (`toolkit.executor.Executor`) whose tasks run in Spark's Python workers:
the tasks of a phase (in waves of at most `WAVE_BYTES`, broadcast) are the rows of a DataFrame of their
indexes, a few partitions per core, and `mapInArrow` runs them there and returns their small results.
The job's rules and key reach the workers as one broadcast value (never in a configuration entry, a
query plan, a log line or the event log), and each Python worker keeps its context (the rules, the key,
the NLP engine and what the passes hand down) across tasks: Spark reuses Python workers by default, so
the engine loads once per worker.

A task that fails comes back as the name of its error and where it was raised, never its message: a
message may quote a personal value, and Spark writes a failed task's message into its logs and event log.

The staging store is a folder every worker reads and writes: on one machine (`local[N]`) that is the
private folder's staging, as in the local engine; on a cluster, `--out` and `--private` must lie on a file
system that the driver and every executor mount at the same path.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import traceback
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from toolkit.errors import JobFault, UsageError
from toolkit.executor import WorkerContext, after_task, quiet_stderr
from toolkit.job_config import JobRules
from toolkit.scrub.keys import Keyring

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.core.broadcast import Broadcast
    from pyspark.sql import DataFrame, Row, SparkSession

_T = TypeVar("_T")
_R = TypeVar("_R")

DEFAULT_MASTER = "local[*]"
WAVE_BYTES = 64 << 20
"""Pickled tasks handed to Spark in one Spark job, at most. Most tasks are a few bytes (paths, row
numbers), so a phase is one job and its cores idle only at its end; the batches of a parsed folder carry
their tables, and this bounds what the driver holds of them."""


PARTITIONS_PER_CORE = 4
"""A wave's tasks go in at most this many Spark tasks per core, each running a run of consecutive tasks:
a Spark task costs some 50 ms of its own (2-core machine), which the text pass's hundreds of short tasks
would pay each, while 4 per core still keep every core busy to the end of a phase of long tasks."""


@dataclass(frozen=True)
class JobOnWorkers:
    """What every task of a job needs on a worker: broadcast once per job."""

    rules: JobRules
    keys: Keyring
    staging: Path
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    """Tells one job (or one executor of a job) from the next in a reused Python worker."""


@dataclass(frozen=True)
class TaskFailed:
    """A task's error, as much of it as may be logged: its class and where it was raised."""

    error: str
    where: str
    os_error: bool = False


def spark_session(master: str | None) -> tuple[SparkSession, bool]:
    """The active Spark session (under `spark-submit`, in a notebook), else a new one on `master`
    (default `local[*]`); and whether it was made here (then the job stops it). Raises `UsageError` when
    PySpark is not installed or Spark cannot start (Java missing)."""
    try:
        with warnings.catch_warnings():  # PySpark warns of pandas 3, which the toolkit does not use
            warnings.simplefilter("ignore", FutureWarning)
            from pyspark.sql import SparkSession
    except ImportError:
        raise UsageError('--engine spark needs PySpark: pip install "toolkit[spark]"') from None
    active = SparkSession.getActiveSession()
    if active is not None:
        if master is not None and active.sparkContext.master != master:
            raise UsageError(f"--master {master}: a Spark session on {active.sparkContext.master} is running")
        return active, False
    builder = (
        SparkSession.builder.master(master or DEFAULT_MASTER)
        .appName("toolkit")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.executorEnv.OPENBLAS_NUM_THREADS", "1")
        .config("spark.executorEnv.OMP_NUM_THREADS", "1")
        .config("spark.executorEnv.PYTHONWARNINGS", "ignore::FutureWarning")
    )
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers run this interpreter and its packages
    try:
        # The JVM's standard error is /dev/null, as the local engine's workers' is: the job reports
        # through its results and report.json, and Spark's log lines may quote what a task failed on.
        with quiet_stderr():
            session = builder.getOrCreate()
    except Exception as exc:  # PySparkRuntimeError and the like: Java missing, a bad master URL
        raise UsageError(f"Spark could not start ({_first_line(exc)}); is Java 17 installed?") from None
    session.sparkContext.setLogLevel("ERROR")
    return session, True


def spark_cores(session: SparkSession) -> int:
    """The tasks `session` runs at once (its default parallelism)."""
    return max(1, int(session.sparkContext.defaultParallelism))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else exc.__class__.__name__


class SparkExecutor:
    """Runs each task in a Spark Python worker; results come back in task order, one wave at a time."""

    def __init__(self, session: SparkSession, rules: JobRules, keys: Keyring, staging: Path) -> None:
        self.session = session
        self.job = JobOnWorkers(rules, keys, staging)
        self.broadcast: Broadcast[JobOnWorkers] | None = None

    def __enter__(self) -> SparkExecutor:
        self.broadcast = self.session.sparkContext.broadcast(self.job)
        return self

    def map(self, work: Callable[[WorkerContext, _T], _R], tasks: Iterable[_T]) -> Iterator[_R]:
        assert self.broadcast is not None, "use the executor in a with block"
        wave: list[bytes] = []
        size = 0
        for task in tasks:
            wave.append(pickle.dumps((work, task)))
            size += len(wave[-1])
            if size >= WAVE_BYTES:
                yield from self._run(wave)
                wave, size = [], 0
        if wave:
            yield from self._run(wave)

    def _run(self, wave: list[bytes]) -> Iterator[Any]:
        assert self.broadcast is not None
        # The wave travels as a broadcast value and each task as its index (`range`, made in the JVM): no
        # Python job to turn the payloads into rows, and no payload in a query plan.
        tasks = self.session.sparkContext.broadcast(wave)
        try:
            partitions = min(len(wave), PARTITIONS_PER_CORE * spark_cores(self.session))
            indexes = self.session.range(len(wave), numPartitions=partitions)
            done = map_in_arrow(indexes, _tasks_in_worker(self.broadcast, tasks), "index long, result binary")
        finally:
            with contextlib.suppress(Exception):
                tasks.destroy()
        results = dict(sorted((row["index"], pickle.loads(row["result"])) for row in done))
        if sorted(results) != list(range(len(wave))):
            raise JobFault("Spark returned the results of some tasks twice or not at all")
        for index in range(len(wave)):
            yield succeeded(results.pop(index))

    def __exit__(self, *exc: object) -> None:
        if self.broadcast is not None:
            with contextlib.suppress(Exception):  # the session may be gone already (interrupted)
                self.broadcast.destroy()
            self.broadcast = None


def map_in_arrow(
    frame: DataFrame, work: Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]], schema: str
) -> list[Row]:
    """`frame.mapInArrow(work, schema)`, collected; a failure of Spark itself (a worker died, the session
    was stopped) is one `JobFault` naming its class only."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # pandas 3 (see `spark_session`)
            mapped = frame.mapInArrow(work, schema)
        return mapped.collect()
    except Exception as exc:  # Py4J and PySpark errors
        raise JobFault(f"Spark failed ({exc.__class__.__name__})") from None


def _tasks_in_worker(
    job: Broadcast[JobOnWorkers], tasks: Broadcast[list[bytes]]
) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        context = worker_context(job)
        for batch in batches:
            indexes = batch.column("id").to_pylist()
            results = [pickle.dumps(run_task(context, tasks.value[index])) for index in indexes]
            yield pa.record_batch(
                [pa.array(indexes, pa.int64()), pa.array(results, pa.binary())], names=["index", "result"]
            )

    return run


_CONTEXTS: dict[str, WorkerContext] = {}
"""This Python worker's context of the job it runs tasks for: what it loaded stays for the next tasks."""


def worker_context(job: Broadcast[JobOnWorkers]) -> WorkerContext:
    found = job.value
    context = _CONTEXTS.get(found.token)
    if context is None:
        _CONTEXTS.clear()  # a new job: the previous one's names index and phrases go
        context = _CONTEXTS[found.token] = WorkerContext(found.rules, found.keys, found.staging)
    return context


def succeeded(result: Any) -> Any:
    """A task's result, or the `JobFault` its failure ends the job with."""
    if isinstance(result, TaskFailed):
        if result.os_error:
            raise JobFault(f"a Spark task could not write its part ({result.error})")
        raise JobFault(f"a Spark task failed: {result.error} at {result.where}")
    return result


def run_task(context: WorkerContext, payload: bytes) -> Any:
    """`work(context, task)` of a pickled `(work, task)`, or how it failed (`TaskFailed`)."""
    try:
        work, task = pickle.loads(payload)
    except Exception as exc:
        return TaskFailed(exc.__class__.__name__, "unpickling the task")
    return guarded(context, work, task)


def guarded(context: WorkerContext, work: Callable[[WorkerContext, _T], _R], task: _T) -> _R | TaskFailed:
    """`work(context, task)`, or how it failed: its error's class and line, never its message."""
    try:
        return work(context, task)
    except OSError as exc:
        return TaskFailed(os.strerror(exc.errno) if exc.errno else exc.__class__.__name__, "", os_error=True)
    except Exception as exc:
        frames = traceback.extract_tb(exc.__traceback__)
        where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
        return TaskFailed(exc.__class__.__name__, where)
    finally:
        after_task()


__all__ = (
    "DEFAULT_MASTER",
    "JobOnWorkers",
    "SparkExecutor",
    "TaskFailed",
    "guarded",
    "map_in_arrow",
    "run_task",
    "spark_cores",
    "spark_session",
    "succeeded",
    "worker_context",
)

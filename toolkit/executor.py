"""Where the kernels run: an executor maps a task function over tasks, each call given its worker's context.

`LocalExecutor` runs them in this process (one worker) or in a pool of spawned processes;
`toolkit.spark.SparkExecutor` in Spark's Python workers. An executor needs only `map`: a task is a
module-level function `work(context, task)` of picklable arguments whose effects are parts in the staging
store, and whose result is small.

    WorkerContext   what a worker knows: the rules, the key, the staging folder, and what it has loaded
                    once for many tasks (the names index, a phrase finder...), one value per slot
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from toolkit.errors import JobFault
from toolkit.job_config import JobRules
from toolkit.memory import forget_task_caches, give_back
from toolkit.scrub.keys import Keyring

_T = TypeVar("_T")
_R = TypeVar("_R")
_V = TypeVar("_V")


@dataclass
class WorkerContext:
    rules: JobRules
    keys: Keyring
    staging: Path
    """The job's private work folder (`toolkit.staging`)."""
    _slots: dict[str, tuple[Hashable, Any]] = field(default_factory=dict, repr=False)

    def cached(self, slot: str, key: Hashable, make: Callable[[], _V]) -> _V:
        """The value of `slot` made for `key`: made once, and let go of when the slot is asked for another
        key (a worker holds one names index, one set of kept runs... at a time)."""
        held = self._slots.get(slot)
        if held is None or held[0] != key:
            self._slots.pop(slot, None)
            self._slots[slot] = (key, make())
        return cast("_V", self._slots[slot][1])


class Executor(Protocol):
    def map(self, work: Callable[[WorkerContext, _T], _R], tasks: Iterable[_T]) -> Iterator[_R]:
        """`work(context, task)` for each task, the results in task order."""
        ...


_CONTEXT: WorkerContext | None = None
"""A pool worker's context (set once when the process starts: spawned processes share nothing)."""


class LocalExecutor:
    """The kernels run here with one worker, else in a pool of spawned processes (never forked: Polars'
    thread pool does not survive a fork). Results come back in task order, with a bounded number of tasks
    in flight, so the tasks' iterator is consumed only as fast as the workers go."""

    def __init__(self, count: int, rules: JobRules, keys: Keyring, staging: Path) -> None:
        self.count = count
        self.context = WorkerContext(rules, keys, staging)
        self.pool: Any = None

    def __enter__(self) -> LocalExecutor:
        if self.count > 1:
            with quiet_stderr():  # the driver owns the terminal: workers report through their results
                self.pool = multiprocessing.get_context("spawn").Pool(
                    self.count,
                    initializer=_init_worker,
                    initargs=(self.context.rules, self.context.keys, self.context.staging),
                )
        return self

    def map(self, work: Callable[[WorkerContext, _T], _R], tasks: Iterable[_T]) -> Iterator[_R]:
        if self.pool is None:
            for task in tasks:
                try:
                    result = work(self.context, task)
                finally:
                    after_task()
                yield result
            return
        pending: list[Any] = []
        for task in tasks:
            pending.append(self.pool.apply_async(_in_worker, (work, task)))
            if len(pending) >= 2 * self.count:
                yield _result(pending.pop(0))
        while pending:
            yield _result(pending.pop(0))

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            if exc[0] is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()
        self.context = WorkerContext(self.context.rules, self.context.keys, self.context.staging)


def _init_worker(rules: JobRules, keys: Keyring, staging: Path) -> None:
    """In each worker: Ctrl-C is the driver's to handle, and the worker dies with the driver."""
    global _CONTEXT
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    _CONTEXT = WorkerContext(rules, keys, staging)


def _die_with_parent() -> None:
    name = ctypes.util.find_library("c")
    if name is not None and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(name).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _in_worker(work: Callable[[WorkerContext, _T], _R], task: _T) -> _R:
    assert _CONTEXT is not None, "worker not initialised"
    try:
        return work(_CONTEXT, task)
    finally:
        after_task()


def after_task() -> None:
    """A task's caches emptied and the C heap's free pages handed back: a worker's batches free what they
    used, and the pages would otherwise stay with the worker for the rest of the job."""
    forget_task_caches()
    give_back()


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Standard error is /dev/null for the processes started inside (they inherit file descriptor 2)."""
    saved, quiet = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(quiet, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)


def _result(pending: Any) -> Any:
    try:
        return pending.get()
    except JobFault:
        raise
    except OSError as exc:
        raise JobFault(f"a worker could not write its part ({exc.strerror or exc})") from None
    except Exception as exc:
        raise JobFault(f"a worker failed: {exc.__class__.__name__}: {exc}") from exc

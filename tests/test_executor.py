"""The executor: tasks get their worker's context, results come back in task order, a worker holds one
value per slot of its context, and no task inherits the caches of the one before."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.errors import JobFault
from toolkit.executor import LocalExecutor, WorkerContext
from toolkit.job_config import JobRules
from toolkit.memory import forget_task_caches
from toolkit.rules import load_parsing_rules
from toolkit.scrub import Keyring
from toolkit.text import fold

RULES = JobRules(load_parsing_rules())
KEYS = Keyring(b"an executor test secret, long enough", "TOOLKIT_SECRET")


def _context(tmp_path: Path) -> WorkerContext:
    return WorkerContext(RULES, KEYS, tmp_path)


def test_a_slot_holds_one_value_made_once_per_key(tmp_path: Path) -> None:
    context = _context(tmp_path)
    made: list[str] = []

    def make(key: str) -> list[str]:
        made.append(key)
        return [key]

    first = context.cached("names", "a", lambda: make("a"))
    assert context.cached("names", "a", lambda: make("a")) is first
    assert context.cached("finder", "a", lambda: make("finder")) == ["finder"]  # another slot
    assert context.cached("names", "b", lambda: make("b")) == ["b"]
    assert context.cached("names", "a", lambda: make("a")) is not first  # "b" replaced it
    assert made == ["a", "finder", "b", "a"]


def _square(context: WorkerContext, task: int) -> tuple[int, str]:
    return task * task, context.staging.name


def _fails(context: WorkerContext, task: int) -> int:
    raise ValueError(f"task {task} failed")


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_in_task_order_with_the_workers_context(tmp_path: Path, workers: int) -> None:
    with LocalExecutor(workers, RULES, KEYS, tmp_path / "work") as executor:
        assert list(executor.map(_square, range(7))) == [(n * n, "work") for n in range(7)]


def test_a_task_that_fails_in_a_worker_ends_in_one_job_fault(tmp_path: Path) -> None:
    executor = LocalExecutor(2, RULES, KEYS, tmp_path)
    with pytest.raises(JobFault, match="a worker failed: ValueError: task 0 failed"), executor:
        list(executor.map(_fails, range(3)))


def _folds_twice(context: WorkerContext, task: int) -> tuple[int, int]:
    held = fold.cache_info().currsize
    fold(f"Words of Task {task}")
    fold(f"Words of Task {task}")
    return held, fold.cache_info().hits


@pytest.mark.parametrize("workers", [1, 2])
def test_each_task_starts_with_empty_task_caches(tmp_path: Path, workers: int) -> None:
    forget_task_caches()
    with LocalExecutor(workers, RULES, KEYS, tmp_path) as executor:
        results = list(executor.map(_folds_twice, range(4)))
    assert [held for held, _ in results] == [0, 0, 0, 0]
    assert all(hits >= 1 for _, hits in results)  # within a task, the cache still serves

"""Handing freed memory back to the system between the phases of a job.

numpy's arrays come from the C library's allocator and Polars' frames from its own (jemalloc): memory one
of them frees is not memory the other can reuse, so a process that alternates between them holds the
high-water mark of both. glibc keeps freed blocks below its mmap threshold in its heap, and that threshold
rises to 32 MiB as large arrays are freed, so the 18 MiB arrays of the risk pass at 200,000 persons stay
in the heap; `malloc_trim` hands their free pages back. Where the C library has no `malloc_trim` (musl,
macOS, Windows) this does nothing.

A cache whose keys are the words and texts of persons grows with every batch a worker reads; caches made
with `task_cache` are emptied after each task (`forget_task_caches`), so what a worker holds does not grow
with the job. A task meets its own words many times (a person's name in each of their texts), and the
words of one batch are mostly not the next one's: at 200,000 profiles, `handle_forms`' 16,384 entries held
60 MiB per worker and the hits stayed within a batch.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")

_TASK_CACHES: list[functools._lru_cache_wrapper[object]] = []


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def give_back() -> bool:
    """Return the C heap's free pages to the system; whether any were returned."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False


def task_cache(maxsize: int) -> Callable[[Callable[_P, _R]], functools._lru_cache_wrapper[_R]]:
    """`functools.lru_cache(maxsize)`, emptied by `forget_task_caches`."""

    def cached(function: Callable[_P, _R]) -> functools._lru_cache_wrapper[_R]:
        wrapper = functools.lru_cache(maxsize=maxsize)(function)
        _TASK_CACHES.append(wrapper)
        return wrapper

    return cached


def forget_task_caches() -> None:
    """Empty every `task_cache` of this process."""
    for cache in _TASK_CACHES:
        cache.cache_clear()

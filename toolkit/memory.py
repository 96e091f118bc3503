"""Handing freed memory back to the system between the phases of a job.

numpy's arrays come from the C library's allocator and Polars' frames from its own (jemalloc): memory one
of them frees is not memory the other can reuse, so a process that alternates between them holds the
high-water mark of both. glibc keeps freed blocks below its mmap threshold in its heap, and that threshold
rises to 32 MiB as large arrays are freed, so the 18 MiB arrays of the risk pass at 200,000 persons stay
in the heap; `malloc_trim` hands their free pages back. Where the C library has no `malloc_trim` (musl,
macOS, Windows) this does nothing.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable


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

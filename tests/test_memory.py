"""`toolkit.memory.give_back`: the C heap's free pages go back to the system."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolkit.memory import _malloc_trim, give_back

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or _malloc_trim() is None, reason="needs glibc's malloc_trim"
)


def _resident_mib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


def test_blocks_freed_in_the_middle_of_the_heap_go_back() -> None:
    blocks = [bytearray(b"x" * 64 * 1024) for _ in range(2_000)]  # below the mmap threshold: in the heap
    last = blocks.pop()  # keeps the heap's top in use, so free() alone cannot shrink it
    held = _resident_mib()
    blocks.clear()
    assert give_back() is True
    assert _resident_mib() < held - 64  # of the 125 MiB freed
    assert last

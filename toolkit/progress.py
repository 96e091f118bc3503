"""A progress bar on stderr, shown only on a terminal and only for jobs worth watching."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

_MIN_ITEMS = 20
_REDRAW_SECONDS = 0.1
_WIDTH = 30


class Progress:
    """`with Progress(total, "parse") as tick: ... tick()` (or `tick(n)` for n items at once). Silent when
    stderr is not a terminal."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.label = label
        self.done = 0
        self.enabled = total >= _MIN_ITEMS and self.stream.isatty()
        self._last_draw = 0.0

    def __enter__(self) -> Progress:
        return self

    def __call__(self, items: int = 1) -> None:
        self.done = min(self.total, self.done + items)
        now = time.monotonic()
        if self.enabled and (now - self._last_draw >= _REDRAW_SECONDS or self.done == self.total):
            self._last_draw = now
            filled = _WIDTH * self.done // max(self.total, 1)
            bar = "#" * filled + "-" * (_WIDTH - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            self.stream.flush()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()

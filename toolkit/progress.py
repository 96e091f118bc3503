"""A progress bar on stderr with rate and time left, for the job driver; shown only on a terminal and only
for jobs worth watching. Stages never draw: the driver owns the terminal."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

_MIN_ITEMS = 20
_REDRAW_SECONDS = 0.2
_WIDTH = 30


class Progress:
    """`with Progress(total, "parse") as tick: ... tick(n)` after n more items. Silent when stderr is not
    a terminal, when `enabled` is False, or for fewer than 20 items."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.label = label
        self.done = 0
        self.enabled = enabled and total >= _MIN_ITEMS and self.stream.isatty()
        self._started = time.monotonic()
        self._last_draw = 0.0

    def __enter__(self) -> Progress:
        self._started = time.monotonic()
        return self

    def __call__(self, items: int = 1) -> None:
        self.done = min(self.total, self.done + items)
        now = time.monotonic()
        if self.enabled and (now - self._last_draw >= _REDRAW_SECONDS or self.done == self.total):
            self._last_draw = now
            self.stream.write("\r" + self.line(now - self._started))
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        """'scrub [#####-----] 120/400 35.2/s 0:08 left'."""
        filled = _WIDTH * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else None
        eta = f"{int(left) // 60}:{int(left) % 60:02d} left" if left is not None else "--:-- left"
        return f"{self.label} [{bar}] {self.done}/{self.total} {rate:.1f}/s {eta}"

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()

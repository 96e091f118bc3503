"""One time budget for all the patterns read over one text, instead of a timeout on each pattern.

Presidio gives every regular-expression search a timeout, so a pattern that backtracks without end on
some text cannot stall the job. The `regex` package pays about 2 microseconds for each timed call, and the
scrubber makes one call per pattern and text: a third of the recognizers' time. Here the whole scan of a
text runs under one interval timer (SIGALRM; `regex` checks for signals while it matches), and only a text
that overruns it is read again with the per-call timeouts, whose results are the same. Where a timer
cannot be used (not the main thread, another SIGALRM handler or timer in use, no SIGALRM on the
platform), every text is read with the per-call timeouts.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TypeVar

_T = TypeVar("_T")

TEXT_BUDGET_SECONDS = 2.0
"""How long the scan of one text may take before it is read again with a timeout on each search."""


class _OverBudget(Exception):
    """Raised by the timer's signal handler inside a scan that took too long."""


class _Alarm:
    """The SIGALRM handler: it raises only while a scan is armed, so a signal handled late, after the scan
    returned, is ignored."""

    def __init__(self) -> None:
        self.armed = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.armed:
            raise _OverBudget


def _free() -> bool:
    """Whether this thread may use SIGALRM's interval timer: the main thread, no handler of another's, no
    timer running."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        return False
    return signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None) and signal.getitimer(
        signal.ITIMER_REAL
    ) == (0.0, 0.0)


@contextlib.contextmanager
def budgeted() -> Iterator[Callable[[Callable[[float | None], _T]], _T]]:
    """A runner for the scans of many texts: `run(scan)` calls `scan(None)` (searches without a timeout)
    under the text budget, and `scan(per_call)` (a timeout of `per_call` seconds on each search) when that
    overruns or no timer is free."""
    from presidio_analyzer.analyzer_engine import REGEX_TIMEOUT_SECONDS

    if not _free():

        def timed(scan: Callable[[float | None], _T]) -> _T:
            return scan(REGEX_TIMEOUT_SECONDS)

        yield timed
        return

    alarm = _Alarm()

    def within_budget(scan: Callable[[float | None], _T]) -> _T:
        try:
            alarm.armed = True
            signal.setitimer(signal.ITIMER_REAL, TEXT_BUDGET_SECONDS)
            try:
                return scan(None)
            finally:
                alarm.armed = False
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _OverBudget:
            return scan(REGEX_TIMEOUT_SECONDS)

    previous = signal.signal(signal.SIGALRM, alarm)
    try:
        yield within_budget
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

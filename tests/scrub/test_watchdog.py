"""One time budget per text for the recognizers' searches: a scan that overruns it is done again with a
timeout on each search; where the timer is not free, every scan has the per-search timeouts."""

from __future__ import annotations

import signal
import threading
import time

import pytest
import regex
from presidio_analyzer.analyzer_engine import REGEX_TIMEOUT_SECONDS

from toolkit.scrub import watchdog
from toolkit.scrub.watchdog import budgeted


def _scan_that_overruns(calls: list[float | None]) -> object:
    def scan(timeout: float | None) -> str:
        calls.append(timeout)
        if timeout is None:
            # A search that backtracks without end: `regex` checks for signals while it matches.
            regex.compile(r"(?:a|aa)+c").search("a" * 64)
            return "not reached"
        return "read with timeouts"

    return scan


def test_a_scan_within_the_budget_runs_once_without_timeouts() -> None:
    calls: list[float | None] = []

    def scan(timeout: float | None) -> str:
        calls.append(timeout)
        return "done"

    with budgeted() as run:
        assert run(scan) == "done"
    assert calls == [None]


def test_a_scan_over_the_budget_is_read_again_with_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watchdog, "TEXT_BUDGET_SECONDS", 0.05)
    calls: list[float | None] = []
    started = time.perf_counter()
    with budgeted() as run:
        assert run(_scan_that_overruns(calls)) == "read with timeouts"  # type: ignore[arg-type]
    assert calls == [None, REGEX_TIMEOUT_SECONDS]
    assert time.perf_counter() - started < 5


def test_the_signal_handler_and_timer_are_given_back() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with budgeted() as run:
        run(lambda timeout: None)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_another_alarm_handler_is_left_alone() -> None:
    def theirs(signum: int, frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGALRM, theirs)
    try:
        calls: list[float | None] = []
        with budgeted() as run:
            run(lambda timeout: calls.append(timeout))
        assert calls == [REGEX_TIMEOUT_SECONDS]
        assert signal.getsignal(signal.SIGALRM) is theirs
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_outside_the_main_thread_every_search_has_its_timeout() -> None:
    calls: list[float | None] = []

    def work() -> None:
        with budgeted() as run:
            run(lambda timeout: calls.append(timeout))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert calls == [REGEX_TIMEOUT_SECONDS]

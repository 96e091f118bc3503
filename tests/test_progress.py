"""The progress bar shows on a terminal for many files, and never in pipes or logs."""

from __future__ import annotations

import io

import pytest

from toolkit.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "total", "shown"),
    [(_Terminal(), 50, True), (_Terminal(), 3, False), (io.StringIO(), 50, False)],
    ids=["terminal-many-files", "terminal-few-files", "pipe"],
)
def test_progress_is_shown_only_on_a_terminal_for_many_files(
    stream: io.StringIO, total: int, shown: bool
) -> None:
    with Progress(total, "parse", stream=stream) as tick:
        for _ in range(total):
            tick()
    output = stream.getvalue()
    assert (f"{total}/{total}" in output) is shown
    assert output.endswith("\r\033[K") is shown


def test_progress_counts_items_done_at_once_and_never_passes_the_total() -> None:
    stream = _Terminal()
    with Progress(40, "scrub", stream=stream) as advance:
        advance(30)
        advance(30)
    assert "40/40" in stream.getvalue()
    assert "60/40" not in stream.getvalue()

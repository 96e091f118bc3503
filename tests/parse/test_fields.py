"""Case tables for the small field parsers every layout shares."""

from __future__ import annotations

import datetime as dt

import pytest

from toolkit.parse.fields import (
    CommitStats,
    Period,
    cut_footer,
    looks_like_tags,
    parse_commit_stats,
    parse_duration_months,
    parse_period,
    split_score,
    split_tags,
)
from toolkit.text import clean, clean_lines

VOCABULARY = frozenset(
    ["ai", "deep-learning", "tensorflow", "machine-learning", "python", "python3", "compiler", "go", "c", "r"]
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Aug 2019 - Oct 2020", Period(dt.date(2019, 8, 1), dt.date(2020, 10, 1))),
        ("August 2019 - October 2020", Period(dt.date(2019, 8, 1), dt.date(2020, 10, 1))),
        ("Sept. 2018 \u2013 Jan 2019", Period(dt.date(2018, 9, 1), dt.date(2019, 1, 1))),
        ("Aug 2019-Oct 2020", Period(dt.date(2019, 8, 1), dt.date(2020, 10, 1))),
        ("Mar 2021 - Present", Period(dt.date(2021, 3, 1), None)),
        ("Mar 2021 - now", Period(dt.date(2021, 3, 1), None)),
        ("Foo 2019 - Oct 2020", None),
        ("Aug 2019", None),
        ("Aug 19 - Oct 20", None),
        ("A machine learning compiler", None),
    ],
)
def test_parse_period(line: str, expected: Period | None) -> None:
    assert parse_period(line) == expected


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("1 year 2 months", 14),
        ("1 year 11 months", 23),
        ("2 years", 24),
        ("3 months", 3),
        ("1 month", 1),
        ("2 years and 1 month", 25),
        ("less than a month", 0),
        ("a while", None),
        ("", None),
    ],
)
def test_parse_duration_months(text: str, months: int | None) -> None:
    assert parse_duration_months(text) == months


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("56 commits in 1 year 2 months", CommitStats(56, 14)),
        ("1 commit in 1 month", CommitStats(1, 1)),
        ("1,204 commits in 3 years", CommitStats(1204, 36)),
        ("7 commits in a while", CommitStats(7, None)),
        ("many commits", None),
    ],
)
def test_parse_commit_stats(text: str, expected: CommitStats | None) -> None:
    assert parse_commit_stats(text) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("xla10", ("xla", 10)),
        ("c-language10", ("c-language", 10)),
        ("algorithm9", ("algorithm", 9)),
        ("python39", ("python3", 9)),  # a skill ending in a digit keeps it
        ("python310", ("python3", 10)),
        ("web30", ("web3", 0)),  # 30 is no score: 0..10
        ("python", ("python", None)),  # truncated: the score is missing
        ("10", ("10", None)),
    ],
)
def test_split_score(line: str, expected: tuple[str, int | None]) -> None:
    assert split_score(line, VOCABULARY) == expected


@pytest.mark.parametrize(
    ("glued", "tags"),
    [
        ("aideep-learningtensorflowmachine-learningpython", ["ai", "deep-learning", "tensorflow", "machine-learning", "python"]),
        ("compilermachine-learning", ["compiler", "machine-learning"]),
        ("python", ["python"]),
        ("pythonquokkaflowcompiler", ["python", "quokkaflow", "compiler"]),  # unknown tag kept whole
        ("zzz", ["zzz"]),
        ("crystal", ["crystal"]),  # one-letter terms ("c", "r") do not cut words
        ("python3compiler", ["python3", "compiler"]),  # longest known term wins
    ],
)  # fmt: skip
def test_split_tags(glued: str, tags: list[str]) -> None:
    assert split_tags(glued, VOCABULARY) == tags


@pytest.mark.parametrize(
    ("line", "is_tags"),
    [("aideep-learning", True), ("c++cuda", True), ("Role in this project:", False), ("two words", False)],
)
def test_looks_like_tags(line: str, is_tags: bool) -> None:
    assert looks_like_tags(line) is is_tags


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("Find and Hire Top DevelopersWe've analyzed ...", ""),
        ("compilermachine-learningFind and Hire Top Developers We've ...", "compilermachine-learning"),
        ("python", "python"),
    ],
)
def test_cut_footer(line: str, kept: str) -> None:
    assert cut_footer(line, ["Find and Hire Top Developers"]) == kept


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("Ada\u00a0Byron", "Ada Byron"),  # no-break space
        ("Ada\u2009Byron", "Ada Byron"),  # thin space
        ("Ada\u202fByron", "Ada Byron"),  # narrow no-break space
        ("Ada \t  Byron ", "Ada Byron"),
        ("Ada\u200bByron", "AdaByron"),  # zero-width space removed
        ("Jose\u0301", "José"),  # NFC
        ("\ufeffExperience", "Experience"),
    ],
)
def test_clean(raw: str, cleaned: str) -> None:
    assert clean(raw) == cleaned


def test_clean_lines_splits_every_line_ending() -> None:
    assert clean_lines("a\r\nb\rc\u2028d\n\ne") == ["a", "b", "c", "d", "", "e"]

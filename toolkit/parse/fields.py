"""Small field parsers shared by the layouts: periods, durations, scores, glued tags, site footers.

Each takes one cleaned line (see `toolkit.text.clean`) and returns `None` when the line is not of its kind,
so a layout can try them in turn. None of them raises on any input.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_MONTH_YEAR = r"[A-Za-z]{3,9}\.? \d{4}"
_OPEN_END = ("present", "now", "current", "today")
_PERIOD = re.compile(
    rf"^(?P<start>{_MONTH_YEAR}) ?[-\u2013\u2014] ?(?P<end>{_MONTH_YEAR}|{'|'.join(_OPEN_END)})$",
    re.IGNORECASE,
)
# Numbers are bounded in the patterns so every value fits its column's dtype; longer ones stay unparsed.
_COMMITS = re.compile(
    r"^(?P<commits>\d{1,3}(?:,\d{3}){1,4}|\d{1,15}) commits? in (?P<duration>.+)$", re.IGNORECASE
)
_DURATION = re.compile(
    r"^(?:(?P<years>\d{1,4}) years?)?(?: ?(?:and )?(?P<months>\d{1,4}) months?)?$"
    r"|^(?P<less>less than a month)$",
    re.IGNORECASE,
)
_SCORE = re.compile(r"^(?P<skill>.+?)(?P<score>10|\d)$")
_TAG_CHARS = re.compile(r"^[a-z0-9][a-z0-9+#.\-]*$")


@dataclass(frozen=True, slots=True)
class Period:
    start: dt.date | None
    end: dt.date | None
    """None for an open period ("Present")."""


def month_start(text: str) -> dt.date | None:
    """'Aug 2019' or 'August 2019' -> 2019-08-01; None when the month name or year is not valid."""
    month_name, _, year = text.replace(".", "").partition(" ")
    month = _MONTHS.get(month_name.lower())
    if month is None or not year.isdigit() or not 1900 <= int(year) <= 2100:
        return None
    return dt.date(int(year), month, 1)


def parse_period(line: str) -> Period | None:
    """'Aug 2019 - Oct 2020' -> Period(2019-08-01, 2020-10-01); 'Aug 2019 - Present' -> end None."""
    match = _PERIOD.match(line)
    if match is None:
        return None
    start = month_start(match["start"])
    if start is None:
        return None
    end_text = match["end"]
    if end_text.lower() in _OPEN_END:
        return Period(start, None)
    end = month_start(end_text)
    return None if end is None else Period(start, end)


def parse_duration_months(text: str) -> int | None:
    """'1 year 2 months' -> 14, '3 months' -> 3, '2 years' -> 24, 'less than a month' -> 0."""
    match = _DURATION.match(text.strip())
    if match is None:
        return None
    if match["less"]:
        return 0
    if match["years"] is None and match["months"] is None:
        return None
    return int(match["years"] or 0) * 12 + int(match["months"] or 0)


@dataclass(frozen=True, slots=True)
class CommitStats:
    commits: int
    duration_months: int | None


def parse_commit_stats(text: str) -> CommitStats | None:
    """'56 commits in 1 year 2 months' -> CommitStats(56, 14); the duration may be unreadable (None)."""
    match = _COMMITS.match(text.strip())
    if match is None:
        return None
    return CommitStats(int(match["commits"].replace(",", "")), parse_duration_months(match["duration"]))


def split_score(line: str, vocabulary: Collection[str]) -> tuple[str, int | None]:
    """Split a skill glued to its 0..10 score: 'xla10' -> ('xla', 10), 'python39' -> ('python3', 9).

    A trailing '10' is read as the score unless only the one-digit reading leaves a known skill
    ('web310' gives 'web3', 10; a known 'foo1' then '0' gives 'foo1', 0). No trailing digit: score None.
    """
    match = _SCORE.match(line)
    if match is None or not any(char.isalpha() for char in match["skill"]):
        return line, None
    skill, score = match["skill"], int(match["score"])
    if score == 10:
        one_digit = line[:-1]
        if one_digit.lower() in vocabulary and skill.lower() not in vocabulary:
            return one_digit, 0
    return skill.strip(), score


def looks_like_tags(line: str) -> bool:
    """A glued tag list is lower-case with no spaces: 'aideep-learningtensorflow'."""
    return _TAG_CHARS.match(line) is not None


@lru_cache(maxsize=8)
def _term_lengths(vocabulary: frozenset[str]) -> frozenset[int]:
    return frozenset(len(term) for term in vocabulary)


def split_tags(
    glued: str, vocabulary: frozenset[str], extra: frozenset[str] = frozenset(), max_term: int = 40
) -> list[str]:
    """Split glued tags against a vocabulary: 'aideep-learningpython' -> ['ai', 'deep-learning', 'python'].

    Dynamic programming picks the split that leaves the fewest characters unexplained, then uses the fewest
    pieces. Each unexplained run is kept as one tag of its own, so no text is lost. One-letter terms ("c",
    "r") are not used as pieces: they would cut every unknown tag that holds the letter. `extra` holds
    terms known for this document only (its own skills).
    """
    n = len(glued)
    all_lengths = _term_lengths(vocabulary) | {len(term) for term in extra}
    lengths = sorted(length for length in all_lengths if 1 < length <= max_term)
    # best[i] = (unexplained chars, pieces, previous cut, piece is known) for glued[:i]
    best: list[tuple[int, int, int, bool]] = [(0, 0, 0, True)] + [(n + 1, n + 1, 0, False)] * n
    for end in range(1, n + 1):
        unexplained, pieces, _, _ = best[end - 1]
        best[end] = (unexplained + 1, pieces + 1, end - 1, False)  # one more unexplained character
        for length in lengths:
            start = end - length
            if start < 0:
                break
            piece = glued[start:end]
            if piece in vocabulary or piece in extra:
                unexplained, pieces, _, _ = best[start]
                if (unexplained, pieces + 1) < best[end][:2]:
                    best[end] = (unexplained, pieces + 1, start, True)
    pieces_rev: list[tuple[str, bool]] = []
    end = n
    while end > 0:
        _, _, start, known = best[end]
        pieces_rev.append((glued[start:end], known))
        end = start
    return _merge_unknown_runs(pieces_rev[::-1])


def _merge_unknown_runs(pieces: Sequence[tuple[str, bool]]) -> list[str]:
    tags: list[str] = []
    previous_known = True
    for piece, known in pieces:
        if not known and not previous_known:
            tags[-1] += piece
        else:
            tags.append(piece)
        previous_known = known
    return tags


def cut_footer(line: str, footers: Sequence[str]) -> str:
    """Drop a site footer and everything after it on the line ('pythonFind and Hire ...' -> 'python')."""
    for footer in footers:
        at = line.find(footer)
        if at != -1:
            line = line[:at]
    return line.strip()


def split_location(location: str | None) -> tuple[str | None, str | None, str | None]:
    """'City, Region, Country' / 'City, Country' / 'Country'. Longer lists keep their middle in region."""
    if location is None:
        return None, None, None
    parts = [part.strip() for part in location.split(",") if part.strip()]
    if len(parts) == 1:
        return None, None, parts[0]
    if len(parts) == 2:
        return parts[0], None, parts[1]
    return parts[0], ", ".join(parts[1:-1]), parts[-1]

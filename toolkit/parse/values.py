"""Values of structured formats (JSON, CSV) as the contract holds them: text cleaned (HTML to text, NFC, one
space), empty strings as nulls, dates in the shapes real exports write, and the code-host repository a
project URL names. None of these raises on any input."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from typing import Any

from toolkit.parse.fields import month_start
from toolkit.text import clean

_TAG = re.compile(r"<[A-Za-z!/][^<>]*>")
_BLOCK_TAGS = frozenset({"br", "p", "div", "li", "ul", "ol", "tr", "h1", "h2", "h3", "h4", "h5", "h6"})
_ISO = re.compile(r"^(?P<year>\d{4})(?:-(?P<month>\d{1,2})(?:-(?P<day>\d{1,2}))?)?(?:[T ][0-9:.+\-Z]*)?$")
_SLASHED = re.compile(r"^(?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{2}|\d{4})$")
_DAY_MONTH_YEAR = re.compile(r"^(?P<day>\d{1,2})\.? (?P<rest>[A-Za-z]{3,9}\.? \d{4})$")
_MONTH_DAY_YEAR = re.compile(r"^(?P<month>[A-Za-z]{3,9})\.? (?P<day>\d{1,2}),? (?P<year>\d{4})$")
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org")
_REPOSITORY_URL = re.compile(
    r"^(?:https?://)?(?:www\.)?(?:" + "|".join(re.escape(h) for h in _CODE_HOSTS) + r")/"
    r"(?P<owner>[A-Za-z0-9][A-Za-z0-9_.-]*)/(?P<name>[A-Za-z0-9_.-]+?)(?:\.git)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)
_TWO_DIGIT_PIVOT = 69
"""Two-digit years 00-69 are 20xx and 70-99 are 19xx, as POSIX strptime's %y reads them."""


class _TextOfHtml(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def text_of(value: Any) -> str | None:
    """A scalar as clean text: HTML reduced to its text, white space folded, "" and blanks as None.
    Numbers become their text; lists, objects and booleans are not text (None)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return clean(str(value))
    if not isinstance(value, str):
        return None
    if _TAG.search(value) or "&" in value:
        reader = _TextOfHtml()
        reader.feed(value)
        reader.close()
        value = "".join(reader.parts)
    return clean(value) or None


def texts_of(value: Any) -> list[str]:
    """The text items of a list (a lone string counts as a list of one); blanks and non-text dropped."""
    items = value if isinstance(value, list) else [value]
    return [text for text in (text_of(item) for item in items) if text is not None]


def date_of(value: Any) -> dt.date | None:
    """The month a date falls in (the contract has month precision), from the shapes exports write:
    'YYYY', 'YYYY-MM', 'YYYY-MM-DD' (an ISO time after it is ignored), 'Mon YYYY', 'DD Mon YYYY',
    'Mon DD, YYYY' and 'M/D/YY' or 'M/D/YYYY'. A year alone is its January. Anything else is None."""
    text = text_of(value)
    if text is None:
        return None
    if (iso := _ISO.match(text)) is not None:
        return _month(int(iso["year"]), int(iso["month"] or 1))
    if (slashed := _SLASHED.match(text)) is not None:
        year = int(slashed["year"])
        if len(slashed["year"]) == 2:
            year += 2000 if year <= _TWO_DIGIT_PIVOT else 1900
        return _month(year, int(slashed["month"])) if 1 <= int(slashed["day"]) <= 31 else None
    if (dated := _DAY_MONTH_YEAR.match(text)) is not None:
        return month_start(dated["rest"]) if 1 <= int(dated["day"]) <= 31 else None
    if (american := _MONTH_DAY_YEAR.match(text)) is not None:
        return month_start(f"{american['month']} {american['year']}")
    return month_start(text)


def _month(year: int, month: int) -> dt.date | None:
    return dt.date(year, month, 1) if 1900 <= year <= 2100 and 1 <= month <= 12 else None


def repository_of(url: Any) -> str | None:
    """'https://github.com/ada/loom' -> 'ada/loom' (GitHub, GitLab, Bitbucket, Codeberg); else None."""
    text = text_of(url)
    match = _REPOSITORY_URL.match(text) if text else None
    return None if match is None else f"{match['owner']}/{match['name']}"


def line(label: str, value: Any) -> str | None:
    """'label: value' for a field with no contract column (kept in the private `unparsed_lines`)."""
    text = text_of(value) if not isinstance(value, list) else "; ".join(texts_of(value)) or None
    return None if text is None else f"{label}: {text}"

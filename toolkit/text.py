"""Text normalization shared by every stage: NFC, one kind of space, no invisible characters."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

import regex
from anyascii import anyascii

from toolkit.memory import task_cache

# Python's \s on str already covers NBSP, the U+2000 block, narrow NBSP, ideographic space, line separators.
_WHITESPACE = re.compile(r"\s+")
# Invisible characters that scraped pages leave inside words (zero-width space, word joiner, soft hyphen,
# the combining grapheme joiner, direction marks and isolates, Hangul fillers); ZWJ/ZWNJ and variation
# selectors are kept here (scripts and emoji need them) and ignored only when text is compared (`fold`).
INVISIBLE = (
    "[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u206f\u3164\ufeff\uffa0]"
)
"""A character class of the characters that show nothing (soft hyphen, zero-width and direction marks,
fillers): dropped from text, and read as separators inside contacts."""
_INVISIBLE = re.compile(INVISIBLE)
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})
"""Unicode's hyphen and non-breaking hyphen are written as the hyphen-minus ('Ngata-Mwangi')."""
_IGNORED_IN_COMPARISON = re.compile("[\u200c\u200d\ufe00-\ufe0f]")


def clean(text: str) -> str:
    """NFC-normalize, drop invisible characters, fold every run of white space to one space, and strip."""
    if text.isascii():
        return " ".join(text.split())
    text = unicodedata.normalize("NFC", _INVISIBLE.sub("", text)).translate(_HYPHENS)
    return _WHITESPACE.sub(" ", text).strip()


def clean_lines(text: str) -> list[str]:
    """Split on any line ending, then `clean` each line (a letter-spaced line first becomes its words).
    Blank lines stay (as "") because layouts use them."""
    return [clean(unspaced(line)) for line in text.splitlines()]


_LETTER_SPACED = regex.compile(r"\p{L}(?:[^\S\n]?-[^\S\n]?\p{L}| \p{L}|[^\S\n]{2,}\p{L}){3,}")
_WIDE_SPACE = regex.compile(r"[^\S\n]{2,}")


def unspaced(line: str) -> str:
    """A line of letters written one space apart, words two or more apart, as its words: 'T E M I T O P E
    A J A Y I - C O L E' (three spaces between the words) -> 'TEMITOPE AJAYI-COLE'. Any other line as it
    is."""
    stripped = line.strip()
    if not _LETTER_SPACED.fullmatch(stripped):
        return line
    return " ".join(word.replace(" ", "") for word in _WIDE_SPACE.split(stripped))


# Latin letters that carry no combining mark to drop, so NFKD leaves them as they are.
_UNMARKED = str.maketrans(
    {
        "\u0131": "i",
        "\u0130": "I",
        "\u0142": "l",
        "\u0141": "L",
        "\u00f8": "o",
        "\u00d8": "O",
        "\u0111": "d",
        "\u0110": "D",
        "\u0127": "h",
        "\u0126": "H",
        "\u0167": "t",
        "\u0166": "T",
        "\u00df": "ss",
        "\u00e6": "ae",
        "\u00c6": "AE",
        "\u0153": "oe",
        "\u0152": "OE",
        "\u00fe": "th",
        "\u00de": "Th",
        "\u00f0": "d",
        "\u00d0": "D",
    }
)


def strip_accents(text: str) -> str:
    """'Stanisław Çamurcuoğlu' -> 'Stanislaw Camurcuoglu': marks dropped, letters like ł to their base."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_UNMARKED))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _is_lookalike_script(char: str) -> bool:
    """Cyrillic and Greek: scripts whose letters pass for Latin ones (a Cyrillic M in 'Marta')."""
    return (
        "\u0370" <= char <= "\u052f"
        or "\u1c80" <= char <= "\u1c8f"
        or "\u1f00" <= char <= "\u1fff"
        or "\u2de0" <= char <= "\u2dff"
        or "\ua640" <= char <= "\ua69f"
    )


@lru_cache(maxsize=1 << 14)
def fold_char(char: str) -> str:
    """One character in its comparison form (see `fold`); may be empty or longer than one."""
    if char.isascii():
        return char.lower()
    if _INVISIBLE.match(char) or _IGNORED_IN_COMPARISON.match(char):
        return ""
    if _is_lookalike_script(char):
        char = anyascii(char)
    return strip_accents(char).casefold()


@task_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """The comparison form of a text: accents dropped, case folded, white space folded, invisible
    characters ignored, and Cyrillic and Greek letters written in Latin (a skeleton: 'Marta' written
    with a Cyrillic M, 'Marta' and its Cyrillic spelling fold alike).

    'José  DA Mata' and 'jose da mata' fold alike. Used to match identifiers, never to show text.
    """
    if text.isascii():
        return " ".join(text.lower().split())
    return _WHITESPACE.sub(" ", "".join(map(fold_char, text))).strip()


MAX_SHOWN_ITEMS = 3
_MAX_SHOWN_CHARS = 40


def mask(value: Any) -> Any:
    """Keep numbers, dates and booleans; replace text by its shape ('Ada Byron-2' -> 'Xxx Xxxxx-9').

    Text in these tables may be a name, an e-mail or a URL, so a report never shows it as it is.
    """
    if value is None or isinstance(value, bool | int | float | dt.date):
        return value
    if isinstance(value, list | tuple):
        return [mask(item) for item in value[:MAX_SHOWN_ITEMS]]
    text = str(value)
    shape = "".join(
        "9" if ch.isdigit() else ("X" if ch.isupper() else "x") if ch.isalpha() else ch for ch in text
    )
    return shape[:_MAX_SHOWN_CHARS] + ("…" if len(shape) > _MAX_SHOWN_CHARS else "")


class Lexicon:
    """Words of several sets seen as one, without copying them: a record's own technical words beside
    the rules' allow-list of tens of thousands."""

    __slots__ = ("parts",)

    def __init__(self, *parts: AbstractSet[str] | Lexicon) -> None:
        self.parts = parts

    def __contains__(self, word: object) -> bool:
        return any(word in part for part in self.parts)

    def missing(self, words: AbstractSet[str]) -> AbstractSet[str]:
        """The words that are in none of the sets (set differences, done in C)."""
        for part in self.parts:
            if not words:
                break
            words = part.missing(words) if isinstance(part, Lexicon) else words - part
        return words


Words = AbstractSet[str] | Lexicon
"""A set of folded words, or several seen as one."""


def plural(count: int, noun: str) -> str:
    """'1 finding', '2 findings', '0 files' (nouns whose plural takes an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


WIDE_FORMS = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3002: ".", 0xFF61: "."}
"""Full-width forms of ASCII (U+FF01-FF5E: a full-width at sign, letters, digits) and ideographic full
stops, as ASCII: one character for one, for `str.translate`."""
DISGUISED_AT = re.compile(
    r"(?<=[\w.+%-])(?:&#0*64;|&#[xX]0*40;|&commat;|%40|[^\S\n]@[^\S\n]?|@[^\S\n])(?=[\w-]+\.[^\W\d_]{2,})"
)
"""An at sign written as an HTML entity, percent-encoded or spaced out, between the parts of an address
('ada&#64;example.org', 'ada%40example.org', 'ada @ example.org')."""
_ODD_SPACE = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")


def unmasked(text: str) -> str:
    """`text` as a detector should read it: invisible characters inside words dropped ('kwame\\u200b@…'),
    full-width forms and ideographic full stops as ASCII (`WIDE_FORMS`), a disguised at sign
    (`DISGUISED_AT`) as '@', and no-break and thin spaces as spaces. Lengths change: for finding, never
    for offsets into `text`."""
    if text.isascii() and not any(mark in text for mark in ("&", "%", " @", "@ ")):
        return text
    text = _INVISIBLE.sub("", text).translate(WIDE_FORMS)
    return _ODD_SPACE.sub(" ", DISGUISED_AT.sub("@", text))

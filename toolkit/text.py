"""Text normalization shared by every stage: NFC, one kind of space, no invisible characters."""

from __future__ import annotations

import re
import unicodedata

# Python's \s on str already covers NBSP, the U+2000 block, narrow NBSP, ideographic space, line separators.
_WHITESPACE = re.compile(r"\s+")
# Invisible characters that scraped pages leave inside words; ZWJ/ZWNJ are kept (scripts and emoji need them).
_INVISIBLE = re.compile("[\u200b\u2060\ufeff\u00ad]")


def clean(text: str) -> str:
    """NFC-normalize, drop invisible characters, fold every run of white space to one space, and strip."""
    if text.isascii():
        return " ".join(text.split())
    text = unicodedata.normalize("NFC", _INVISIBLE.sub("", text))
    return _WHITESPACE.sub(" ", text).strip()


def clean_lines(text: str) -> list[str]:
    """Split on any line ending, then `clean` each line. Blank lines stay (as "") because layouts use them."""
    return [clean(line) for line in text.splitlines()]


def fold(text: str) -> str:
    """The comparison form of a text: accents dropped (NFKD), case folded, white space folded.

    'José  DA Mata' and 'jose da mata' fold alike. Used to match identifiers, never to show text.
    """
    decomposed = unicodedata.normalize("NFKD", _INVISIBLE.sub("", text))
    stripped = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _WHITESPACE.sub(" ", stripped.casefold()).strip()

"""How evaluations compare text: folded for case, accents and white space, matched on word boundaries."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any


def fold(text: str) -> str:
    """Case, accents (NFKD, combining marks dropped) and white space folded: how evaluations compare text."""
    decomposed = unicodedata.normalize("NFKD", text)
    if not decomposed.isascii():  # ASCII has no combining marks
        decomposed = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(decomposed.casefold().split())


def word_pattern(term: str) -> re.Pattern[str]:
    """`term` (folded) on word boundaries, for searching folded text."""
    return re.compile(r"(?<!\w)" + re.escape(fold(term)) + r"(?!\w)")


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # what `\w` matches in a str pattern


def has_word(haystack: str, needle: str) -> bool:
    """`word_pattern(needle).search(haystack)` for folded text and needle, without compiling a pattern."""
    if not needle:
        return False
    at = haystack.find(needle)
    while at >= 0:
        end = at + len(needle)
        if (at == 0 or not _word_char(haystack[at - 1])) and (
            end == len(haystack) or not _word_char(haystack[end])
        ):
            return True
        at = haystack.find(needle, at + 1)
    return False


def string_cells(frame: Any) -> Iterable[str]:
    """Every text cell of a Polars frame (String, Categorical or Enum, or lists of them), skipping nulls."""
    import polars as pl

    def textual(dtype: Any) -> bool:
        return isinstance(dtype, pl.String | pl.Categorical | pl.Enum)

    for name, dtype in frame.schema.items():
        column = frame[name]
        if isinstance(dtype, pl.List) and textual(dtype.inner):
            column = column.explode()
        elif not textual(dtype):
            continue
        yield from (value for value in column.cast(pl.String) if value is not None)

"""Cheap tests that a pattern cannot match a text, derived from the pattern itself.

Many recognizer patterns begin with a look-behind for a cue ('(?<=\\b(?i:born|date of birth|dob)\\s?:?\\s?)'
then a date). The `regex` package tries that look-behind at every position of the text, which costs about
as much as a search for the cue itself, for every pattern, on texts that mostly hold no cue at all. A match
of `(?<=X)Y` ends a match of X where it starts, so a text in which a forward search finds no X has no
match of the pattern: the search for X is the pattern's probe, and a text the probe does not find is not
read by the pattern. The results are the same; only patterns whose look-behind reads the same forwards
and backwards get a probe (no possessive quantifier, atomic group, back-reference or other construct whose
meaning depends on the direction of matching).
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

_DIRECTIONAL = regex.compile(r"[*+?}]\+|\(\?>|\\[1-9gGK]|\(\?P=|\(\?\(|\(\?R|\(\?&|\(\?\d|\{e")
"""Constructs whose matching depends on its direction, or that refer to other groups."""


def _structure(source: str) -> Iterator[tuple[int, str, int]]:
    """(index, character, depth after it) of each '(', ')' and '|' of `source` outside escapes and
    character classes."""
    depth = 0
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "[":
            index = _class_end(source, index)
            continue
        if char in "()|":
            depth += {"(": 1, ")": -1, "|": 0}[char]
            yield index, char, depth
        index += 1


def _class_end(source: str, start: int) -> int:
    """The index just after the character class that opens at `source[start]` ('[')."""
    index = start + 1
    if index < len(source) and source[index] == "^":
        index += 1
    if index < len(source) and source[index] == "]":
        index += 1  # a ']' first is a literal
    while index < len(source) and source[index] != "]":
        index += 2 if source[index] == "\\" else 1
    return index + 1


def _first_group_end(source: str) -> int | None:
    """The index just after the group `source` opens with, or None if it never closes."""
    return next((index + 1 for index, char, depth in _structure(source) if char == ")" and depth == 0), None)


def _alternates_at_top(source: str) -> bool:
    """Whether `source` has a '|' outside every group and class."""
    return any(char == "|" and depth == 0 for _, char, depth in _structure(source))


def lookbehind_probe(source: str) -> str | None:
    """The look-behind X of a pattern `(?<=X)Y` that every match needs, as a pattern to search forwards; None
    when the pattern does not begin so, when an alternative at its top level does without X, or when X
    holds a construct that reads differently forwards."""
    if not source.startswith("(?<="):
        return None
    end = _first_group_end(source)
    if end is None or _alternates_at_top(source[end:]):
        return None
    behind = source[len("(?<=") : end - 1]
    if not behind or _DIRECTIONAL.search(behind):
        return None
    return behind

"""Which texts a pattern may match, told for many texts at once from words the pattern cannot match without.

Most recognizer patterns can only match where one of a few fixed strings stands: a street pattern needs one
of its street words, a handle pattern needs '@', a pattern after a cue needs the cue. `required_literals`
reads that set off the pattern itself (the way RE2's prefilter does): for each part, the strings it can
match exactly while they are few, else the strings one of which it must contain; a sequence takes its
longest such run, an alternation the union of its alternatives' sets, a repeat of at least one its item's,
a look-around its content's (the text must hold the content, though the match does not). Anything else
(classes of many characters, optional parts, negative look-arounds) says nothing, and a pattern of which
nothing can be said is read on every text.

`Screen` then asks, for all texts of a call at once, which hold one of each pattern's strings: Polars'
`contains_any` (Aho-Corasick) over the texts folded to one case, instead of running the pattern over a
text that cannot hold a match of it. A pattern's matches are the same with or without the screen: the
screen only skips texts in which it proves there is none. The case fold is the `regex` package's own (the
characters it takes for one another when ignoring case, such as 'i' and 'İ'), so a screen is never
stricter than the pattern, whatever its case flags.

Patterns are read with the standard library's parser of regular expressions (`sre_parse`); constructs
that the `regex` package reads another way (fuzzy matching, POSIX classes, `\\G`, `\\K`, version and
full-case flags) or that the parser cannot read leave the pattern without a screen. `\\p{...}` classes are
read as an unknown character.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import polars as pl
import regex

with warnings.catch_warnings():  # deprecated as a public name since 3.11; the parser itself is kept
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as C
    import sre_parse

try:
    from regex import _regex

    _all_cases: Any = getattr(_regex, "get_all_cases")  # noqa: B009 - not in the package's stubs
except (ImportError, AttributeError):  # pragma: no cover - a `regex` without it: no screens at all
    _all_cases = None

_UNKNOWN = "\ue000"
"""What a `\\p{...}` class is read as: a character of the private use area, which no screen ever needs."""
_UNICODE_CLASS = re.compile(r"\\[pP](?:\{[^}]*\}|[A-Za-z])")
_READ_OTHERWISE = re.compile(r"\{e|\[:\^?\w+:\]|\\[GKXmML]|\(\?[aiLmsux-]*[bepfrVw]")
"""Constructs that the `regex` package reads differently from `sre_parse`, or that it does not know."""

MAX_STRINGS = 64
"""The most strings an exact set may hold before the part is taken as saying only what it must contain."""
MAX_CLASS = 8
"""The most characters a character class may hold to count as a set of exact strings."""
MAX_REQUIRED = 256
"""The most strings a required set may hold (an alternation of many alternatives)."""

_Strings = frozenset[str]


class _Read:
    """What a part of a pattern says: the strings it matches exactly (None: too many or unknown), and
    strings one of which the text holds wherever the part matches (None: nothing known)."""

    __slots__ = ("exact", "required")

    def __init__(self, exact: _Strings | None, required: _Strings | None = None) -> None:
        self.exact = exact
        self.required = required

    def strongest(self) -> _Strings | None:
        return _strongest([self.exact, self.required])


_NOTHING_KNOWN = _Read(None)
_EMPTY = frozenset({""})


def _strongest(candidates: Iterable[_Strings | None]) -> _Strings | None:
    """The most telling set: the one whose shortest string is longest, then the smallest; sets that hold
    the empty string tell nothing."""
    telling = [c for c in candidates if c and all(c)]
    if not telling:
        return None
    return max(telling, key=lambda c: (min(map(len, c)), -len(c)))


def _sequence(items: Iterable[Any]) -> _Read:
    candidates: list[_Strings | None] = []
    run: _Strings = _EMPTY
    whole = True
    for item in items:
        read = _part(item)
        candidates.append(read.required)
        if read.exact is not None:
            joined = frozenset(a + b for a in run for b in read.exact)
            if len(joined) <= MAX_STRINGS:
                run = joined
                continue
        whole = False
        candidates.append(run)
        run = read.exact if read.exact is not None else _EMPTY
    candidates.append(run)
    return _Read(run if whole else None, _strongest(candidates))


def _characters(items: Iterable[tuple[Any, Any]]) -> _Strings | None:
    found: set[str] = set()
    for op, value in items:
        if op is C.LITERAL:
            found.add(chr(value))
        elif op is C.RANGE and value[1] - value[0] < MAX_CLASS:
            found.update(chr(code) for code in range(value[0], value[1] + 1))
        else:  # a negated class, a category (\d, \w), a wide range
            return None
    if len(found) > MAX_CLASS or _UNKNOWN in found:
        return None
    return frozenset(found)


def _part(item: tuple[Any, Any]) -> _Read:
    op, value = item
    if op is C.LITERAL:
        char = chr(value)
        return _NOTHING_KNOWN if char == _UNKNOWN else _Read(frozenset({char}))
    if op is C.IN:
        return _Read(_characters(value))
    if op is C.AT:
        return _Read(_EMPTY)
    if op is C.SUBPATTERN:
        return _sequence(value[-1])
    if op is C.ATOMIC_GROUP:
        return _sequence(value)
    if op is C.BRANCH:
        return _alternation([_sequence(branch) for branch in value[1]])
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        least, most, body = value
        read = _sequence(body)
        if least == 0:
            return _Read(read.exact | _EMPTY) if most == 1 and read.exact is not None else _NOTHING_KNOWN
        return _Read(read.exact if least == most == 1 else None, read.strongest())
    if op is C.ASSERT:
        return _Read(_EMPTY, _sequence(value[1]).strongest())
    if op is C.ASSERT_NOT:
        return _Read(_EMPTY)
    return _NOTHING_KNOWN  # any character, a negated literal, a back-reference, a conditional


def _alternation(branches: Sequence[_Read]) -> _Read:
    exact = None
    if all(b.exact is not None for b in branches):
        union = frozenset().union(*(b.exact for b in branches if b.exact is not None))
        exact = union if len(union) <= MAX_STRINGS else None
    required: set[str] = set()
    for branch in branches:
        strongest = branch.strongest()
        if strongest is None:
            return _Read(exact)
        required |= strongest
    return _Read(exact, frozenset(required) if len(required) <= MAX_REQUIRED else None)


def required_literals(source: str, flags: int = 0) -> frozenset[str] | None:
    """Strings one of which every text holds in which `source` (a `regex` pattern with `flags`) matches,
    compared in the case `regex` ignores; None when the pattern says no such thing."""
    if _READ_OTHERWISE.search(source):
        return None
    readable = _UNICODE_CLASS.sub(lambda _: "\\ue000", source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = sre_parse.parse(readable, flags & (re.IGNORECASE | re.DOTALL | re.VERBOSE))
    except (re.error, RecursionError, OverflowError, ValueError):
        return None
    return _sequence(parsed.data).strongest()


class Screen:
    """For each of a list of patterns, which texts may hold a match: those holding one of its required
    strings (`required_literals`), in the case that `regex` ignores; every text for a pattern without."""

    def __init__(self, required: Sequence[frozenset[str] | None]) -> None:
        if _all_cases is None:  # pragma: no cover
            required = [None] * len(required)
        chars = {char for strings in required if strings for string in strings for char in string}
        self.fold: dict[int, int] = {}
        """Each character of a required string, and every character `regex` takes for it when ignoring
        case, to one of them: text and strings folded alike compare as `regex` compares them."""
        flags = regex.IGNORECASE | regex.UNICODE
        for char in sorted(chars):
            cases = {ord(char), *_all_cases(flags, ord(char))}
            first = min(cases)
            self.fold.update({code: first for code in cases if code != first})
        self.required = [sorted({s.translate(self.fold) for s in r}) if r else None for r in required]

    def possible(self, texts: Sequence[str]) -> list[tuple[bool, ...]]:
        """Per text, per pattern: whether the pattern may match in the text."""
        folded = pl.Series([text.translate(self.fold) for text in texts], dtype=pl.String)
        every = [True] * len(texts)
        columns = [every if r is None else folded.str.contains_any(r).to_list() for r in self.required]
        return list(zip(*columns, strict=True)) if columns else [() for _ in texts]

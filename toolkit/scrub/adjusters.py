"""Span adjusters: the named rules that change a span found, or add one beside it, so that a replacement
covers the whole identifier and nothing else ('Thành' of 'Thành Nguyễn' takes in the surname NER left
out; 'Yuki Tanaka's' leaves the possessive out; '12 Rue Oberkampf' takes in ', 75011 Paris').

Each is one unit: a name (`rules.SpanAdjusterName`), a function of the span and its text, and a case
table in tests/scrub/test_span_adjusters.py. `rules/recognizers.yaml` switches each on or off
(`adjusters:`), and the report counts the replaced spans each changed or added (`privacy.span_adjusters`).
"""

from __future__ import annotations

from collections.abc import Collection, Container
from dataclasses import replace

import regex

from toolkit.detectors import Finding
from toolkit.rules import SPAN_ADJUSTERS, SpanAdjusterName
from toolkit.scrub.addresses import AddressWidener
from toolkit.scrub.spans import Span
from toolkit.text import Lexicon, fold

_NEXT_NAME_WORD = regex.compile(r"[^\S\n\r]\p{Lu}[\p{L}'\u2019-]*\p{L}(?![\p{L}\p{N}])")
"""The word after a name on the same line (a name never runs on to the next line)."""
POSSESSIVE = regex.compile(r"(?<=\p{L})['\u2019]s?\Z")
"""A possessive at the end of a word or a span ('Tanaka's', 'Ramos''); the scrubber leaves it out of names
it reads too."""
_LONGEST_GIVEN_NAME = 30
_GIVEN_NAME_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(\p{Lu}\p{Ll}+)[^\S\n\r]+\Z")
_LISTED_NAME = regex.compile(
    r"(?:,[^\S\n\r]*|[^\S\n\r]+(?:and|&)[^\S\n\r]+)(\p{Lu}\p{Ll}+)(?=[^\S\n\r]*(?:[,.;:)]|and\b|&|$))"
)
"""The next name of a list after a person: ', Sirli' or ' and Sirli', ending the list or followed by more."""
_NAME_LISTED_BEFORE = regex.compile(
    r"(?:\b(?:with|and|to|by|from|thanks)[^\S\n\r]+|,[^\S\n\r]*)(\p{Lu}\p{Ll}+)"
    r"(?:,[^\S\n\r]*|[^\S\n\r]+(?:and|&)[^\S\n\r]+)\Z"
)
"""A name listed right before a person after a list's cue: 'with Sorin and ', ', Oskar, '."""
_PHONE_EXTENSION = regex.compile(r"[^\S\n]?(?i:x|ext\.?|extension|#)[^\S\n]?\d{1,6}\b")

Spans = list[tuple[int, int, str]]
"""(start, end, entity) of the spans to replace, in order."""


def with_surname(start: int, end: int, text: str, allow_list: Container[str]) -> int:
    """`surname_after_a_name`: the end of a name with up to two capitalised words that follow it directly
    on its line and are not allowed terms (NER often stops early: 'Thành' of 'Thành Nguyễn')."""
    for _ in range(2):
        word = _NEXT_NAME_WORD.match(text, end)
        if word is None or fold(word.group()) in allow_list:
            break
        end = word.end()
    return end


def without_possessive(start: int, end: int, text: str) -> int:
    """`possessive_left_out`: the end of a name without the possessive a detector took in with it
    ('Yuki Tanaka's' -> 'Yuki Tanaka', so the text reads '<PERSON_…>'s phone')."""
    possessive = POSSESSIVE.search(text, start, end)
    return end if possessive is None else possessive.start()


def with_given_name(start: int, text: str, given_names: Container[str]) -> int:
    """`given_name_before_a_name`: the start of a single known name word with the given name written right
    before it ('Ray' of 'used by Ray Chukwuemeka's group', though Ray is a tool too)."""
    before = _GIVEN_NAME_BEFORE.search(text, max(0, start - _LONGEST_GIVEN_NAME), start)
    return before.start(1) if before is not None and before.group(1) in given_names else start


def listed_names(spans: Spans, text: str, ordinary: Lexicon, english: Container[str]) -> Spans:
    """`names_listed_with_a_person`: `spans` with a capitalised word listed right after a person ('with
    <Rasmus> and Sirli.', 'hired <Ana>, Oskar and Liis') or right before one ('with Sorin and <Anca>') as a
    person too, unless it is an allowed, everyday or English word ('with Ana and Kubernetes')."""
    spans = list(spans)
    index = 0
    while index < len(spans):
        start, end, entity = spans[index]
        if entity == "PERSON":
            previous = spans[index - 1][1] if index else 0
            before = _NAME_LISTED_BEFORE.search(text, max(previous, start - 80), start)
            if before and before.start(1) >= previous and _is_name_word(before.group(1), ordinary, english):
                spans.insert(index, (before.start(1), before.end(1), "PERSON"))
                continue  # the word inserted may follow another listed name
            following = spans[index + 1][0] if index + 1 < len(spans) else len(text)
            after = _LISTED_NAME.match(text, end)
            if after and after.end(1) <= following and _is_name_word(after.group(1), ordinary, english):
                spans.insert(index + 1, (after.start(1), after.end(1), "PERSON"))
        index += 1
    return spans


def _is_name_word(word: str, ordinary: Lexicon, english: Container[str]) -> bool:
    folded = fold(word)
    return folded not in ordinary and folded not in english


def with_extension(end: int, text: str) -> int:
    """`phone_extension`: the end of a phone number with the extension written after it
    ('805.929.6222x9270', '+44 20 7946 0958 ext. 12')."""
    extension = _PHONE_EXTENSION.match(text, end)
    return end if extension is None else extension.end()


class SpanAdjusters:
    """The adjusters switched on. A span a unit changed names it in `Span.adjusted`, so the scrubber can
    count the replaced spans each changed."""

    def __init__(self, enabled: Collection[str] = SPAN_ADJUSTERS) -> None:
        self.enabled = frozenset(enabled)

    def _on(self, name: SpanAdjusterName) -> bool:
        return name in self.enabled

    def whole(self, span: Span, text: str, addresses: AddressWidener) -> Span:
        """A recognizer's finding with what belongs to it: a street address's parts (`address_parts`:
        `AddressWidener.whole`), a phone's extension (`phone_extension`)."""
        if span.entity == "STREET_ADDRESS" and self._on("address_parts"):
            start, end = addresses.whole(span.start, span.end, text)
            return _adjusted(span, start, end, "address_parts")
        if span.entity == "PHONE_NUMBER" and self._on("phone_extension"):
            return _adjusted(span, span.start, with_extension(span.end, text), "phone_extension")
        return span

    def person(self, span: Span, text: str, allow_list: Container[str]) -> Span:
        """A person found in a text, with the surname NER left out and without a possessive."""
        if self._on("surname_after_a_name"):
            span = _adjusted(span, span.start, with_surname(span.start, span.end, text, allow_list),
                             "surname_after_a_name")  # fmt: skip
        if self._on("possessive_left_out"):
            span = _adjusted(span, span.start, without_possessive(span.start, span.end, text),
                             "possessive_left_out")  # fmt: skip
        return span

    def known_name(
        self, finding: Finding, text: str, allow_list: Container[str], given_names: Container[str]
    ) -> tuple[Finding, tuple[SpanAdjusterName, ...]]:
        """A known name of the record found in a text: a single name word takes in the capitalised words
        right after it ('Lerato' of a record that knows her, in 'Lerato Khumalo leads ...', which NER took
        for an organisation) and a given name right before it; with the units that changed it."""
        start, end = finding.start, finding.end
        if finding.entity != "PERSON" or " " in text[start:end]:
            return finding, ()
        units: list[SpanAdjusterName] = []
        if self._on("surname_after_a_name") and (wider := with_surname(start, end, text, allow_list)) != end:
            end = wider
            units.append("surname_after_a_name")
        if (
            self._on("given_name_before_a_name")
            and (earlier := with_given_name(start, text, given_names)) != start
        ):
            start = earlier
            units.append("given_name_before_a_name")
        return (replace(finding, start=start, end=end) if units else finding), tuple(units)

    def listed(
        self, spans: Spans, text: str, ordinary: Lexicon, english: Container[str]
    ) -> tuple[Spans, int]:
        """`spans` with the names listed beside a person, and how many were added."""
        if not self._on("names_listed_with_a_person"):
            return spans, 0
        added = listed_names(spans, text, ordinary, english)
        return added, len(added) - len(spans)


def _adjusted(span: Span, start: int, end: int, unit: SpanAdjusterName) -> Span:
    if (start, end) == (span.start, span.end):
        return span
    return replace(span, start=start, end=end, adjusted=(*span.adjusted, unit))

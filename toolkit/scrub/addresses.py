"""A street address found by a pattern, widened to the whole address written with it.

A pattern finds the part of an address it knows ('5th Main Road', '300081 Timișoara', 'Apt 3'); the
parts around it (the house number, the unit, the district, the town, the postcode, the province) are
personal data too and are replaced with it. Widening never crosses a line break or the separator of a
list ('| Mobile: …'), and it takes only what an address is made of: numbers, capitalised words, words of
caseless scripts, the small words inside names ('de', 'nad'), and lower-case address words ('nr.', 'ap.',
'ул.': `rules/vocabularies/address_words.yaml`) before a number or a capitalised word. A tool's name ends
it ('…, Berlin | Python').
"""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable

import regex

from toolkit.rules import alternation

_ITEM_END = regex.compile(r"[\n\r\t\v\f\u2028\u2029|•;▪◦‣∙\uff1a]|(?<!\S)·|·(?!\S)|[^\S\n]{3,}")
"""What ends the line item an address is written in: a line break, a list's separator, a tab or a wide gap
(a table flattened to text), a full-width colon (after '住所')."""
_TOKEN = regex.compile(r"[^\s,()\[\]\"\u201c\u201d\u00ab\u00bb]+")
_ELISION = regex.compile(r"^(?i:d|l|dell|dall|nell|sull|all|degli)['\u2019](?=\p{L})")
"""An elided article before a name ('l'Esplanade', 'd'Italia'): the name decides."""
_DASH = regex.compile(r"[-\u2010-\u2015]+")
_DIGITS = regex.compile(r"\d")
_CASELESS = regex.compile(
    r"[\p{Han}\p{Hangul}\p{Hiragana}\p{Katakana}\p{Arabic}\p{Thai}\p{Devanagari}\u3012]"
)
_PART, _WORD, _JOINER = "part", "word", "joiner"

_ADDRESS_PART = r"(?:\p{Lu}[\p{L}'\u2019-]*|\d{3,6}(?:-\d{3,4})?|[A-Z]{2,3})"
_ADDRESS_UNIT = r"(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Room|Floor|#)[^\S\n]?\d{1,5}[A-Za-z]?"


def _address_line(joiners: Iterable[str]) -> regex.Pattern[str]:
    """A line below an address that holds only its parts (a unit, a town, ', SV', a country and postcode),
    or a last such line ending with a postcode and the sentence ('Poland 25382. Please call ...'); the
    small words of `joiners` may stand between its parts ('Ždár nad Sázavou')."""
    between = rf"(?:{alternation(joiners)}[^\S\n]+)?" if joiners else ""
    return regex.compile(
        rf"[^\S\n]*(?:\n|\r\n?)[^\S\n]*,?[^\S\n]*(?:{_ADDRESS_UNIT}|{_ADDRESS_PART}(?:,?[^\S\n]+{between}{_ADDRESS_PART}){{0,4}}),?"
        r"(?:(?=[^\S\n]*(?:\n|\r|$))|(?<=\d)(?=[.?!][^\S\n]|[.?!]$))"
    )


_ADDRESS_LINES = 4
_STREET_LINE_ABOVE = regex.compile(
    r"(?:^|(?<=\n))[^\S\n]*(?:\d{1,6}[^\S\n]+)?(?:\p{Lu}[\p{L}'\u2019-]*[^\S\n]+){1,3}\d{1,5}[a-zA-Z]?"
    r"[^\S\n]*\r?\n[^\S\n]*$"
)
"""A street and its number alone on the line above a unit or a town ('Bygget 64' above 'Apt. 449')."""
_MOST_TOKENS = 16
"""At most this many words are added on each side."""
_LOOK = 200


class AddressWidener:
    """Widens a street address over its line item; `tools` holds names that end it (the allow-list's
    technical words), `address_words` the lower-case words of addresses, `joiners` the small words inside
    names of streets and towns ('da', 'nad': `rules/vocabularies/place_name_joiners.yaml`)."""

    def __init__(
        self,
        address_words: Container[str],
        tools: Container[str] = frozenset(),
        joiners: Collection[str] = frozenset(),
    ) -> None:
        self.address_words = address_words
        self.tools = tools
        self.joiners = frozenset(joiners)
        self.address_line = _address_line(self.joiners)

    def whole(self, start: int, end: int, text: str) -> tuple[int, int]:
        """The range of the address found at text[start:end] with what belongs to it: the parts written
        beside it on its line (`widened`), a street and number alone on the line above ('Bygget 64' above
        'Apt. 449'), and in a block of address lines, the lines below it that are only such parts
        ('CAHORS, MP 25645', 'Norway 56847')."""
        start, end = self.widened(start, end, text)
        above = _STREET_LINE_ABOVE.search(text, max(0, start - 120), start)
        if above is not None:
            start = above.start() + len(above.group()) - len(above.group().lstrip())
        for _ in range(_ADDRESS_LINES):
            line = self.address_line.match(text, end)
            if line is None:
                break
            end = line.end()
        return start, end

    def widened(self, start: int, end: int, text: str) -> tuple[int, int]:
        """The range of the address found at text[start:end] with the parts written beside it in its
        line item."""
        item_start = max(
            (match.end() for match in _ITEM_END.finditer(text, max(0, start - _LOOK), start)), default=0
        )
        stop = _ITEM_END.search(text, end, min(len(text), end + _LOOK))
        item_end = stop.start() if stop is not None else min(len(text), end + _LOOK)
        tokens = [m.span() for m in _TOKEN.finditer(text, item_start, item_end)]
        tokens = [(a, b) for a, b in tokens if not _DASH.fullmatch(text, a, b)]
        inside = [index for index, (a, b) in enumerate(tokens) if a < end and start < b]
        if not inside:
            return start, end
        kinds = [self._kind(text[a:b]) for a, b in tokens]
        first, last = inside[0], inside[-1]
        first = self._leftmost(first, kinds, tokens, text)
        last = self._rightmost(last, kinds, tokens, text)
        return min(start, tokens[first][0]), max(end, _without_final_stop(text, *tokens[last]))

    def _kind(self, token: str) -> str | None:
        bare = _ELISION.sub("", token.rstrip(".:"))
        folded = bare.lower()
        if not bare or "@" in token or "://" in token or folded.startswith("www.") or token.startswith("+"):
            return None
        if _DIGITS.search(bare):
            return _PART if len(_DIGITS.findall(bare)) < 8 else None  # a longer run is a phone or an account
        if token.endswith(":") and folded not in self.address_words:
            return None  # a label ('Phone:')
        if folded in self.tools and folded not in self.address_words:
            return None
        if bare[0].isupper() or _CASELESS.match(bare):
            return _PART
        if "-" in folded and folded.rpartition("-")[2] in self.address_words:
            return _PART  # a romanised Korean road ('jungang-ro'), a street by its type ('xyz-straße')
        if folded in self.joiners:
            return _JOINER
        if folded in self.address_words and (len(bare) > 1 or token != bare):
            return _WORD
        return None

    def _rightmost(self, last: int, kinds: list[str | None], tokens: list[tuple[int, int]], text: str) -> int:
        """The last token of the address: parts, and words or joiners only with a part after them."""
        taken = 0
        index = last
        while index + 1 < len(kinds) and taken < _MOST_TOKENS and not _ends_sentence(text, *tokens[index]):
            ahead = index + 1
            while ahead < len(kinds) and kinds[ahead] in (_WORD, _JOINER):
                ahead += 1
            if ahead == len(kinds) or kinds[ahead] != _PART:
                break
            taken += ahead - index
            index = ahead
        return index

    def _leftmost(self, first: int, kinds: list[str | None], tokens: list[tuple[int, int]], text: str) -> int:
        """The first token of the address: parts and address words, and joiners between them; never
        across a dash ('Zalando - Berlin'), nor into the sentence before."""
        taken = 0
        index = first
        while index > 0 and taken < _MOST_TOKENS:
            before = index - 1
            while before >= 0 and kinds[before] == _JOINER:
                before -= 1
            if before < 0 or kinds[before] not in (_PART, _WORD) or _ends_sentence(text, *tokens[before]):
                break
            if _DASH.search(text, tokens[before][1], tokens[index][0]):
                break
            taken += index - before
            index = before
        return index


def _ends_sentence(text: str, start: int, end: int) -> bool:
    """A word of five letters or more followed by a full stop ('Madrid.'), not an abbreviation ('Esq.')."""
    return (
        text[end - 1] == "."
        and sum(char.isalpha() for char in text[start:end]) >= 5
        and (not _DIGITS.search(text, start, end))
    )


def _without_final_stop(text: str, start: int, end: int) -> int:
    return end - 1 if end - start > 1 and text[end - 1] in ".:" else end

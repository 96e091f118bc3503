"""Rare phrases of free text: what a web search would find a person by, once their name is gone.

A candidate phrase is a chain of capitalised, CamelCase or digit-bearing words ("Hillcrest Institute of
Technology", "ByteMLPerf", "veScale", "Maia 100"), a number, or a keyed token of the scrubber
(`<LOCATION_1a2b3c4d>`: the same value gives the same token, so a rare one points at a person as surely
as the value). Words of the allow-list and everyday words open no phrase ("At NVIDIA" is "NVIDIA"), and a
chain of nothing else is none. The dataset-wide pass counts, per phrase, the persons whose text holds it
(`phrase_keys`, a kernel: one batch at a time); a phrase fewer than k persons share becomes a typed token
without a key (`<PROJECT>`, `<ORG>`, `<AWARD>`, `<NUMBER>`, `<LOCATION>`...). So do, whatever their count:
numbers of years or months (the columns give them as bands), the keyed tokens of the types `unkeyed`
names (names: a keyed name token is a join key between releases made with the same key; places: the
city is not released), and the values of coarsened columns ("At NVIDIA" when the employer column was
generalized: `<EMPLOYER>`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass

import polars as pl
import regex

from toolkit.memory import task_cache
from toolkit.rules import PhraseRules, PrivacyRules
from toolkit.text import fold

_CONNECTORS = "of the|of|for|de|del|der|di|du|la|le|von|van|&"
_WORD = r"(?:\p{Lu}[\p{L}\p{N}'\u2019+#.\-]*[\p{L}\p{N}+#]|\p{Lu}|\p{Ll}+\p{Lu}[\p{L}\p{N}]*)"
_CANDIDATE = regex.compile(
    r"(?:(?P<token><(?P<entity>[A-Z][A-Z_]*?)(?:_(?P<key>[0-9a-f]{8}))?>)"
    r"|(?P<number>(?<![\p{L}\p{N}>])\d(?:[\d,.]*\d)?)(?=\s*(?P<unit>\p{L}+))?"
    rf"|(?P<chain>(?<![\p{{L}}\p{{N}}>]){_WORD}(?:(?:\s+(?:{_CONNECTORS}))?\s+(?:{_WORD}|\d[\p{{L}}\p{{N}}]*))*))"
    r"(?![\p{L}\p{N}])"
)
_WORDS = regex.compile(r"\S+")
_PLAIN_WORD = regex.compile(r"[\p{L}\p{N}](?:[\p{L}\p{N}'\u2019+#.&\-]*[\p{L}\p{N}+#])?")
"""A word without the punctuation around it (a `Restater` reads every word, not only capitalised ones)."""
_RESTATED_WORDS = 8
"""The longest run of words that a `Restater` looks up as a value."""
PHRASE_SCHEMA: dict[str, pl.DataType] = {
    "profile_id": pl.String(),
    "phrase": pl.UInt64(),
    "kind": pl.String(),
}
"""The columns of `phrase_keys`."""


_CHAINS_HELD = 50_000
"""Chains a finder remembers (then it forgets them all and starts again): a bound on its memory."""


@task_cache(maxsize=65_536)
def _fold_word(word: str) -> str:
    return fold(word)


def phrase_key(folded: str) -> int:
    """A phrase's key: 63 bits of its BLAKE2b digest (the same in every process and run)."""
    return int.from_bytes(hashlib.blake2b(folded.encode(), digest_size=8).digest(), "big") >> 1


@dataclass(frozen=True, slots=True)
class Phrase:
    start: int
    end: int
    key: int
    kind: str
    always: bool
    """Replaced whatever its count (a number of years, a name token)."""
    allowed: bool = False
    """An everyday word alone: replaced only as the value of a coarsened column."""


class PhraseFinder:
    """The candidate phrases of a text, typed from their words (`rules/risk.yaml`, `phrases`)."""

    def __init__(self, rules: PhraseRules, privacy: PrivacyRules) -> None:
        self.allowed = privacy.allow_list
        self.common = privacy.common_words
        self.function_words = frozenset(fold(word) for word in rules.function_words) | {
            word for connector in _CONNECTORS.split("|") for word in connector.split()
        }
        self.types = {fold(word): kind for kind, words in rules.types.items() for word in words}
        self.default = rules.default_type
        self.units = frozenset(fold(unit) for unit in rules.time_units)
        self.unkeyed = frozenset(rules.unkeyed)
        self._chains: dict[tuple[str, bool], tuple[int, int, int, str, bool] | None] = {}

    def __call__(self, text: str) -> Iterator[Phrase]:
        for match in _CANDIDATE.finditer(text):
            if match["token"]:
                entity = match["entity"]
                if match["key"] is None:
                    continue  # already a typed token
                yield Phrase(match.start(), match.end(), phrase_key(match[0]), entity,
                             entity in self.unkeyed)  # fmt: skip
            elif match["number"]:
                unit = match["unit"]
                timed = unit is not None and fold(unit) in self.units
                end = match.end("unit") if timed else match.end("number")
                yield Phrase(match.start(), end, phrase_key(match["number"]), "NUMBER", timed)
            else:
                start = match.start()
                before = start - 1
                while before >= 0 and text[before].isspace():
                    before -= 1
                opens_sentence = before < 0 or text[before] in ".!?:;"
                chain = self._chain(match[0], opens_sentence)
                if chain is not None:
                    first, last, key, kind, allowed = chain
                    yield Phrase(start + first, start + last, key, kind, False, allowed)

    def _chain(self, chain: str, opens_sentence: bool) -> tuple[int, int, int, str, bool] | None:
        """A chain without its function words at either end, nor a common word opening a sentence:
        (start, end within the chain, key, kind, `allowed`); `allowed` (never counted) if what is left is
        one everyday word ("Gold"), or one allowed word opening a sentence ("Directed"). Allowed words
        inside a sentence ("at MediaTek", "on Kafka") are candidates like any other phrase: common ones
        are shared by k persons, a rare one points at someone. The same chains recur in every batch:
        each is worked out once per process."""
        if (chain, opens_sentence) in self._chains:
            return self._chains[(chain, opens_sentence)]
        if len(self._chains) >= _CHAINS_HELD:
            self._chains.clear()
        found = self._chain_of(chain, opens_sentence)
        self._chains[(chain, opens_sentence)] = found
        return found

    def _chain_of(self, chain: str, opens_sentence: bool) -> tuple[int, int, int, str, bool] | None:
        words = list(_WORDS.finditer(chain))
        folded_words = [_fold_word(word[0]) for word in words]
        while words and (
            folded_words[0] in self.function_words
            or (opens_sentence and len(words) > 1 and folded_words[0] in self.common)
        ):
            words.pop(0)
            folded_words.pop(0)
            opens_sentence = False
        while words and folded_words[-1] in self.function_words:
            words.pop()
            folded_words.pop()
        if not words:
            return None
        single = folded_words[0] if len(words) == 1 else None
        allowed = single is not None and (
            single in self.common or (opens_sentence and single in self.allowed)
        )
        folded = " ".join(folded_words)
        if all(word[0].isdigit() for word in folded_words):
            kind = "NUMBER"
        else:
            kind = next((self.types[w] for w in folded_words if w in self.types), self.default)
        return words[0].start(), words[-1].end(), phrase_key(folded), kind, allowed


def phrase_keys(tables: Mapping[str, pl.DataFrame], rules: PhraseRules, finder: PhraseFinder) -> pl.DataFrame:
    """(`profile_id`, `phrase`, `kind`): each person's distinct candidate phrases in the free-text
    columns (allowed words alone left out)."""
    ids: list[str] = []
    keys: list[int] = []
    kinds: list[str] = []
    for column in rules.columns:
        table, _, name = column.partition(".")
        frame = tables.get(table)
        if frame is None or name not in frame.columns:
            continue
        for profile_id, value in frame.select("profile_id", name).iter_rows():
            for text in value if isinstance(value, list) else [value]:
                if text:
                    for phrase in finder(text):
                        if not phrase.allowed:
                            ids.append(profile_id)
                            keys.append(phrase.key)
                            kinds.append(phrase.kind)
    found = {"profile_id": ids, "phrase": keys, "kind": kinds}
    return pl.DataFrame(found, schema=PHRASE_SCHEMA).unique(maintain_order=True)


class PhraseRewriter:
    """Rewrites free text: each candidate phrase not shared by k persons, or always replaced, or a value
    of a coarsened column (`forced`), becomes its typed token."""

    def __init__(self, finder: PhraseFinder, shared: Collection[int], forced: Mapping[int, str]) -> None:
        self.finder = finder
        self.shared = frozenset(shared)
        self.forced = dict(forced)

    def __call__(self, text: str) -> str:
        pieces, at = [], 0
        for phrase in self.finder(text):
            kind = self.forced.get(phrase.key)
            if kind is None and not phrase.allowed and (phrase.always or phrase.key not in self.shared):
                kind = phrase.kind
            if kind is not None:
                pieces += [text[at : phrase.start], f"<{kind}>"]
                at = phrase.end
        pieces.append(text[at:])
        return "".join(pieces)

    def expr(self, column: str, dtype: pl.DataType) -> pl.Expr:
        """`column` rewritten, batch by batch (a text column or a list of texts)."""
        return _rewritten(column, dtype, self)


class Restater:
    """Rewrites the values of a column that names others: each run of a value's words (up to
    `_RESTATED_WORDS`, wherever it stands: "Acme Research Lab") that is a value of a coarsened column
    (`forced`, from `restated_keys`) becomes its typed token, the longest first, unless it is the whole
    value. A column's values are few and recur, so each is worked out once."""

    def __init__(self, forced: Mapping[int, str]) -> None:
        self.forced = dict(forced)
        self._done: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        if text not in self._done:
            if len(self._done) >= _CHAINS_HELD:
                self._done.clear()
            self._done[text] = self._restated(text)
        return self._done[text]

    def _restated(self, text: str) -> str:
        words = [(word.start(), word.end(), _fold_word(word[0])) for word in _PLAIN_WORD.finditer(text)]
        pieces, at, first = [], 0, 0
        while first < len(words):
            for last in range(min(len(words), first + _RESTATED_WORDS), first, -1):
                start, end = words[first][0], words[last - 1][1]
                kind = self.forced.get(phrase_key(" ".join(word for *_, word in words[first:last])))
                if kind is not None and (_PLAIN_WORD.search(text[:start]) or _PLAIN_WORD.search(text[end:])):
                    pieces += [text[at:start], f"<{kind}>"]
                    at, first = end, last
                    break
            else:
                first += 1
        pieces.append(text[at:])
        return "".join(pieces)

    def expr(self, column: str, dtype: pl.DataType) -> pl.Expr:
        """`column` restated, batch by batch (a text column or a list of texts)."""
        return _rewritten(column, dtype, self)


def _rewritten(column: str, dtype: pl.DataType, rewrite: Callable[[str], str]) -> pl.Expr:
    """`column` with `rewrite` applied to each text, batch by batch (a text column or a list of texts)."""

    def one(text: str | None) -> str | None:
        return None if text is None else rewrite(text)

    def rewritten(series: pl.Series) -> pl.Series:
        values = series.to_list()
        if dtype == pl.List(pl.String):
            lists = [None if texts is None else [one(t) for t in texts] for texts in values]
            return pl.Series(column, lists, dtype)
        return pl.Series(column, [one(v) for v in values], dtype)

    return pl.col(column).map_batches(rewritten, return_dtype=dtype).alias(column)


def value_keys(finder: PhraseFinder, values: Mapping[str, Collection[str]]) -> dict[int, str]:
    """Phrase key -> token type, for the phrases that text holds when it names a value of a coarsened
    column (`values`: the column's bare name -> its values); the type is the column's name."""
    keys: dict[int, str] = {}
    for column, column_values in sorted(values.items()):
        for value in column_values:
            # Read as text reads it mid-sentence, where a capitalised everyday word is part of a name.
            for phrase in finder(f"at {value}"):
                if phrase.kind != "NUMBER":
                    keys.setdefault(phrase.key, column.upper())
    return keys


def restated_keys(finder: PhraseFinder, values: Mapping[str, Collection[str]]) -> dict[int, str]:
    """Key of a whole value's words (as a `Restater` reads a text) -> token type, for the values of coarsened
    columns (`values`: the column's bare name -> its values), but a single everyday, allowed or function
    word: "Software" (an employer scraped without its first word) would cut "Software Engineer"."""
    plain = finder.common | finder.allowed | finder.function_words
    keys: dict[int, str] = {}
    for column, column_values in sorted(values.items()):
        for value in column_values:
            words = [_fold_word(word[0]) for word in _PLAIN_WORD.finditer(value)]
            if len(words) > 1 or (words and words[0] not in plain):
                keys.setdefault(phrase_key(" ".join(words)), column.upper())
    return keys

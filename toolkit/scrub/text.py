"""Scrub free text record by record: Presidio's findings, plus everything known about the record.

Each distinct text is analyzed once (profiles share repository descriptions, organisations, award
titles). Then, per record, every identifier found in any of its texts, and those the caller knows from
the record's structure (the person's name, supervisors), is searched for in all of its texts, so a name
NER caught once is replaced everywhere, in any case, inside URLs and e-mail addresses too. Overlapping
findings are merged, and each is replaced by a keyed token like <PERSON_1a2b3c4d>.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Collection, Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import regex

from toolkit.detectors import Finding, resolve
from toolkit.rules import SPAN_FILTERS, SpanFilterName
from toolkit.scrub.adjusters import POSSESSIVE
from toolkit.scrub.engine import Engine
from toolkit.scrub.filters import SpanFilters
from toolkit.scrub.identifiers import RecordIdentifiers, WordIndex
from toolkit.scrub.keys import Keyring
from toolkit.scrub.spans import Span
from toolkit.scrub.tools import ToolJudge, is_allowed
from toolkit.text import DISGUISED_AT, INVISIBLE, WIDE_FORMS, Lexicon, Words, fold

_MIN_SCORE = 0.5
TOKEN = regex.compile(r"<[A-Z_]+_[0-9a-f]{8}>")
"""A replacement token; text that already holds one is never scrubbed again (scrubbing is idempotent)."""


@dataclass(frozen=True)
class Seeds:
    """What the structure of a record says before any text is read."""

    own_names: tuple[str, ...] = ()
    other_people: tuple[str, ...] = ()
    read_only: tuple[str, ...] = ()
    """Texts of the record that are not released (a résumé's contact header): read for the contacts and
    names they hold, never returned."""
    contacts: tuple[str, ...] = ()
    """Identifiers the record's format states outright (e-mails, phones, sites, '@handles', an address):
    known without being recognised, each of the type `contact_entity` gives it."""


_EMAIL = regex.compile(r"[^\s@]+@[^\s@]+\.\w+")
_SITE = regex.compile(r"(?:[a-z][a-z0-9+.-]*://|www\.)\S+|[\w.-]+\.[a-z]{2,}(?:/\S*)?", regex.IGNORECASE)
_PHONE = regex.compile(r"\+?[\d ()./-]{6,}(?:\s*(?:x|ext\.?)\s*\d+)?", regex.IGNORECASE)
_MIN_PHONE_DIGITS = 6


def contact_entity(value: str) -> str:
    """The entity type of a stated contact: an e-mail, an '@handle', a site, a phone (six digits or more
    and nothing but phone punctuation), an address (words with a space); anything else (a licence number,
    a postcode) is an ID."""
    value = value.strip()
    if _EMAIL.fullmatch(value):
        return "EMAIL_ADDRESS"
    if value.startswith("@"):
        return "HANDLE"
    if _SITE.fullmatch(value):
        return "URL"
    if _PHONE.fullmatch(value) and sum(ch.isdigit() for ch in value) >= _MIN_PHONE_DIGITS:
        return "PHONE_NUMBER"
    return "STREET_ADDRESS" if " " in value else "NATIONAL_ID"


_Need = tuple[str, int, str]
"""A sentence that needs NER: the text holding it, its offset there, and the sentence."""
_Decided = dict[tuple[int, str, Span], tuple[bool, SpanFilterName | None, Span]]
"""Per call of `scrub`: (the record's allow-list, text, span) -> whether a span filter keeps the span out,
the unit that decided, and the span as adjusted (`TextScrubber._kept`)."""


@dataclass
class TextScrubResult:
    texts: list[str]
    """The scrubbed texts, in the order given."""
    kept_texts: list[str] = field(default_factory=list)
    """The kept values, in the order given, with the record's own identifiers replaced."""
    entities: Counter[str] = field(default_factory=Counter)
    """How many replacements of each entity type were made."""
    span_filters: Counter[str] = field(default_factory=Counter)
    """Per span filter, the spans found that it kept out of the replacements (`certain_person`: those it
    kept in against a filter)."""
    recognizers: Counter[str] = field(default_factory=Counter)
    """Per recognizer (and `NER`), the spans it found that were replaced (before overlapping findings
    are merged: a stretch two recognizers found counts for each)."""
    span_adjusters: Counter[str] = field(default_factory=Counter)
    """Per span adjuster, the spans to replace that it changed or added."""


class TextScrubber:
    def __init__(
        self,
        engine: Engine,
        keys: Keyring,
        entities: Iterable[str],
        allow_list: frozenset[str],
        common_words: frozenset[str] = frozenset(),
        first_names: frozenset[str] = frozenset(),
        product_words: frozenset[str] = frozenset(),
        technical_given_names: frozenset[str] = frozenset(),
        vendors: frozenset[str] = frozenset(),
        precedence: Sequence[str] = (),
        span_filters: Collection[str] = SPAN_FILTERS,
    ) -> None:
        self.engine = engine
        self.precedence = tuple(precedence)
        """Entity types in the order that wins a tie between findings of one stretch (`detectors.resolve`)."""
        self.keys = keys
        self.entities = frozenset(entities)
        self.allow_list = allow_list
        self.common_words = common_words
        self.first_names = first_names
        self.given_names = first_names | technical_given_names
        """Every given name known, those that are also technical words ('Julia') included."""
        self.tools = ToolJudge(
            common_words, first_names, self.given_names, engine.english, product_words, vendors
        )
        self.filters = SpanFilters(self.tools, span_filters)
        self.adjusters = engine.adjusters
        """The span adjusters switched on: the engine's, which widens what its recognizers find."""

    def scrub(
        self,
        items: Sequence[tuple[Hashable, str]],
        seeds: Mapping[Hashable, Seeds] | None = None,
        vocabulary: Mapping[Hashable, Iterable[str]] | None = None,
        kept: Sequence[tuple[Hashable, str]] = (),
    ) -> TextScrubResult:
        """Scrub each (record, text) item; texts of one record share what is known about its people.

        A record's output depends only on its own items, seeds and `vocabulary` (words the record itself
        says are technical: its skills, tags, project names; allowed in that record alone), never on the
        other records scrubbed with it: a text shared by records is analyzed once, but NER's findings in
        it count only for the records whose knowledge left a word of it unexplained.

        `kept` values (of kept columns: a country, a skill) are not analyzed and teach nothing: only the
        identifiers the record's texts and seeds gave are replaced in them ('kwamemensah5' as a tag of
        Kwame Mensah's profile), never an allowed or everyday word ('Julia' as a skill of Julia's).

        Text is read with escaped line breaks and tabs (a backslash and n, r or t, as JSON and CSV exports
        leave them) seen as white space, so that '\\n+41 53 147 37 99' is a phone after a line break; the
        output keeps them as they were.
        """
        originals = [text for _, text in items]
        kept_originals = [text for _, text in kept]
        items = [(record, _readable(text)) for record, text in items]
        kept = [(record, _readable(text)) for record, text in kept]
        allowed_in: dict[Hashable, Words] = {
            record: Lexicon(self.allow_list, {fold(word) for word in words})
            for record, words in (vocabulary or {}).items()
        }
        records: dict[Hashable, RecordIdentifiers] = {}

        def identifiers_of(record: Hashable) -> RecordIdentifiers:
            if record not in records:
                records[record] = RecordIdentifiers(
                    allowed_in.get(record, self.allow_list),
                    self.common_words,
                    self.allow_list,
                    english=self.engine.english,
                )
            return records[record]

        for record, record_seeds in (seeds or {}).items():
            for name in record_seeds.own_names:
                identifiers_of(record).add_own_name(name)
            for name in record_seeds.other_people:
                identifiers_of(record).add_other_person(name)
            for contact in record_seeds.contacts:
                identifiers_of(record).add_found(contact_entity(contact), contact.strip())
        texts_of: dict[Hashable, dict[str, None]] = defaultdict(dict)
        for record, text in items:
            identifiers_of(record)
            if text:
                texts_of[record][text] = None
        for record, _ in kept:
            identifiers_of(record)
        read_only = {
            record: [_readable(text) for text in record_seeds.read_only if text]
            for record, record_seeds in (seeds or {}).items()
            if record in texts_of and record_seeds.read_only
        }
        distinct = sorted(
            {text for texts in texts_of.values() for text in texts}
            | {text for texts in read_only.values() for text in texts}
        )
        # First without NER: patterns, gazetteer and cues, and the names the structure gives. Then NER,
        # only on the sentences in which a capitalised word is still unexplained for some record.
        recognized = dict(zip(distinct, self.engine.recognized(distinct), strict=True))
        decided: _Decided = {}
        for record, texts in texts_of.items():
            every = [*texts, *read_only.get(record, ())]
            self._learn(records[record], {text: recognized[text] for text in every}, every, decided)
        needs = {
            record: self._needing_ner(texts, records[record]) if self.engine.ner is not None else []
            for record, texts in texts_of.items()
        }
        sentences = sorted({sentence for need in needs.values() for _, _, sentence in need})
        named = dict(zip(sentences, self.engine.named_entities(sentences), strict=True))
        found: dict[tuple[Hashable, str], list[Span]] = {}
        for record, need in needs.items():
            extra: dict[str, list[Span]] = defaultdict(list)
            for text, offset, sentence in need:
                extra[text] += [
                    replace(e, start=e.start + offset, end=e.end + offset) for e in named[sentence]
                ]
            for text, spans in extra.items():
                found[(record, text)] = recognized[text] + spans
            if extra:
                self._learn(records[record], extra, texts_of[record], decided)
        indexes = {record: identifiers.index() for record, identifiers in records.items()}
        result = TextScrubResult(texts=[])
        done: dict[tuple[Hashable, str], str] = {}
        for (record, text), original in zip(items, originals, strict=True):
            key = (record, original)
            if key not in done:
                spans = found.get((record, text)) or recognized.get(text, [])
                done[key] = self._replace(
                    text, spans, records[record], indexes.get(record), result, original, decided
                )
            result.texts.append(done[key])
        for (record, text), original in zip(kept, kept_originals, strict=True):
            key = (record, original)
            if key not in done:
                done[key] = self._replace_known(text, records[record], indexes.get(record), result, original)
            result.kept_texts.append(done[key])
        return result

    def _replace_known(
        self,
        text: str,
        identifiers: RecordIdentifiers,
        index: WordIndex | None,
        result: TextScrubResult,
        original: str,
    ) -> str:
        if index is None or not text or is_allowed(text, self.allow_list, self.common_words):
            return original
        found = [
            Finding(start, end, known.entity, known=True)
            for start, end, known in identifiers.find(text, index)
            if not is_allowed(text[start:end], self.allow_list, self.common_words)
        ]
        if not found:
            return original
        return self._replace(text, [], identifiers, index, result, original, {}, found)

    def _learn(
        self,
        identifiers: RecordIdentifiers,
        spans_of: Mapping[str, list[Span]],
        texts: Iterable[str],
        decided: _Decided,
    ) -> None:
        """Add what was found in some of one record's texts (`texts`: all of them) to its identifiers."""
        for text, spans in spans_of.items():
            kept = self._kept(spans, text, identifiers.allow_list, decided)
            found = (Finding(span.start, span.end, span.entity, span.score) for span in kept)
            # Learned as the type the text will be replaced by: 'São Paulo' that NER calls a place and a
            # name pattern a person is a place, and is not searched for as a person elsewhere.
            for start, end, entity in resolve(found, text, self.precedence, join_touching=False):
                identifiers.add_found(entity, text[start:end])
        identifiers.link_contact_names(texts)

    def _needing_ner(self, texts: Iterable[str], identifiers: RecordIdentifiers) -> list[_Need]:
        """The sentences of one record's texts that need NER, with the text and offset of each: those with
        a capitalised word that is neither an allowed term, nor an everyday word, nor a word of a name the
        record already knows alone (those are found without NER)."""
        explained = Lexicon(identifiers.allow_list, self.common_words)
        known = {variant for variant in identifiers.all_folded() if " " not in variant}
        needs: list[_Need] = []
        for text in texts:
            if not _unexplained_words(text, explained):
                continue
            for offset, sentence in _sentences(text):
                if _unexplained_words(sentence, explained) - known:
                    needs.append((text, offset, sentence))
        return needs

    def _kept(
        self,
        spans: list[Span],
        text: str,
        allow_list: Container[str],
        decided: _Decided,
        result: TextScrubResult | None = None,
    ) -> list[Span]:
        """The spans to replace: of the policy's entities, scored enough, and kept out by no span filter
        (counted in `result` by the filter that decided, and those kept by their source). A span's
        decision is made once per call of `scrub` (`decided`): a text's spans are judged when the record
        learns from them and again when they are replaced."""
        kept = []
        for found in spans:
            if found.entity not in self.entities or found.score < _MIN_SCORE:
                continue
            key = (id(allow_list), text, found)
            if key not in decided:
                out, unit = self.filters.verdict(found, text, allow_list)
                adjusted = found
                if not out and found.entity == "PERSON":
                    adjusted = self.adjusters.person(found, text, allow_list)
                decided[key] = (out, unit, adjusted)
            out, unit, span = decided[key]
            if result is not None:
                if unit is not None:
                    result.span_filters[unit] += 1
                if not out:
                    result.recognizers[span.source] += 1
            if out:
                continue
            if result is not None:
                result.span_adjusters.update(span.adjusted)
            kept.append(span)
        return kept

    def _replace(
        self,
        text: str,
        spans: list[Span],
        identifiers: RecordIdentifiers,
        index: WordIndex | None,
        result: TextScrubResult,
        original: str,
        decided: _Decided,
        known: list[Finding] | None = None,
    ) -> str:
        """`text` with the spans found replaced by tokens; `original` is `text` before `_readable` (of the
        same length), whose characters the output keeps outside the tokens."""
        if not text:
            return original
        candidates = [
            Finding(s.start, s.end, s.entity, s.score)
            for s in self._kept(spans, text, identifiers.allow_list, decided, result)
        ]
        if known is None:
            ordinary = Lexicon(identifiers.allow_list, self.common_words)
            known = []
            for start, end, found in identifiers.find(text, index):
                finding, units = self.adjusters.known_name(
                    Finding(start, end, found.entity, known=True), text, ordinary, self.given_names
                )
                result.span_adjusters.update(units)
                known.append(finding)
        candidates += known
        tokens_already = [match.span() for match in TOKEN.finditer(text)]
        if tokens_already:  # tokens never overlap: the last one starting before a candidate's end decides
            starts = [start for start, _ in tokens_already]
            candidates = [
                c for c in candidates
                if (i := bisect_left(starts, c.end) - 1) < 0 or tokens_already[i][1] <= c.start
            ]  # fmt: skip
        merged = resolve(candidates, text, self.precedence)
        if not merged:
            return original
        ordinary = Lexicon(identifiers.allow_list, self.common_words)
        merged, listed = self.adjusters.listed(merged, text, ordinary, self.engine.english)
        result.span_adjusters["names_listed_with_a_person"] += listed
        tokens: dict[str, str] = {}
        for start, end, entity in merged:
            value = text[start:end]
            identity = identifiers.identity_of(value)
            key = identity.key if identity is not None and identity.entity == entity else fold(value)
            tokens[value] = self.keys.token(entity, key)
            result.entities[entity] += 1
        # One pass, as Presidio's anonymizer would replace them (it copied the whole text per replacement).
        pieces: list[str] = []
        last = 0
        for start, end, entity in _join_space_separated(merged, text):
            value = text[start:end]
            pieces += [original[last:start], tokens.get(value) or self.keys.token(entity, fold(value))]
            last = end
        pieces.append(original[last:])
        return "".join(pieces)


_ESCAPED_BREAK = regex.compile(r"\\[nrt](?=[\p{L}\p{N}(+\\]|$)")


_UNESCAPED = {"n": " \n", "r": " \r", "t": " \t"}
_INVISIBLE_IN_CONTACT = regex.compile(rf"(?<=\d){INVISIBLE}(?=\d)|{INVISIBLE}(?=@)|(?<=@){INVISIBLE}")


def _readable(text: str) -> str:
    """`text` as the detectors should read it, of the same length, so a span found in it is the same span
    of `text`: an escaped line break or tab ('\\n' before a word) as a space and the character it stands
    for; full-width forms as ASCII; an at sign written '&#64;', '%40' or ' @ ' as '@' after as many '%'
    as fill its place (a local part may hold them); an invisible character between digits or beside an at
    sign as a separator ('79\\u200b46', 'kwame\\u200b@')."""
    if text.isascii() and not any(mark in text for mark in ("\\", "&", "%", " @", "@ ")):
        return text
    if "\\" in text:
        text = _ESCAPED_BREAK.sub(lambda match: _UNESCAPED[match.group()[1]], text)
    if not text.isascii():
        text = _INVISIBLE_IN_CONTACT.sub(
            lambda match: "." if "@" in text[max(0, match.start() - 1) : match.end() + 1] else "-", text
        )
        text = text.translate(WIDE_FORMS)
    return DISGUISED_AT.sub(lambda match: "%" * (len(match.group()) - 1) + "@", text)


_CAPITALISED_WORD = regex.compile(r"(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'\u2019]*")
_TEXT_WORD = regex.compile(r"[\p{L}\p{N}]+(?:['\u2019]\p{L}+)*")
_LONGEST_PHRASE = 4
"""Allowed phrases are looked for up to this many words."""
_SENTENCE_BREAK = regex.compile(
    r"(?<=[.!?;])(?<!\b(?:[Dd]r|[Mm]rs?|[Mm]s|[Mm]x|[Pp]rof|[Ss]t|[Jj]r|[Ss]r|vs|etc|e\.g|i\.e|\p{Lu})\.)\s+"
)
"""Where a sentence ends: after . ! ? or ;, but not after a title or an initial ("Dr. Ana", "J. Smith")."""


def _unexplained_words(text: str, explained: Lexicon) -> set[str]:
    """The capitalised words of `text`, folded and without a possessive 's, that are neither in
    `explained` nor part of a phrase in it ('Deep' of 'Deep Learning', 'Co' of 'Co-founder')."""
    capitalised = {POSSESSIVE.sub("", fold(word)) for word in _CAPITALISED_WORD.findall(text)}
    if not explained.missing(capitalised):
        return set()
    written = _TEXT_WORD.findall(text)
    words = [POSSESSIVE.sub("", fold(word)) for word in written]
    unknown = explained.missing(set(words))
    covered = [word not in unknown for word in words]
    phrases = {
        (start, size): " ".join(words[start : start + size])
        for size in range(2, _LONGEST_PHRASE + 1)
        for start in range(len(words) - size + 1)
        if not all(covered[start : start + size])
    }
    not_allowed = explained.missing(set(phrases.values()))
    for (start, size), phrase in phrases.items():
        if phrase not in not_allowed:
            covered[start : start + size] = [True] * size
    pairs = zip(words, written, covered, strict=True)
    return {word for word, shown, done in pairs if shown[0].isupper() and not done}


def _sentences(text: str) -> Iterable[tuple[int, str]]:
    """(offset, sentence) for each sentence of `text`."""
    start = 0
    for end in _SENTENCE_BREAK.finditer(text):
        yield start, text[start : end.start()]
        start = end.end()
    yield start, text[start:]


_SPACES = re.compile(r" +")


def _join_space_separated(spans: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
    """Spans of one type with only spaces between become one, as Presidio's anonymizer joins them."""
    joined: list[tuple[int, int, str]] = []
    for start, end, entity in spans:
        if joined and joined[-1][2] == entity and _SPACES.fullmatch(text[joined[-1][1] : start]):
            start = joined.pop()[0]
        joined.append((start, end, entity))
    return joined

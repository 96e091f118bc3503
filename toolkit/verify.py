"""Verify a batch of would-be release rows, person by person: whoever still shows is suppressed.

Three searches over every text cell of a person's released rows (lists included; pseudonymized columns
are skipped: their values are this toolkit's own keyed hashes, hex that can look like anything; the
toolkit's own tokens are skipped too), none of them reusing the scrubber's detectors:
1. the person's own direct identifiers from the parsed structure: their name in every reading
   (`toolkit.names`: 'NOWAK, Marta', a name in two scripts), each part of it and "Last, First", the e-mail
   local parts and @handles in their source text (found with this module's own patterns), and the names
   of the other people their record names (supervisors: the whole name, and the parts that are neither
   allowed terms nor everyday words), folded (case, accents, white space, invisible characters, Cyrillic
   and Greek lookalikes) and on word boundaries; and, as substrings of any token, the handle forms made
   of the name and its parts of four letters or more ('mnowak88', 'nowakdev.pl'), and names in scripts
   without spaces anywhere. A single name word is only ever searched inside its own record: "Page" is
   somebody's surname and everybody else's ordinary word;
2. the whole names (two words or more) of everyone in the dataset, in every record (`NameIndex`, built by a
   dataset-wide pass before any batch is scrubbed, so the result does not depend on the batch);
3. generic shapes of contacts and personal details (`toolkit.suspicious`, broader than the scrubber's
   recognizers: e-mails in any script or spelled out, URLs, handles, phones, IPs, cards, IBANs, street
   addresses, dates of birth).
A hit suppresses the person (`SuppressReason` says which search found it); the release is blocked only
when suppressions pass the budget of `rules/privacy.yaml`. Hits are counted per table, column and kind;
values are never reported.
"""

from __future__ import annotations

import hashlib
import re
from array import array
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import polars as pl
import regex

from toolkit.model import ProfileSet, other_people
from toolkit.names import (
    PARTICLES,
    Substrings,
    compact,
    glued_script,
    handle_forms,
    initials,
    readings,
    unleet,
)
from toolkit.rules import PrivacyRules
from toolkit.suspicious import SHAPE_ENTITIES, suspicious_each
from toolkit.text import Lexicon, fold

CONTACT_ENTITIES = SHAPE_ENTITIES
_GLUED = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"
_WORDS = regex.compile(rf"[^\W_{_GLUED}]+|[{_GLUED}]+")
"""Words of letters and digits; a change from a script without spaces to another ends a word."""
_PARTS = regex.compile(r"[^\p{L}\p{N}]+")
LABEL_COLUMNS = frozenset({("profiles", "layout"), ("profiles", "encoding"), ("skills", "kind")})
"""Columns whose values are the toolkit's own labels ('programming_language'), never searched."""
_REPLACEMENT = regex.compile(r"<[A-Z][A-Z_]*(?:_[0-9a-f]{8})?>")
"""A token this toolkit wrote (<PERSON_1a2b3c4d>, <EMPLOYER>): its hex is not a value to search."""
_TITLES = frozenset({"dr", "prof", "mr", "mrs", "ms", "mx"})
LONGEST_NAME = 4
"""Whole names are compared on their first four words (a longer name matches on those)."""


class SuppressReason(StrEnum):
    """Why a person's rows were kept out of a release. Values are stable: reports key on them."""

    OWN_IDENTIFIER = "own_identifier"
    """The person's own name, or a part of it, survived in their rows."""
    OTHER_PERSON = "other_person"
    """The name of another person their record names (a supervisor) survived in their rows."""
    KNOWN_NAME = "known_name"
    """The whole name of someone in the dataset survived in their rows."""
    CONTACT = "contact"
    """Something shaped like a contact or a personal detail (e-mail, phone, URL, handle, IP, card, IBAN,
    street address, date of birth) survived."""


@dataclass
class Verification:
    """What verification found in some batches; `merge` adds another's, in any order, to the same result."""

    persons_checked: int = 0
    suppressed: dict[str, SuppressReason] = field(default_factory=dict)
    """Source profile_id -> the first reason found (private: the report shows pseudonyms)."""
    hits: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    """(table, column, kind) -> values hit; kind is a `SuppressReason` value or a contact entity type."""

    def merge(self, other: Verification) -> None:
        self.persons_checked += other.persons_checked
        for person, reason in other.suppressed.items():
            self.suppressed.setdefault(person, reason)
        self.hits.update(other.hits)

    def hits_json(self) -> list[dict[str, Any]]:
        return [
            {"table": table, "column": column, "kind": kind, "values": values}
            for (table, column, kind), values in sorted(self.hits.items())
        ]


def name_words(name: str) -> list[str]:
    """The folded words of a name, without titles ('Dr. Ana Lima' -> ['ana', 'lima'])."""
    return [word for word in _WORDS.findall(fold(name)) if word not in _TITLES]


@dataclass(frozen=True, eq=False)
class NameIndex:
    """The whole names (two words or more, folded, on their first `LONGEST_NAME` words) of every person
    and every supervisor in a dataset, held as stable 64-bit digests (the same in every process) in one
    sorted array, eight bytes a name, with the set of their first words to skip text quickly. Built once,
    before scrubbing, by the driver's dataset-wide pass; the same for every batch."""

    digests: array[int] = field(default_factory=lambda: array("Q"))
    """Sorted, without repeats."""
    firsts: frozenset[str] = frozenset()

    @classmethod
    def of(cls, names: Iterable[str]) -> NameIndex:
        keys = [words[:LONGEST_NAME] for name in names if len(words := name_words(name)) >= 2]
        return cls(array("Q", sorted(set(map(_digest, keys)))), frozenset(words[0] for words in keys))

    def __contains__(self, digest: int) -> bool:
        at = bisect_left(self.digests, digest)
        return at < len(self.digests) and self.digests[at] == digest

    def found_in(self, words: list[str]) -> bool:
        if not self.digests:
            return False
        for start in range(len(words) - 1):
            if words[start] not in self.firsts:
                continue
            for size in range(2, min(LONGEST_NAME, len(words) - start) + 1):
                if _digest(words[start : start + size]) in self:
                    return True
        return False


def _digest(words: list[str]) -> int:
    return int.from_bytes(hashlib.blake2b(" ".join(words).encode(), digest_size=8).digest(), "little")


@dataclass(frozen=True)
class _Person:
    own: frozenset[tuple[str, ...]]
    other: frozenset[tuple[str, ...]]
    longest: int
    firsts: frozenset[str]
    inside: Substrings | None = None
    """Compact forms of the person's own names, searched inside every token ('mnowak88')."""
    glued: tuple[str, ...] = ()
    """Folded names in scripts without spaces, searched anywhere."""
    initials: re.Pattern[str] | None = None
    """The initials of a name of three words or more, as a token or before a digit or separator."""

    def hit(self, words: list[str]) -> SuppressReason | None:
        if self.firsts.isdisjoint(words):
            return None
        for start in range(len(words)):
            if words[start] not in self.firsts:
                continue
            for size in range(1, min(self.longest, len(words) - start) + 1):
                sequence = tuple(words[start : start + size])
                if sequence in self.own:
                    return SuppressReason.OWN_IDENTIFIER
                if sequence in self.other:
                    return SuppressReason.OTHER_PERSON
        return None

    def hit_inside(self, folded: str, ordinary: Container[str]) -> SuppressReason | None:
        """A token (a run without spaces) holding a compact form of the person's names, unless the token
        is itself an ordinary word; a name in a script without spaces anywhere."""
        if any(name in folded for name in self.glued):
            return SuppressReason.OWN_IDENTIFIER
        if self.inside is None and self.initials is None:
            return None
        for token in folded.split():
            token = token.strip("()[]{}<>\"'.,;:!?")
            squeezed = compact(token)
            if len(squeezed) < 3 or squeezed in ordinary:
                continue
            if all(part in ordinary for part in _PARTS.split(token) if part):
                continue  # 'programming_language' is no surname 'Lang'
            inside = self.inside
            if (
                len(squeezed) >= _MIN_INSIDE
                and inside is not None
                and any(inside.search(reading) for reading in (squeezed, *unleet(squeezed)))
            ):
                return SuppressReason.OWN_IDENTIFIER
            if self.initials is not None and self.initials.match(token):
                return SuppressReason.OWN_IDENTIFIER
        return None


_MIN_INSIDE = 4
_EMAIL_LOCAL = regex.compile(r"([\p{L}\p{N}][\p{L}\p{N}._%+-]*)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+")
_AT_HANDLE = regex.compile(r"(?<![\w.@])@([A-Za-z0-9_][A-Za-z0-9_.-]{2,})")


def contact_handles(text: str) -> Iterator[str]:
    """Parts of the contacts in a source text that identify their owner on their own: an e-mail's local
    part, an @handle. Found with this module's own patterns, not the scrubber's. (A URL's account is not
    taken: "github.com/openxla" names a project as often as a person; a URL that survives is found by
    the contact re-scan.)"""
    for match in _EMAIL_LOCAL.finditer(text):
        yield match.group(1)
    for match in _AT_HANDLE.finditer(text):
        yield match.group(1)


def _person(
    names: Iterable[str], others: Iterable[str], ordinary: Container[str], handles: Iterable[str] = ()
) -> _Person:
    own: set[tuple[str, ...]] = set()
    for handle in handles:
        parts = tuple(_WORDS.findall(fold(handle)))
        if parts and len("".join(parts)) >= 4 and not all(part in ordinary for part in parts):
            own.add(parts)
    inside: set[str] = set()
    glued: set[str] = set()
    letters: set[str] = set()
    for name in (reading for written in names for reading in readings(written)):
        words = name_words(name)
        if (short := initials(name)) is not None:
            letters.add(short)
        if glued_script(name):
            glued.add(fold(name).replace(" ", ""))
        if words:
            own.add(tuple(words))
            own.update(  # not a word of the allow-list alone: 'ruby' as a skill of Ruby's is the term
                (word,) for word in words if len(word) >= 2 and word not in PARTICLES and word not in ordinary
            )
            if len(words) >= 2:
                own.add((words[-1], words[0]))  # "Last, First"
            inside |= handle_forms(name)
            inside.update(
                part for word in words
                if len(part := compact(word)) >= _MIN_INSIDE
                and word not in PARTICLES and part not in ordinary
            )  # fmt: skip
    other: set[tuple[str, ...]] = set()
    for name in others:
        words = name_words(name)
        if words:
            other.add(tuple(words))
            other.update(
                (word,) for word in words if len(word) >= 3 and word not in PARTICLES and word not in ordinary
            )
    longest = max((len(sequence) for sequence in own | other), default=0)
    firsts = frozenset(sequence[0] for sequence in own | other)
    forms = sorted(inside, key=len, reverse=True)
    pattern = Substrings(forms) if forms else None
    starts = "|".join(map(re.escape, sorted(letters, key=len, reverse=True)))
    prefix = re.compile(rf"(?:{starts})(?:$|[\d._-])") if letters else None
    return _Person(
        frozenset(own), frozenset(other - own), longest, firsts, pattern, tuple(sorted(glued)), prefix
    )


def _text_cells(frame: pl.DataFrame, skip: Container[str]) -> Iterator[tuple[str, int, str]]:
    """(column, row, text) of every non-null text, list elements included."""
    for column, dtype in frame.schema.items():
        if column in skip:
            continue
        if dtype == pl.String:
            for row, value in enumerate(frame.get_column(column).to_list()):
                if value is not None:
                    yield column, row, value
        elif dtype == pl.List(pl.String):
            for row, values in enumerate(frame.get_column(column).to_list()):
                for value in values or ():
                    if value is not None:
                        yield column, row, value


def verify(
    release: Mapping[str, pl.DataFrame],
    source: ProfileSet,
    rules: PrivacyRules,
    release_ids: Mapping[str, str],
    names: NameIndex = NameIndex(),
) -> Verification:
    """Search each person's released rows (`release_ids`: released profile_id -> source profile_id) for
    what must not survive; the persons hit are in `.suppressed`."""
    supervisors: dict[str, list[str]] = defaultdict(list)
    for profile_id, name in other_people(source.profiles, source.experience).iter_rows():
        supervisors[profile_id].append(name)
    own_names: dict[str, list[str]] = defaultdict(list)
    for profile_id, name in source.profiles.select("profile_id", "name").iter_rows():
        own_names[profile_id].extend([name] if name else [])
    handles: dict[str, set[str]] = defaultdict(set)
    for _, frame in source.tables():
        if "profile_id" not in frame.columns:
            continue
        owners = frame.get_column("profile_id").to_list()
        for _, row, text in _text_cells(frame, ("profile_id", "source")):
            if "@" in text:
                handles[owners[row]].update(contact_handles(text))
    ordinary = Lexicon(rules.allow_list, rules.common_words)
    people = {
        profile_id: _person(
            own_names.get(profile_id, ()),
            supervisors.get(profile_id, ()),
            ordinary,
            handles.get(profile_id, ()),
        )
        for profile_id in {*own_names, *supervisors, *handles}
    }
    result = Verification(persons_checked=len(own_names))
    for table, frame in release.items():
        ours = {c for c in frame.columns if rules.policy.column(table, c).action == "pseudonymize"}
        ours |= {column for labelled, column in LABEL_COLUMNS if labelled == table}
        owners = frame.get_column("profile_id").to_list()
        closed = _closed_vocabularies(table, frame.columns, rules)
        cells = [
            (column, row, _REPLACEMENT.sub(" ", text))
            for column, row, text in _text_cells(frame, ours)
            # a known country, language or badge: 'Jordan' is the country
            if column not in closed or fold(text) not in closed[column]
        ]
        shapes = suspicious_each([text for _, _, text in cells])
        for (column, row, text), shape in zip(cells, shapes, strict=True):
            person = release_ids.get(owners[row], "")
            reason = _search(text, people.get(person), names, ordinary, rules.allow_list, shape)
            if reason is not None:
                result.hits[(table, column, reason)] += 1
                result.suppressed.setdefault(person, _reason_of(reason))
    return result


def _closed_vocabularies(
    table: str, columns: Iterable[str], rules: PrivacyRules
) -> dict[str, frozenset[str]]:
    """Column -> the terms of its `known` shape, for the kept columns that have one."""
    closed = {}
    for column in columns:
        if column == "profile_id" or column not in rules.policy.tables.get(table, {}):  # type: ignore[call-overload]
            continue
        policy = rules.policy.column(table, column)
        if policy.shape is not None and rules.policy.shapes[policy.shape].known:
            closed[column] = rules.shape_terms[policy.shape]
    return closed


def _search(
    text: str,
    person: _Person | None,
    names: NameIndex,
    ordinary: Container[str],
    allowed: Container[str],
    shape: str | None,
) -> str | None:
    """The reason to suppress the owner of `text` (replacements already blanked), or None: their own
    identifier, anyone's whole name, or `shape`, the contact shape the text holds (`suspicious`)."""
    folded = fold(text)
    words = _WORDS.findall(folded)
    # A cell that is exactly a technical term ('ruby' as a skill of Ruby's) is the term, not the name.
    person = None if folded in allowed else person
    hit = person.hit(words) or person.hit_inside(folded, ordinary) if person is not None else None
    if hit is not None:
        return hit.value
    if names.found_in(words):
        return SuppressReason.KNOWN_NAME.value
    return shape


def _reason_of(kind: str) -> SuppressReason:
    return SuppressReason(kind) if kind in SuppressReason.__members__.values() else SuppressReason.CONTACT

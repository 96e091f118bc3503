"""Verify a release before it is written: nothing that identifies a person may survive.

Two searches over every text cell of every released table (lists included; pseudonymized columns are
skipped: their values are this toolkit's own keyed hashes, hex that can look like anything):
1. every direct identifier the parser found in the source: each profile's name, its parts and
   "Last, First", and supervisors' names, compared folded (case, accents, white space) on word boundaries;
2. a re-scan with the contact recognizers of `rules/recognizers.yaml` (e-mails, phones, URLs, handles,
   IPs, card numbers, IBANs).
Any hit blocks the release. Hits are counted per table, column and kind; values are never reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import polars as pl
import regex

from toolkit.detectors import detectors, find
from toolkit.model import ProfileSet
from toolkit.rules import PrivacyRules
from toolkit.scrub.identifiers import PARTICLES
from toolkit.text import fold

CONTACT_ENTITIES = (
    "EMAIL_ADDRESS",
    "PHONE_NUMBER",
    "URL",
    "HANDLE",
    "IP_ADDRESS",
    "CREDIT_CARD",
    "IBAN_CODE",
)
_WORDS = regex.compile(r"[\p{L}\p{N}]+")
_TITLES = {"dr", "prof", "mr", "mrs", "ms", "mx"}


@dataclass(frozen=True)
class Verification:
    identifiers_checked: int
    hits: Counter[tuple[str, str, str]]
    """(table, column, kind) -> distinct values hit; kind is "identifier" or a contact entity type."""

    @property
    def passed(self) -> bool:
        return not self.hits

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "identifiers_checked": self.identifiers_checked,
            "contact_patterns": list(CONTACT_ENTITIES),
            "hits": [
                {"table": table, "column": column, "kind": kind, "values": values}
                for (table, column, kind), values in sorted(self.hits.items())
            ],
        }


def direct_identifiers(source: ProfileSet, allow_list: frozenset[str]) -> set[tuple[str, ...]]:
    """Folded word sequences that must not appear in a release: whole names, and name parts that are
    not ordinary words of the domain (a person called Julia Rust keeps 'Julia' and 'Rust' searchable only
    as the whole name)."""
    identifiers: set[tuple[str, ...]] = set()
    names = [
        *source.profiles.get_column("name").drop_nulls(),
        *source.experience.get_column("supervisor").drop_nulls(),
    ]
    for name in names:
        words = [word for word in _WORDS.findall(fold(name)) if word not in _TITLES]
        if not words:
            continue
        identifiers.add(tuple(words))
        for word in words:
            if len(word) >= 2 and word not in PARTICLES and word not in allow_list:
                identifiers.add((word,))
    return identifiers


def _text_cells(frame: pl.DataFrame) -> Iterator[tuple[str, str]]:
    for column, dtype in frame.schema.items():
        if dtype == pl.String:
            values: Iterable[Any] = frame.get_column(column).drop_nulls().unique()
        elif dtype == pl.List(pl.String):
            values = frame.get_column(column).explode().drop_nulls().unique()
        else:
            continue
        for value in values:
            yield column, value


def verify(release: dict[str, pl.DataFrame], source: ProfileSet, rules: PrivacyRules) -> Verification:
    """Search the release for the source's direct identifiers and for contact data."""
    identifiers = direct_identifiers(source, rules.allow_list)
    longest = max((len(words) for words in identifiers), default=0)
    contact = detectors(rules.recognizers, CONTACT_ENTITIES)
    hits: Counter[tuple[str, str, str]] = Counter()
    for table, frame in release.items():
        ours = [c for c in frame.columns if rules.policy.column(table, c).action == "pseudonymize"]
        for column, text in _text_cells(frame.drop(ours)):
            words = _WORDS.findall(fold(text))
            if any(
                tuple(words[start : start + size]) in identifiers
                for size in range(1, longest + 1)
                for start in range(len(words) - size + 1)
            ):
                hits[(table, column, "identifier")] += 1
            for entity, _, _ in find(contact, text):
                hits[(table, column, entity)] += 1
                break
    return Verification(len(identifiers), hits)

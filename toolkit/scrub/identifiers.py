"""What is known about the people and contacts of one record, and how to find them again in its text.

A record (a profile, or a row of an unknown table) collects identifiers: the person's own name with its
variants (first name alone, "Last, First", accents dropped, the handle-like forms "mariamata" and
"maria.mata"), other people's names, e-mails and their local parts, handles, sites. Each variant maps to
an identity, so every mention of one person or value gets one token. `pattern()` finds every variant in any
case, on word boundaries; the possessive "'s" is left outside the match.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import regex

from toolkit.text import fold

PARTICLES = frozenset(
    ["van", "von", "der", "den", "de", "da", "das", "do", "dos", "di", "del", "della", "la", "le", "du",
     "ter", "ten", "bin", "ibn", "al", "el", "y", "e", "zu", "af"]
)  # fmt: skip
_TITLES = regex.compile(r"^(?:(?:dr|prof|mr|mrs|ms|mx)\.?\s+)+", regex.IGNORECASE)
_MIN_TOKEN = 2
_MIN_DERIVED = 5
_BOUNDARY_BEFORE = r"(?<![\p{L}\p{N}])"
_BOUNDARY_AFTER = r"(?![\p{L}\p{N}])"


def strip_accents(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


@dataclass(frozen=True, slots=True)
class Identity:
    entity: str
    key: str
    """The folded canonical value the token is computed from."""


@dataclass
class RecordIdentifiers:
    """Variant (folded) -> identity, for one record."""

    allow_list: frozenset[str]
    variants: dict[str, Identity] = field(default_factory=dict)
    surfaces: set[str] = field(default_factory=set)
    """The variants as written (with and without accents), found in any case."""
    exact_surfaces: set[str] = field(default_factory=set)
    """Variants found only as written: single words of other people's names ("Rosa", not "rosa")."""

    def _add(self, variant: str, identity: Identity, force: bool = False, exact_case: bool = False) -> None:
        folded = fold(variant)
        if len(folded) < _MIN_TOKEN or (not force and folded in self.allow_list):
            return
        self.variants.setdefault(folded, identity)
        forms = (" ".join(variant.split()), " ".join(strip_accents(variant).split()))
        (self.exact_surfaces if exact_case else self.surfaces).update(forms)

    def add_own_name(self, name: str) -> None:
        """The record's own person: every variant, even one that is also a technical word."""
        clean = _TITLES.sub("", name).strip()
        if not clean:
            return
        identity = Identity("PERSON", fold(clean))
        words = clean.split()
        names = [word for word in words if word.lower() not in PARTICLES]
        for variant in (clean, *names):
            self._add(variant, identity, force=True)
        if len(names) >= 2:
            first, last = names[0], names[-1]
            surname = " ".join(words[words.index(first) + 1 :])
            self._add(f"{surname}, {first}", identity, force=True)
            for a, b in ((first, last), (first, surname.replace(" ", "")), (first[0], last)):
                for joiner in ("", ".", "_", "-"):
                    derived = strip_accents(f"{a}{joiner}{b}")
                    if len(derived) >= _MIN_DERIVED:
                        self._add(derived, identity, force=True)

    def add_other_person(self, name: str, any_case: bool = False) -> None:
        """Someone named in the record: the whole name, and its capitalised words (as written, unless
        `any_case`: a name read from an e-mail address, 'ada.byron@…', is the address owner's)."""
        clean = _TITLES.sub("", name).strip()
        if not clean or fold(clean) in self.allow_list:
            return
        identity = Identity("PERSON", fold(clean))
        self._add(clean, identity)
        for word in clean.split():
            if word[:1].isupper() and word.lower() not in PARTICLES and len(word) > _MIN_TOKEN:
                self._add(word, identity, exact_case=not any_case)

    def add_found(self, entity: str, text: str) -> None:
        """A value a recognizer found in the record; contacts bring their recognisable parts along."""
        if entity == "PERSON":
            self.add_other_person(text)
            return
        identity = Identity(entity, fold(text))
        self._add(text, identity, force=True)
        if entity == "EMAIL_ADDRESS":
            local = text.partition("@")[0]
            if len(local) >= 4:
                self._add(local, identity, force=True)
            parts = regex.split(r"[._-]", local)
            if 2 <= len(parts) <= 3 and all(part.isalpha() and len(part) >= 2 for part in parts):
                self.add_other_person(" ".join(part.capitalize() for part in parts), any_case=True)
        elif entity == "HANDLE":
            handle = text.rstrip("/").split("/")[1 if "/" in text else 0].lstrip("@")
            if len(handle) >= 3:
                self._add(handle, Identity("HANDLE", fold(handle)))
                self._add(f"@{handle}", Identity("HANDLE", fold(handle)), force=True)
        elif entity == "URL":
            host = urlsplit(text if "//" in text else f"//{text}").hostname or ""
            host = host.removeprefix("www.")
            if len(host) >= 6 and fold(host) not in self.allow_list:
                self._add(host, identity, force=True)

    def pattern(self) -> regex.Pattern[str] | None:
        """One pattern for every variant, longest first (any case, or as written for single words of
        other people's names); None when there are none."""
        if not self.surfaces and not self.exact_surfaces:
            return None
        any_case = _alternatives(self.surfaces)
        exact = _alternatives(self.exact_surfaces - self.surfaces)
        body = "|".join(part for part in (f"(?i:{any_case})" if any_case else "", exact) if part)
        return regex.compile(f"{_BOUNDARY_BEFORE}(?:{body}){_BOUNDARY_AFTER}")

    def identity_of(self, matched: str) -> Identity | None:
        return self.variants.get(fold(matched))

    def all_folded(self) -> Iterable[str]:
        return self.variants.keys()


def _alternatives(surfaces: set[str]) -> str:
    ordered = sorted(surfaces, key=lambda variant: (-len(variant), variant))
    return "|".join(r"\s+".join(regex.escape(part) for part in variant.split(" ")) for variant in ordered)

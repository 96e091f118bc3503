"""What is known about the people and contacts of one record, and how to find them again in its text.

A record (a profile, or a row of an unknown table) collects identifiers: the person's own name with its
variants (first name alone, "Last, First", the handle-like forms "mariamata" and "maria.mata"), other
people's names, e-mails and their local parts, handles, sites, and the names that contacts spell out
("ada.byron@…", "github.com/ada-byron"). Each variant maps to an identity, so every mention of one person
or value gets one token. `find()` finds every variant with or without accents ("Stanislaw" finds
"Stanisław"), on word boundaries; the possessive "'s" is left outside the match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import regex

from toolkit.names import (
    HONORIFIC_SUFFIX,
    MIN_SKELETON,
    PARTICLES,
    TITLES,
    Substrings,
    alike,
    compact,
    glued_script,
    handle_forms,
    initials,
    readings,
    skeleton,
    sounds,
    unleet,
)
from toolkit.text import Words, fold, fold_char, strip_accents

_TITLES = TITLES
_CONTACT_PARTS = regex.compile(r"[._\-+]+|\d+")
_CAPITALISED_RUN = regex.compile(
    r"(?<![\p{L}\p{N}])\p{Lu}[\p{L}'\u2019-]+(?:[^\S\n\r]+\p{Lu}\.?(?=[^\S\n\r]))?"
    r"(?:[^\S\n\r]+\p{Lu}[\p{L}'\u2019-]+){1,2}"
)
"""Two or three capitalised words on one line, an initial among them ('Leigha C. Mackay')."""
_MIN_TOKEN = 2
_MIN_DERIVED = 5
_MIN_INSIDE_PART = 4
_MIN_INITIALS = 3
_MIN_CLIPPED_WORD = 6
"""A name word is clipped ('karthi' of 'Karthikeyan') only when it has this many letters or more."""
_CLIPPED_TOKEN = regex.compile(r"(\p{L}+)(\p{N}*)")
_GLUED = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"
_WORD = regex.compile(rf"[^\W_{_GLUED}]+|[{_GLUED}]+")
"""Words; a change from a script without spaces to another is a word boundary ('とChoi')."""
_TOKEN = regex.compile(
    rf"[^\s<>()\[\]{{}}\"'\u2019`,;:!?|*\u3000-\u303f\uff01-\uff0f{_GLUED}]+(?:['\u2019]s)?(?<![.\-_/])"
)
_NOT_ALNUM = regex.compile(r"[^\p{L}\p{N}]+")
_POSSESSIVE = regex.compile(r"['\u2019]s$")


@dataclass(frozen=True)
class WordIndex:
    sequences: dict[tuple[str, ...], tuple[Identity, bool]]
    """Folded words of a variant -> (identity, found in any case)."""
    longest: int
    firsts: frozenset[str]
    """The first word of every variant: a word not in it starts no match."""
    inside: Substrings | None = None
    """Compact forms found inside longer tokens ('mnowak' in 'mnowak88', 'nowak' in 'nowakdev.pl')."""
    glued: re.Pattern[str] | None = None
    """Names in scripts without spaces, found anywhere in the folded text ('王芳' in '我叫王芳。')."""
    initials: re.Pattern[str] | None = None


def fold_with_offsets(text: str) -> tuple[str, list[int] | None]:
    """`text` folded character by character (accents dropped, case folded, white space kept as it is),
    and for each folded character the index of the original character it came from; None when every
    character folded to exactly one (the usual case: offsets are then the same)."""
    if text.isascii():
        return text.lower(), None
    pieces = list(map(fold_char, text))
    folded = "".join(pieces)
    if len(folded) == len(text) and "" not in pieces:
        return folded, None
    origin = [index for index, piece in enumerate(pieces) for _ in piece]
    return folded, origin


@dataclass(frozen=True, slots=True)
class Identity:
    entity: str
    key: str
    """The folded canonical value the token is computed from."""


@dataclass
class RecordIdentifiers:
    """Variant (folded) -> identity, for one record."""

    allow_list: Words
    everyday: Words = frozenset()
    """Everyday words: a two-letter word of another person's name is propagated only when it is not one
    and not plain ASCII ('Vũ' is, 'An' and 'Li' are not: too many false hits)."""
    shared_allow_list: Words | None = None
    """The rules' allow-list alone, without the record's own vocabulary: a token holding the person's
    name is found even where the record lists it as a skill ('tkaminski-dev')."""
    english: Words = frozenset()
    """English words: a word of another person's name that is not one is found in any case ('byron' of
    Ada Byron); one that is ('Will', 'Page') only Capitalised."""
    variants: dict[str, Identity] = field(default_factory=dict)
    any_case: set[str] = field(default_factory=set)
    """Folded variants found in any case."""
    capitalised: set[str] = field(default_factory=set)
    """Folded single words of other people's names, found only Capitalised or in CAPITALS ('Rosa', 'ROSA')."""
    contacts: set[str] = field(default_factory=set)
    """E-mail local parts, handles and site names, letters only: 'ikeoluwailupeju', 'iilupeju'."""
    inside: dict[str, Identity] = field(default_factory=dict)
    """Compact forms (see `toolkit.names.handle_forms`) searched for inside tokens -> their person."""
    glued: dict[str, Identity] = field(default_factory=dict)
    """Folded names in scripts without spaces -> their person."""
    initials: dict[str, Identity] = field(default_factory=dict)
    """The initials of a name of three words or more -> their person, found as a whole token or before a
    digit or separator ('mlhv87', 'mlhv-lab')."""
    clipped: dict[str, Identity] = field(default_factory=dict)
    """The own name's long words clipped to four letters or more ('karthi' of Karthikeyan, 'wulan' of
    Wulandari), and the two initials of a two-word name ('rv'): found only as a whole token, digits after
    it allowed ('Karthi', 'wulan92'; the initials only with two to four digits: 'rv1991'), never when the
    token is an English or ordinary word ('maxim' of Maximilian is no one)."""
    sounds: dict[str, Identity] = field(default_factory=dict)
    """Consonant skeletons of the own name's long words -> the person: another transliteration of the
    name ('Zhuravlev' for 'Zhuravlyov'), alone or as a part of a handle ('alexey-zhuravlev')."""

    def _add(self, variant: str, identity: Identity, force: bool = False, capitalised: bool = False) -> None:
        folded = fold(variant)
        if len(folded) < _MIN_TOKEN or (not force and folded in self.allow_list):
            return
        self.variants.setdefault(folded, identity)
        (self.capitalised if capitalised else self.any_case).add(folded)

    def add_own_name(self, written: str) -> None:
        """The record's own person, from the name as written ('NOWAK, Marta', 'Wang Fang (王芳)'): every
        variant, even one that is also a technical word; the handle forms made of it, and its parts of four
        letters or more that are not ordinary words, inside longer tokens ('mnowak88', 'nowakdev.pl')."""
        identity: Identity | None = None
        for clean in readings(written):
            identity = identity or Identity("PERSON", fold(clean))
            self._add_reading(clean, identity)

    def _add_reading(self, clean: str, identity: Identity) -> None:
        if glued_script(clean):
            self.glued.setdefault(fold(clean).replace(" ", ""), identity)
        words = clean.split()
        names = [word for word in words if word.lower() not in PARTICLES]
        for variant in (clean, *names, *_particle_surname(words)):
            self._add(variant, identity, force=True)
        for part in (piece for word in names for piece in word.split("-")):
            folded = compact(part)
            if len(folded) >= _MIN_INSIDE_PART and not self._ordinary(folded):
                self.inside.setdefault(folded, identity)
        for form in handle_forms(clean):
            self.inside.setdefault(form, identity)
        if (letters := initials(clean)) is not None:
            self.initials.setdefault(letters, identity)
        for sound in sounds(clean):
            self.sounds.setdefault(sound, identity)
        for word in names:
            long_word = compact(word)
            for size in range(_MIN_INSIDE_PART, len(long_word) if len(long_word) >= _MIN_CLIPPED_WORD else 0):
                self.clipped.setdefault(long_word[:size], identity)
        if len(names) == 2 and not glued_script(clean):
            self.clipped.setdefault(compact(names[0])[:1] + compact(names[1])[:1], identity)
        if len(names) >= 2:
            first, last = names[0], names[-1]
            surname = " ".join(words[words.index(first) + 1 :])
            self._add(f"{surname}, {first}", identity, force=True)
            for a, b in ((first, last), (first, surname.replace(" ", "")), (first[0], last)):
                for joiner in ("", ".", "_", "-"):
                    derived = strip_accents(f"{a}{joiner}{b}")
                    if len(derived) >= _MIN_DERIVED:
                        self._add(derived, identity, force=True)

    def _ordinary(self, folded: str) -> bool:
        allowed = self.allow_list if self.shared_allow_list is None else self.shared_allow_list
        return folded in allowed or folded in self.everyday

    def add_other_person(self, name: str, any_case: bool = False) -> None:
        """Someone named in the record: the whole name in any case, and its words when capitalised (in any
        case when `any_case`: a name spelled out by a contact, 'ada.byron@…', is its owner's). A name
        ending in an honorific is also added without it ('Kobayashi' of 'Kobayashi-sensei'; the honorific
        may be a name too, as in 'Jackie Chan')."""
        clean = _TITLES.sub("", name).strip()
        bare = HONORIFIC_SUFFIX.sub("", clean)
        if bare and bare != clean:
            self.add_other_person(bare, any_case)
        if not clean or fold(clean) in self.allow_list:
            return
        identity = Identity("PERSON", fold(clean))
        self._add(clean, identity)
        if glued_script(clean) and len(compact(clean)) >= 2:
            self.glued.setdefault(fold(clean).replace(" ", ""), identity)
        for form in handle_forms(clean):
            self.inside.setdefault(form, identity)
        words = clean.split()
        for surname in _particle_surname(words):
            self._add(surname, identity)
        # A name found written in lower case ('co-authored with pooja iyer') brings its words that are no
        # English or ordinary word along, in any case ('pooja' alone elsewhere in the record).
        lowercase = clean.islower()
        for word in words:
            folded = fold(word)
            short = len(word) <= _MIN_TOKEN and (word.isascii() or folded in self.everyday)
            if (word[:1].isupper() or any_case or lowercase) and word.lower() not in PARTICLES and not short:
                ordinary = not self.english or folded in self.english or self._ordinary(folded)
                weak = ordinary or len(folded) < 4
                if lowercase and not any_case and weak:
                    continue
                self._add(word, identity, capitalised=not any_case and not lowercase and weak)

    def add_found(self, entity: str, text: str) -> None:
        """A value a recognizer found in the record; contacts bring their recognisable parts along."""
        if entity == "PERSON":
            self.add_other_person(text)
            return
        identity = Identity(entity, fold(text))
        self._add(text, identity, force=True)
        if entity in ("EMAIL_ADDRESS", "HANDLE", "URL"):
            label = _letters(_contact_name(entity, text))
            self.contacts.add(label)
            if len(label) >= _MIN_DERIVED and not self._ordinary(label):
                self.inside.setdefault(label, identity)  # 'amaowusu' of amaowusu.dev in 'amaowusu-site'

        if entity == "EMAIL_ADDRESS":
            local = text.partition("@")[0]
            if len(local) >= 4:
                self._add(local, identity, force=True)
            self._add_spelled_name(local)
        elif entity == "HANDLE":
            handle = text.rstrip("/").split("/")[1 if "/" in text else 0].lstrip("@")
            if len(handle) >= 3:
                self._add(handle, Identity("HANDLE", fold(handle)))
                self._add(f"@{handle}", Identity("HANDLE", fold(handle)), force=True)
            self._add_spelled_name(handle)
        elif entity == "URL":
            host = _host(text)
            if len(host) >= 6 and fold(host) not in self.allow_list:
                self._add(host, identity, force=True)
                self._add_spelled_name(host.rsplit(".", 1)[0])

    def link_contact_names(self, texts: Iterable[str]) -> None:
        """Capitalised names in the texts that a contact spells out ('Ikeoluwa Ilupeju' for
        'ikeoluwailupeju@…' or 'gitlab.com/iilupeju') are the contact owner's name."""
        contacts = {contact for contact in self.contacts if len(contact) >= _MIN_DERIVED}
        if not contacts:
            return
        for text in texts:
            for match in _CAPITALISED_RUN.finditer(text):
                words = [_letters(word) for word in match.group().split()]
                first, last = words[0], words[-1]
                spellings = {"".join(words), first[:1] + last, last + first, first + last}
                if spellings & contacts:
                    self.add_other_person(match.group(), any_case=True)

    def _add_spelled_name(self, contact: str) -> None:
        """'ada.byron42', 'ada-byron' -> the person 'Ada Byron' (two or three alphabetic parts)."""
        parts = [part for part in _CONTACT_PARTS.split(contact) if part]
        spelled = 2 <= len(parts) <= 3 and all(part.isalpha() and len(part) >= 2 for part in parts)
        if spelled and not any(fold(part) in self.allow_list for part in parts):
            self.add_other_person(" ".join(part.capitalize() for part in parts), any_case=True)

    def index(self) -> WordIndex | None:
        """The variants as sequences of words, for `find`; None when there are none."""
        if not (self.variants or self.inside or self.glued or self.initials or self.sounds or self.clipped):
            return None
        sequences: dict[tuple[str, ...], tuple[Identity, bool]] = {}
        for variant, identity in self.variants.items():
            words = tuple(_WORD.findall(variant))
            held = sequences.get(words)
            # Words that a person's name and a contact both read ('Maria Gonzalez', 'maria.gonzalez@…')
            # are the name: a contact found as words is its owner's name, not the contact.
            if words and (held is None or (identity.entity == "PERSON" and held[0].entity != "PERSON")):
                sequences[words] = (identity, variant in self.any_case)
        longest = max((len(words) for words in sequences), default=0)
        return WordIndex(
            sequences, longest, frozenset(words[0] for words in sequences),
            Substrings(self.inside) if self.inside else None, _alternation(self.glued),
            _prefixes(self.initials),
        )  # fmt: skip

    def find(self, text: str, index: WordIndex | None) -> list[tuple[int, int, Identity]]:
        """Where the variants occur in `text` (with or without accents, in any case; single words of other
        people's names only when capitalised), as spans of the original text. Variants are compared word
        by word, so 'ada.byron' is found in 'Ada Byron' and in 'ada-byron' too."""
        if index is None:
            return []
        folded, origin = fold_with_offsets(text)
        matches = list(_WORD.finditer(folded))
        words = [match.group() for match in matches]
        found = []
        position = 0
        while position < len(words):
            if words[position] not in index.firsts:
                position += 1
                continue
            for size in range(min(index.longest, len(words) - position), 0, -1):
                known = index.sequences.get(tuple(words[position : position + size]))
                if known is None:
                    continue
                start, end = matches[position].start(), matches[position + size - 1].end()
                if origin is not None:
                    start, end = origin[start], origin[end - 1] + 1
                identity, any_case = known
                if any_case or text[start].isupper():
                    found.append((start, end, identity))
                    position += size - 1
                    break
            position += 1
        if index.inside is not None or index.initials is not None or self.sounds or self.clipped:
            found += self._found_inside(text, folded, origin, index)
        if index.glued is not None:
            for match in index.glued.finditer(folded):
                start, end = match.span()
                if origin is not None:
                    start, end = origin[start], origin[end - 1] + 1
                found.append((start, end, self.glued[match.group()]))
        return found

    def _found_inside(
        self, text: str, folded: str, origin: list[int] | None, index: WordIndex
    ) -> list[tuple[int, int, Identity]]:
        """Whole tokens (runs without spaces or brackets) holding a compact form: 'mnowak88',
        'nowakdev.pl', 'M.Nowak', or starting with the initials of a long name ('mlhv87'); not a token
        that is an ordinary word ('kernel' for 'Kern') or made of ordinary words ('programming_language'
        for 'Lang')."""
        found = []
        for token in _TOKEN.finditer(folded):
            written = _POSSESSIVE.sub("", token.group())
            squeezed = _NOT_ALNUM.sub("", written)
            if len(squeezed) < _MIN_INITIALS or self._ordinary(squeezed) or self._ordinary(written):
                continue
            if all(self._ordinary(part) for part in _NOT_ALNUM.split(written) if part):
                continue
            form = None
            if index.inside is not None:
                for reading in (squeezed, *sorted(unleet(squeezed))):  # 's0lv31g' is 'solveig'
                    if (form := index.inside.search(reading)) is not None:
                        break
            long_enough = form is not None and len(squeezed) >= _MIN_INSIDE_PART
            person = self.inside[form] if form is not None and long_enough else None
            if person is None and index.initials is not None and (lead := index.initials.match(written)):
                person = self.initials[lead.group(1)]
            if person is None and self.sounds:
                person = self._sounds_like(written)
            if person is None and self.clipped:
                person = self._clipped(squeezed)
            if person is None:
                continue
            start, end = token.start(), token.start() + len(written)
            if origin is not None:
                start, end = origin[start], origin[end - 1] + 1
            exact = form is not None and squeezed == form
            found.append((start, end, person if exact else Identity("HANDLE", squeezed)))
        return found

    def _clipped(self, squeezed: str) -> Identity | None:
        """The person whose clipped name word or initials the whole token is ('karthi', 'rv1991')."""
        shape = _CLIPPED_TOKEN.fullmatch(squeezed)
        if shape is None:
            return None
        letters, digits = shape.groups()
        if len(letters) < _MIN_INSIDE_PART and not 2 <= len(digits) <= 4:
            return None
        if letters in self.english or self._ordinary(letters):
            return None
        return self.clipped.get(letters)

    def _sounds_like(self, token: str) -> Identity | None:
        """The person whose name a part of the token transliterates ('zhuravlev' for 'Zhuravlyov')."""
        for part in _NOT_ALNUM.split(token):
            if len(part) < MIN_SKELETON or self._ordinary(part):
                continue
            sound = skeleton(part)
            if len(sound) < MIN_SKELETON - 1:
                continue
            for known, person in self.sounds.items():
                if alike(sound, known):
                    return person
        return None

    def identity_of(self, matched: str) -> Identity | None:
        return self.variants.get(fold(matched))

    def all_folded(self) -> Iterable[str]:
        return self.variants.keys()


def _prefixes(forms: dict[str, Identity]) -> re.Pattern[str] | None:
    """One pattern matching a token that is one of the forms, or starts with one before a digit or a
    separator; group 1 is the form."""
    if not forms:
        return None
    alternatives = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.compile(rf"({alternatives})(?:$|[\d._-])")


def _host(url: str) -> str:
    """The host of a URL found in text, without 'www.'; '' for one `urlsplit` cannot read (an unclosed
    bracket of an IPv6 host)."""
    try:
        host = urlsplit(url if "//" in url else f"//{url}").hostname or ""
    except ValueError:
        return ""
    return host.removeprefix("www.")


def _alternation(forms: dict[str, Identity]) -> re.Pattern[str] | None:
    """One pattern finding any of the forms, the longest first (the standard library's `re`: a record's
    pattern is compiled once per batch, and `re` compiles literal alternations many times faster)."""
    if not forms:
        return None
    return re.compile("|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True)))


def _particle_surname(words: list[str]) -> list[str]:
    """The surname with its particles, so none is left beside a token: 'van den Hoek' of 'Alexander van
    den Hoek', 'da Mata' of 'Maria Júlia da Mata'; none for a name without particles."""
    for index in range(1, len(words) - 1):
        if words[index].lower() in PARTICLES:
            return [" ".join(words[index:])]
    return []


def _letters(text: str) -> str:
    return "".join(char for char in fold(text) if char.isalpha())


def _contact_name(entity: str, text: str) -> str:
    """The part of a contact that may spell a name: an address's local part, a handle, a site's name."""
    if entity == "EMAIL_ADDRESS":
        return text.partition("@")[0]
    if entity == "HANDLE":
        return text.rstrip("/").split("/")[1 if "/" in text else 0].lstrip("@")
    host = _host(text)
    return host.split(".")[0]

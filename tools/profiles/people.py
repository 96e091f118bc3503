"""The people of the generated profiles: owners, colleagues, surnames for firms, and owners' contact details.

Two casts. `SeedCast` draws first and last names at random from the style's two short lists (the seed
pages' people: names repeat, nothing is kept unique). `FakerCast` draws from Faker's name lists for many
locales (Latin script only), read once from its data and drawn with the generator's own random stream.
It keeps the planted documents' guarantees for evaluations that match names on word boundaries:
- no name word is a word of the templates, a technical term, an award keyword or a reserved word;
- no word of an owner's name is a word of anyone else's name in the set;
- colleagues' names never share a word with any owner.
Those hold while Faker's lists last: each owner takes names no one has used, and after about 2,000
documents the unused names run out. From then on (`FakerCast.unique` turns False) names are drawn freely,
so a few owners share name words with other people; drawing never slows down or retries without end.
Surnames also name firms ("Okafor Partners", see `Style.namesake_share`): those words of one person's name
then appear as ordinary words in other profiles, listed in the profile's `namesake_employers`.
"""

from __future__ import annotations

import functools
import importlib
import random
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import phonenumbers

from tools.profiles.text import fold
from tools.profiles.vocabulary import (
    AWARDS,
    BADGES,
    FOOTER,
    MONTHS,
    PROGRAMMING_LANGUAGES,
    ROLES,
    Style,
    words,
)

PARTICLES = frozenset(
    words("van von der den de da das do dos di del della la le du des ten ter te zu bin al el y e")
)
NICK_ADJECTIVES = words("quiet amber rapid lunar tidal silent brave crimson misty polar sunny clever dusty")
NICK_NOUNS = words("fox otter heron lynx falcon maple cedar comet badger walrus finch moth pebble")
NICKNAME_SHARE = 0.3  # handles and e-mail local parts that say nothing of the person's name
EMAIL_DOMAINS = ("example.com", "example.org", "example.net", "mail.example.com")
PHONE_REGIONS = words("US GB DE BR FR NL PL IT ES TR VN JP IN PT")
# Words a scrubber or its report may write (placeholders, common English words); no name may be one of them.
RESERVED = words(
    "person location organization email address phone number url date time nrp redacted name a an and "
    "are as at be been but by can do for from has have he her his i if in is it its may me my no not of on "
    "or our per she so than that the their them then there these they this to up us was we were will with "
    "you your all any one two new old long job mark bill art page hope rose grant king love faith dean lane "
    "young rich june april august summer winter case count value values row rows column columns table "
    "tables rule rules report key keys hit hits kind note pass passed true false null none total min max "
    "mean release action actions"
)
FIXED_TEXT = (
    "years of coding experience employment as a software developer Github Skills Programming languages "
    "contributions Role in this project Contributions summary commits commit in month Experience Summary "
    "supervised by Dr Mr Ms Mrs Prof Present"
)
RULES = Path(__file__).resolve().parent.parent.parent / "rules"
_WORD = re.compile(r"[^\W\d_]+")
Words = Callable[[str], frozenset[str]]
_ASCII = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "\u0131": "i", "ß": "ss"})
_ASCII.update(str.maketrans({"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "ð": "d"}))


@dataclass(frozen=True)
class Person:
    first: str
    last: str

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@functools.cache
def _first_words(first: str) -> frozenset[str]:
    return frozenset(_WORD.findall(fold(first)))


@functools.cache
def _last_words(last: str) -> frozenset[str]:
    """The words that identify: all but the particles of a surname ("van", "der" of "van der Berg")."""
    found = _WORD.findall(fold(last))
    return frozenset([w for w in found[:-1] if w not in PARTICLES] + found[-1:])


def name_words(person: Person) -> frozenset[str]:
    """The folded words that identify a person (a surname's particles left out)."""
    return _first_words(person.first) | _last_words(person.last)


class SeedCast:
    """The seed pages' people: a first and a last name from the style's lists, nothing kept unique."""

    unique = False

    def __init__(self, rng: random.Random, style: Style) -> None:
        self.rng, self.style = rng, style

    def owner(self) -> Person:
        return Person(self.rng.choice(self.style.first_names), self.rng.choice(self.style.last_names))

    def other(self, owner: Person | None, taken: set[str], wants_particle: bool) -> Person:
        return self.owner()

    def surname(self, avoid: frozenset[str]) -> str | None:
        for _ in range(8):
            last = self.rng.choice(self.style.last_names)
            if not _last_words(last) & avoid:
                return last
        return None


class FakerCast:
    """People from Faker's name lists; owners' name words unique in the set while the lists last."""

    def __init__(self, rng: random.Random, style: Style) -> None:
        self.rng, self.style = rng, style
        self.pools = _faker_pools(style.locales, background_words(style))
        self.keys = [(locale, gender) for locale in style.locales for gender in ("male", "female")]
        self.particle_keys = [key for key in self.keys if key[0] in style.particle_locales]
        # Names no one has used yet, shuffled; popped from the end, skipped once a word of theirs is used.
        self.fresh: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        for key in self.keys:
            firsts, lasts, _ = self.pools[key]
            self.fresh[key] = (self._shuffled(firsts), self._shuffled(lasts))
        self.active = list(self.keys)
        self.unique = True
        self.owner_words: set[str] = set()
        self.all_words: set[str] = set()
        self.surnames: list[str] = []  # surnames of people drawn so far, once each, for namesake firms
        self._surname_set: set[str] = set()

    def _shuffled(self, names: tuple[str, ...]) -> list[str]:
        order = list(names)
        self.rng.shuffle(order)
        return order

    def _fresh(self, stack: list[str], words_of: Words) -> bool:
        while stack and words_of(stack[-1]) & self.all_words:
            stack.pop()
        return bool(stack)

    def owner(self) -> Person:
        while self.unique and self.active:
            index = self.rng.randrange(len(self.active))
            firsts, lasts = self.fresh[self.active[index]]
            if self._fresh(firsts, _first_words) and self._fresh(lasts, _last_words):
                person = Person(firsts.pop(), lasts.pop())
                self._remember(person, owner=True)
                return person
            self.active.pop(index)  # this locale's unused names of this gender are gone
        self.unique = False
        pool_firsts, pool_lasts, _ = self.pools[self.rng.choice(self.keys)]
        person = Person(self.rng.choice(pool_firsts), self.rng.choice(pool_lasts))
        self._remember(person, owner=True)
        return person

    def other(self, owner: Person | None, taken: set[str], wants_particle: bool) -> Person:
        """Someone else in `owner`'s document: a full name not in `taken`, sharing no word with any owner
        (while names are unique); with `wants_particle`, a surname with a particle ("van der Heyden")."""
        person = owner or Person("", "")
        for attempt in range(80):  # after 40, sharing a word with some owner is allowed
            key = self.rng.choice(self.particle_keys if wants_particle else self.keys)
            firsts, lasts, particle_lasts = self.pools[key]
            first = self.rng.choice(firsts)
            last = self.rng.choice(particle_lasts if wants_particle and particle_lasts else lasts)
            person = Person(first, last)
            if person.full in taken or (owner and person.full == owner.full):
                continue
            if not self.unique or attempt >= 40 or not name_words(person) & self.owner_words:
                break
        self._remember(person, owner=False)
        return person

    def _remember(self, person: Person, owner: bool) -> None:
        if self.unique:
            self.all_words.update(name_words(person))
            if owner:
                self.owner_words.update(name_words(person))
        if person.last not in self._surname_set:
            self._surname_set.add(person.last)
            self.surnames.append(person.last)

    def surname(self, avoid: frozenset[str]) -> str | None:
        """A surname someone in the set already has (or, at first, any from the lists), none of whose
        words is in `avoid`; None after a few tries."""
        for _ in range(8):
            if self.surnames:
                last = self.rng.choice(self.surnames)
            else:
                last = self.rng.choice(self.pools[self.rng.choice(self.keys)][1])
            if not _last_words(last) & avoid:
                return last
        return None


Cast = SeedCast | FakerCast


def cast_for(rng: random.Random, style: Style) -> Cast:
    return FakerCast(rng, style) if style.names == "faker" else SeedCast(rng, style)


@functools.cache
def _faker_pools(
    locales: tuple[str, ...], background: frozenset[str]
) -> dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    """(first names, last names, last names with a particle) per locale and gender, fit to be planted:
    Latin script, every word two letters or more, no word in `background`, no first name folding to a
    particle ("Lê" folds to the "le" of "Le Gall")."""
    pools = {}
    for locale in locales:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for gender in ("male", "female"):
            if locale == "ja_JP":
                firsts = getattr(provider, f"first_romanized_names_{gender}")
                lasts = provider.last_romanized_names
            else:
                firsts = getattr(provider, f"first_names_{gender}", provider.first_names)
                lasts = getattr(provider, f"last_names_{gender}", None)
                lasts = lasts or getattr(provider, "unisex_last_names", None) or provider.last_names
            first_ok = _fit(firsts, _first_words, background)
            last_ok = _fit(lasts, _last_words, background)
            with_particle = tuple(n for n in last_ok if PARTICLES & set(fold(n).split()))
            pools[locale, gender] = (first_ok, last_ok, with_particle)
    return pools


def _fit(names: Iterable[str], words_of: Words, background: frozenset[str]) -> tuple[str, ...]:
    """The names fit to plant, once each. A particle among a name's identifying words ("Vân" and "Lê" fold
    to the particles of "van Dijk" and "Le Gall"; a surname ending in one) rules the name out."""
    kept: dict[str, None] = {}
    for raw in names:
        name = unicodedata.normalize("NFC", str(raw))
        found = words_of(name)
        if not found or not _latin(name) or PARTICLES & found:
            continue
        if not any(len(w) < 2 or w in background for w in found):
            kept[name] = None
    return tuple(kept)


def _latin(text: str) -> bool:
    return all(not ch.isalpha() or "LATIN" in unicodedata.name(ch, "") for ch in text)


@functools.cache
def background_words(style: Style) -> frozenset[str]:
    """Every word the style's templates and vocabularies can write, and reserved words: names avoid them."""
    texts: list[str] = [*RESERVED, FIXED_TEXT, FOOTER, *MONTHS, *ROLES, *PROGRAMMING_LANGUAGES]
    for value in vars(style).values():
        if isinstance(value, tuple):
            texts += _strings(value)
    texts += [label for _, label in BADGES] + [text for pair in AWARDS for text in pair if text]
    texts += [*NICK_ADJECTIVES, *NICK_NOUNS, *EMAIL_DOMAINS]
    texts += vocabulary_file("technical_terms") + vocabulary_file("spoken_languages")
    texts += _parsing_rules("award_keywords") + _parsing_rules("badges")
    texts = [text.replace("{S}", " ") for text in texts]
    return frozenset(fold(word) for text in texts for word in _WORD.findall(fold(text)))


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [text for item in value for text in _strings(item)]
    return []


def vocabulary_file(name: str) -> list[str]:
    import yaml

    path = RULES / "vocabularies" / f"{name}.yaml"
    if not path.is_file():
        return []
    terms = yaml.safe_load(path.read_text(encoding="utf-8")).get("terms", [])
    return [str(term) for term in terms]


def _parsing_rules(key: str) -> list[str]:
    import yaml

    path = RULES / "parsing.yaml"
    if not path.is_file():
        return []
    return [str(item) for item in yaml.safe_load(path.read_text(encoding="utf-8")).get(key, [])]


def _ascii(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII))
    return "".join(ch for ch in decomposed if ch.isascii() and ch.isalnum()).lower()


def _nickname(rng: random.Random) -> str:
    """A handle that says nothing of the name ("quietotter42"), as many developers' handles are."""
    adjective, noun = rng.choice(NICK_ADJECTIVES), rng.choice(NICK_NOUNS)
    return rng.choice((f"{adjective}{noun}{rng.randint(1, 99)}", f"{adjective}-{noun}", f"{noun}{adjective}"))


def identity(rng: random.Random, person: Person, style: Style) -> dict[str, str]:
    """The owner's identifiers by template key: the name's forms, and with `style.contacts` an e-mail
    (mostly made from the name, about a third not), handle, profile URL, site, own repository, phone."""
    fields = {
        "full": person.full,
        "first": person.first,
        "last": person.last,
        "caps": person.full.upper(),
        "possessive": f"{person.first}'s",
    }
    if not style.contacts:
        return fields
    first, last = _ascii(person.first), _ascii(person.last)
    local = rng.choice((f"{first}.{last}", f"{first}{last}", f"{first[0]}{last}", f"{first}_{last}"))
    local = rng.choice((local, f"{local}{rng.randint(1, 99)}"))
    handle = rng.choice((f"{first}{last}", f"{first[0]}{last}", f"{first}-{last}", f"{last}{first[0]}"))
    handle = rng.choice((handle, f"{handle}{rng.randint(1, 99)}", f"{handle}-dev"))
    if rng.random() < NICKNAME_SHARE:
        handle = _nickname(rng)
    if rng.random() < NICKNAME_SHARE:
        local = _nickname(rng).replace("-", ".")
    host = rng.choice(("github.com", "github.com", "github.com", "gitlab.com"))
    site = rng.choice(
        (f"{handle}.dev", f"{first}{last}.me", f"{handle}.github.io", f"www.{first}-{last}.net")
    )
    fields.update(
        email=f"{local}@{rng.choice(EMAIL_DOMAINS)}",
        email_local=local,
        handle=handle,
        profile=f"{host}/{handle}",
        site=site,
        repo=f"{handle}/{rng.choice(style.own_repositories)}",
        phone=phone(rng),
    )
    return fields


@functools.cache
def _mobile(region: str) -> tuple[int, str, re.Pattern[str]]:
    """A region's country code, example mobile number and mobile number pattern."""
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    assert example is not None, region
    assert metadata is not None, region
    assert metadata.mobile is not None, region
    pattern = metadata.mobile.national_number_pattern
    assert example.country_code is not None, region
    assert pattern is not None, region
    return example.country_code, str(example.national_number), re.compile(pattern)


def phone(rng: random.Random) -> str:
    """A valid mobile number of a random country, written in one of several international styles."""
    code, national, pattern = _mobile(rng.choice(PHONE_REGIONS))
    digits = national
    keep = 3 if len(national) > 9 else 2
    free = len(national) - keep
    for _ in range(200):
        candidate = f"{national[:keep]}{rng.randrange(10**free):0{free}d}"
        if pattern.fullmatch(candidate):  # a mobile number's pattern: a valid number
            digits = candidate
            break
    number = phonenumbers.PhoneNumber(country_code=code, national_number=int(digits))
    international = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    country, _, rest = international.partition(" ")
    style = rng.randrange(5)
    if style == 0:
        return international
    if style == 1:
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    if style == 2:
        return "00" + international[1:]
    if style == 3:
        return f"({country}) {rest}"
    return f"{country}-{rest.replace(' ', '-')}"

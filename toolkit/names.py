"""Personal names as written in profiles, and the forms people make of them.

Shared by the scrubber and by verification (which search for them independently): `readings` turns a
header as written ('NOWAK, Marta', 'Marta Nowak, PhD', 'Wang Fang (王芳)') into the names it holds;
`handle_forms` gives the handle and slug forms people really use ('mnowak', 'martan', 'nowakm',
'pvdberg' for 'Peter van den Berg'); `glued_script` says whether a name is written in a script without
spaces between words (CJK, Thai), so it must be found as a substring.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

import regex
from anyascii import anyascii

from toolkit.memory import task_cache
from toolkit.text import fold

PARTICLES = frozenset(
    ["van", "von", "der", "den", "de", "da", "das", "do", "dos", "di", "del", "della", "la", "le", "du",
     "des", "ter", "ten", "het", "die", "bin", "ibn", "al", "el", "y", "e", "zu", "af", "ap", "ab", "bint",
     "binti"]
)  # fmt: skip
TITLES = regex.compile(
    r"^(?:(?:dr|prof|mr|mrs|ms|mx|sir|dame|lord|lady|rev|revd|fr|major|maj|captain|capt|colonel|col|general|gen"
    r"|lieutenant|lt|sergeant|sgt|commander|cdr|admiral|adm|hon|judge|justice|rabbi|imam|sheikh|herr|frau"
    r"|mme|mlle|sra|srta|dott|mgr)\.?\s+)+",
    regex.IGNORECASE,
)
"""Titles stripped from a stated name; not the prose cues of `rules/vocabularies/personal_titles.yaml`."""
HONORIFIC_SUFFIX = regex.compile(
    r"[-\u2011\s](?:san|sensei|sama|kun|chan|senpai|sempai|hakase|shi|dono|ssi|nim|ji|sahib|saab)$",
    regex.IGNORECASE,
)
"""An honorific written after a name ('Kobayashi-sensei', 'Park-ssi'); some are also names ('Jackie Chan')."""
POST_NOMINAL = regex.compile(
    r"(?:,?\s+(?:(?i:ph\.?\s?d|m\.?\s?sc|b\.?\s?sc|m\.?\s?eng|b\.?\s?eng|m\.?\s?a|b\.?\s?a|mba|md|dphil"
    r"|cfa|cpa|pmp|cissp|ceng|frsa|fhea|miet|mieee|fbcs|jr|sr|ii|iii|iv|esq)\.?"
    r"|(?=[\p{L}.]*\p{Lu}[\p{L}.]*\p{Lu})(?![\p{Lu}]{4,}\b)(?!(?:Mc|Mac|De|Di|Da|Le|La|Du|Van|Von|O)\p{Lu})"
    r"[\p{Lu}][\p{L}.]{1,5}))+$"
)
"""Letters after a name: the usual degrees and memberships, or a short word of two capitals or more that
is not a surname in capitals ('PhD', 'FRSA', 'CEng', 'MIET'; not 'NOWAK')."""
_BRACKETED = regex.compile(r"\s*[(\[\uff08]([^()\[\]\uff08\uff09]+)[)\]\uff09]\s*")
_GLUED_SCRIPTS = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}]"
)
_LETTERS = regex.compile(r"[^\p{L}\p{N}]+")
_UMLAUTS = regex.compile("[äöüÄÖÜ]")
_UMLAUT_SPELLING = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
MIN_HANDLE_FORM = 5
"""A handle form shorter than this ('mnow') would be found inside too many ordinary words."""
_CLIPPED = 4
_CLIPPED_PAIR = 7
"""Clipped given name + clipped surname of at least this many letters ('bernkowa'; not 'marnow')."""
_CLIPPED_SURNAME = 5
"""A surname clipped after the given name's initial keeps at least this many letters ('ntsikl')."""


def readings(written: str) -> list[str]:
    """The names a written name holds, each without titles or post-nominals: 'NOWAK, Marta' ->
    ['Marta Nowak'], 'Dr. Marta Nowak, PhD' -> ['Marta Nowak'], 'Wang Fang (王芳)' -> ['Wang Fang', '王芳'];
    a CJK name also gives its romanization ('王芳' -> ['王芳', 'Wang Fang'])."""
    names: list[str] = []
    for bracketed in _BRACKETED.findall(written):
        names += readings(bracketed)
    outside = _BRACKETED.sub(" ", written).strip()
    clean = POST_NOMINAL.sub("", TITLES.sub("", outside)).strip(" ,;")
    surname, comma, given = clean.partition(",")
    if comma and given.strip() and 1 <= len(surname.split()) <= 3 and 1 <= len(given.split()) <= 3:
        clean = f"{given.strip()} {surname.strip()}"
    if clean:
        names.insert(0, clean)
    for name in list(names):
        if _GLUED_SCRIPTS.search(name) and (romanized := _romanized(name)):
            names += [romanized]
        if _UMLAUTS.search(name):  # 'Brandstätter' is written 'Brandstaetter' where umlauts cannot be
            names += [name.translate(_UMLAUT_SPELLING)]
    return list(dict.fromkeys(name for name in names if name))


def _romanized(name: str) -> str | None:
    """'王芳' -> 'Wang Fang': the romanization anyascii gives, cut at its capitals ('WangFang')."""
    if not regex.search(r"[\p{Han}\p{Hangul}]", name):
        return None  # a Thai or Japanese kana romanization is too loose to be how the person writes it
    latin = anyascii(name)
    words = regex.findall(r"\p{Lu}[\p{Ll}']*", latin)
    return " ".join(words) if len(words) >= 2 else None


_DIGRAPHS = (("shch", "s"), ("sch", "s"), ("zh", "s"), ("sh", "s"), ("ch", "c"), ("cz", "c"), ("kh", "h"),
             ("ts", "c"), ("tz", "c"), ("ph", "f"), ("th", "t"), ("ck", "k"), ("dj", "j"))  # fmt: skip
_SOUNDS = str.maketrans({"w": "v", "z": "s", "x": "k", "q": "k", "j": "y", "g": "g"})
_SILENT = regex.compile(r"[aeiouyh]+")
_REPEATED = regex.compile(r"(.)\1+")
MIN_SKELETON = 5
"""Consonant skeletons shorter than this are too common to compare."""


@task_cache(maxsize=1 << 14)
def skeleton(word: str) -> str:
    """The consonants of a word as transliterations of one name share them: 'Zhuravlyov', 'Zhuravliov',
    'Zhuravlev' and the German 'Shurawljow' all give 'srvlv' (digraphs reduced, w/v, z/s and j/y merged,
    vowels and h dropped, repeats collapsed)."""
    letters = compact(word)
    for digraph, sound in _DIGRAPHS:
        letters = letters.replace(digraph, sound)
    consonants = _SILENT.sub("", letters.translate(_SOUNDS))
    return _REPEATED.sub(r"\1", consonants)


_NOT_LATIN_LETTER = regex.compile(r"[^\P{L}\p{Latin}]")


def sounds(name: str) -> set[str]:
    """Consonant skeletons of a name's long words (`MIN_SKELETON`), the name romanized first when it is
    written in another script ('אנה קולקרני' -> the skeletons of its romanization): compared with
    `alike`, they find the name's other transliterations."""
    latin = anyascii(name) if _NOT_LATIN_LETTER.search(name) else name
    words = (part for word in latin.split() for part in word.split("-"))
    return {sound for word in words if len(sound := skeleton(word)) >= MIN_SKELETON}


def alike(one: str, other: str) -> bool:
    """Two skeletons equal or one edit apart ('slmvc' and 'slvmvc')."""
    if one == other:
        return True
    if abs(len(one) - len(other)) > 1:
        return False
    if len(one) == len(other):
        return sum(a != b for a, b in zip(one, other, strict=True)) == 1
    shorter, longer = sorted((one, other), key=len)
    return any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


def initials(name: str) -> str | None:
    """The initials of a name of three words or more ('mlhv' of 'María Luisa Herrera Vidal'), which people
    use as a handle with digits or a suffix ('mlhv87', 'mlhv-lab'); None for a shorter name."""
    words = [word for word in fold(name).replace("-", " ").split() if word not in PARTICLES]
    if glued_script(name) or len(words) < 3:
        return None
    return "".join(compact(word)[:1] for word in words)


_LEET = (str.maketrans("01345789@$", "oieastbgas"), str.maketrans("01345789@$", "oleastbgas"))
"""Digits and signs as letters; '1' once as 'i' and once as 'l'."""


def unleet(token: str) -> set[str]:
    """The token with digits read as the letters they stand for in leetspeak ('s0lv31g' -> 'solveig',
    'a1ex' -> 'aiex' and 'alex'); empty when it has no digit or no letter."""
    if not any(char.isdigit() for char in token) or not any(char.isalpha() for char in token):
        return set()
    return {token.translate(table) for table in _LEET}


def glued_script(name: str) -> bool:
    """Whether the name is written in a script that puts no spaces between words."""
    return bool(_GLUED_SCRIPTS.search(name))


def compact(text: str) -> str:
    """Folded letters and digits only: 'Jean-Pierre D.' -> 'jeanpierred'."""
    return _LETTERS.sub("", fold(text))


@task_cache(maxsize=1 << 14)
def handle_forms(name: str) -> frozenset[str]:
    """The compact forms of handles, slugs and domains made of a name of two words or more: first+last,
    initial+last, first+initial, last+first, last+initial, the initials of a compound given name or of
    particles ('jpdubois' of 'Jean-Pierre Dubois', 'pvdberg' of 'Peter van den Berg'), first+middle
    initial+last, a word with the others' initials, clipped surnames. Separators and digits do not
    matter: forms are compared with the compact form of a token ('marta.nowak88' -> 'martanowak88').
    Forms shorter than `MIN_HANDLE_FORM` are left out."""
    words = [compact(word) for word in fold(name).split()]
    if glued_script(name) or len(words) < 2:
        return frozenset()
    names = [word for word in words if word and word not in PARTICLES]
    if len(names) < 2:
        return frozenset()
    given, last, middle = names[0], names[-1], names[1:-1]
    given_initials = "".join(part[0] for part in regex.split(r"[-']", fold(name).split()[0]) if part)
    particle_initials = "".join(word[0] for word in words[1:-1] if word in PARTICLES)
    forms = {given[0] + particle_initials + last, *(given + word[0] + last for word in middle),
             *(given[0] + word[0] + last for word in middle)}  # fmt: skip
    # 'Hernández Prado': either surname, or both; 'Owusu-Ansah': either part too.
    parts = [compact(part) for word in fold(name).split()[1:] for part in word.split("-") if "-" in word]
    for surname in {*names[1:], "".join(words[1:]), *(part for part in parts if len(part) >= 2)}:
        forms |= {given + surname, given[0] + surname, given_initials + surname, given + surname[0],
                  surname + given, surname + given[0]}  # fmt: skip
    # Clipped surnames ('villacarde', 'i.villacarde' of 'Inés Villalobos Cárdenas'): the first four letters
    # or more of each of two surnames, with or without the given name's initial.
    surnames = [word for word in names[1:] if len(word) >= _CLIPPED]
    for first, second in pairwise(surnames):
        for one in range(_CLIPPED, len(first) + 1):
            for two in range(_CLIPPED, len(second) + 1):
                forms |= {first[:one] + second[:two], given[0] + first[:one] + second[:two]}
    # Clipped given name and surname ('bernkowa' of 'Bernadette Kowalczyk'), and names written backwards.
    for one in range(3, min(len(given), 5) + 1):
        for two in range(3, min(len(last), 5) + 1):
            if one + two >= _CLIPPED_PAIR:
                forms.add(given[:one] + last[:two])
    forms |= {word[::-1] for word in names if len(word) >= MIN_HANDLE_FORM} | {(given + last)[::-1]}
    # A name word with the initials of the others ('huyvq' of 'Vũ Quang Huy', whose given name comes
    # last), the initials of every word, particles too ('mjgdlf' of 'María José Gutiérrez de la Fuente'),
    # and the given name's initial with the surname clipped ('ntsikla' of 'Nino Tsiklauri').
    for at, word in enumerate(names):
        forms.add(word + "".join(other[0] for other in names[:at] + names[at + 1 :]))
    if len(words) >= 3:
        forms.add("".join(word[0] for word in words if word))
    forms |= {given[0] + last[:size] for size in range(_CLIPPED_SURNAME, len(last))}
    # A surname with its particles clipped ('vankerck' of 'Tine Van Kerckhove'). A long given name clipped
    # alone ('venkat') is not a form: searched inside tokens, 'maxim' of 'Maximilian' would be 'maximize'.
    if any(word in PARTICLES for word in words[1:-1]):
        joined, particles = "".join(words[1:]), "".join(words[1:-1])
        forms |= {joined[:size] for size in range(len(particles) + _CLIPPED, len(joined))}
    return frozenset(form for form in forms if len(form) >= MIN_HANDLE_FORM)


class Substrings:
    """Finds which of many short strings occurs inside a text, in time linear in the text: the strings
    are indexed by their first three letters (all are at least three long). Compiling one alternation
    per record cost more than the search itself."""

    __slots__ = ("_by_start",)

    def __init__(self, forms: Iterable[str]) -> None:
        by_start: dict[str, list[str]] = {}
        for form in sorted(set(forms), key=len, reverse=True):
            if len(form) >= 3:
                by_start.setdefault(form[:3], []).append(form)
        self._by_start = by_start

    def search(self, text: str) -> str | None:
        """The longest form starting at the first place any form occurs, or None."""
        for at in range(len(text) - 2):
            for form in self._by_start.get(text[at : at + 3], ()):
                if text.startswith(form, at):
                    return form
        return None

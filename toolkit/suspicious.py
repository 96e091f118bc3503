"""Generic shapes of contacts and personal details, for verification: written apart from the scrubber's
recognizers (`rules/recognizers.yaml`), broader and more suspicious, so that a format the scrubber misses
is still caught before release.

Each shape is a candidate pattern and, where a pattern alone would flag ordinary text, a test of the
candidate: an e-mail in any script or spelled out ('marta (at) host'), a URL or a domain with a path, a
code-host or social profile, an @handle, a phone (8 to 24 digits with separators, or 6 after a phone cue;
year ranges and dates excepted), an IPv4 or IPv6 address, a card number (Luhn), an IBAN (mod 97), a street
address (a number beside a street word in any of several languages, a PO box, a flat or unit number), an
identity number (after its name, or shaped as a US SSN or a Nordic date-based number), a date after a
birth cue.
`suspicious(text)` says which shape a text holds first, or None; `suspicious_each(texts)` says it for many
texts, a shape not read on a text that holds none of the strings it needs (`toolkit.screens`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import regex

from toolkit.detectors import digit_run_ok, iban_ok, ipv4_ok, ipv6_ok, luhn_ok
from toolkit.screens import Screen, required_literals
from toolkit.text import unmasked

_STREET_WORDS = (
    "street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd|way|place|court|terrace|crescent|square|"
    "parkway|highway|row|mews|close|straat|laan|gracht|weg|gasse|platz|allee|utca"
)
"""Street words written after the street's name ('38 Mare Street')."""
_STREET_FIRST = (
    "rue|avenue|av|boulevard|bd|chemin|impasse|quai|all[ée]e|avenida|calle|carrer|paseo|plaza|rua|travessa|"
    "largo|via|viale|corso|piazza|ulica|ul|aleja|al|ulitsa"
)
"""Street words written before the street's name ('12 rue Oberkampf', 'Rua Padre Chagas 315')."""
_TLD = (
    "com|org|net|io|dev|me|ai|app|co|info|xyz|tech|site|page|blog|edu|gov|social|online|cloud|space|studio|"
    "design|works|network|world|live|email|zone|digital|systems|consulting|pro|link|club|uk|de|fr|nl|pl|es|it|pt|br|ru|"
    "cn|jp|in|au|ca|ch|se|no|dk|fi|be|at|cz|ie|nz|za|mx|ar|kr|tw|sg|hk|tr|gr|ro|hu|il|ua"
)


_SHAPES: tuple[tuple[str, regex.Pattern[str], Callable[[str], bool] | None], ...] = (
    ("EMAIL_ADDRESS", regex.compile(r"[\p{L}\p{N}._%+-]@[\p{L}\p{N}-]+\.[\p{L}\p{N}]"), None),
    (
        "EMAIL_ADDRESS",
        regex.compile(
            r"[\p{L}\p{N}._%+-]\s?(?:[\[({<]\s?(?i:at|@)\s?[\])}>]|\s(?i:at)\s[\p{L}\p{N}-]+\s(?i:dot)\s)"
        ),
        None,
    ),
    ("URL", regex.compile(r"(?i)\b(?:https?://|www\.)[^\s]"), None),
    (
        "URL",
        regex.compile(rf"\b[\p{{L}}\p{{N}}-]+(?:\.[\p{{L}}\p{{N}}-]+)*\.(?:{_TLD})/[\p{{L}}\p{{N}}_~%-]"),
        None,
    ),
    ("HANDLE", regex.compile(r"(?<![\w.@])@[\p{L}\p{N}_][\p{L}\p{N}_.-]{2,}(?![\p{L}\p{N}_.-]*/)"), None),
    ("CREDIT_CARD", regex.compile(r"(?<![\d.-])\d(?:[ .-]?\d){12,18}(?![\d-]|\.\d)"), luhn_ok),
    (
        "IBAN_CODE",
        regex.compile(r"(?i)\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){3,7}(?:[ -]?[A-Z0-9]{1,4})?\b"),
        iban_ok,
    ),
    (
        "PHONE_NUMBER",
        regex.compile(r"(?<![\w.,])(?:\+|00)?\(?\d[\d\s().\u2013\u2014/-]{6,}\d(?![\w,]|\.\d)"),
        digit_run_ok,
    ),
    (
        "PHONE_NUMBER",
        regex.compile(
            r"(?i)\b(?:phone|tel|mobile|cell|call|text|whatsapp|sms|fax)\b\W{0,12}\d[\d\s.\u2013-]{4,}\d"
        ),
        None,
    ),
    ("IP_ADDRESS", regex.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.]\d)"), ipv4_ok),
    (
        "IP_ADDRESS",
        regex.compile(
            r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])"
        ),
        ipv6_ok,
    ),
    (
        "STREET_ADDRESS",
        regex.compile(
            rf"(?<![\w.,-])\d{{1,5}}[A-Za-z]?,?\s(?:\p{{Lu}}[\p{{L}}'.-]*\s){{1,3}}(?=\p{{Lu}})(?i:{_STREET_WORDS})\b"
            rf"|(?<![\w.,-])\d{{1,5}}[A-Za-z]?,?\s(?i:{_STREET_FIRST})\.?\s\p{{Lu}}"
            rf"|\b(?i:{_STREET_FIRST})\.?\s(?:\p{{Lu}}[\p{{L}}'.-]*\s?|(?:de|da|das|do|dos|del|la|le|du|des|di)\s){{1,3}},?\s?\d{{1,5}}\b"
            r"|\b\p{Lu}\p{L}*(?:stra(?:ß|ss)e|str\.|gasse|weg|platz|straat|laan|gracht|vej|gade|gata|gatan|v[äa]gen"
            r"|veien|gate|torv|torg|katu)(?:en|et|a|n)?\s\d{1,5}\b"
            r"|\b\d{1,4}-\d{1,4}(?:-\d{1,4})?,?\s\p{Lu}\p{L}*-(?i:ch[oō]|machi|mura)\b"
            r"|\b(?i:p\.?\s?o\.?\s?box|postbus|postfach|apartado|caixa postal)\s?\d+"
            r"|\b(?:Flat|Apt\.?|Apartment|Unit|Suite)\s?#?\d{1,5}[A-Za-z]?\b"
        ),
        None,
    ),
    (
        "NATIONAL_ID",
        regex.compile(
            r"(?i)\b(?:personnummer|cpr|f[øo]dselsnummer|henkil[öo]tunnus|ssn|social security|pesel|bsn"
            r"|dni|cpf|aadhaar|nino|national insurance|codice fiscale|steuer-?id|tax id|national id|passport)"
            r"\b(?:\s(?:number|no\.?|nr\.?))?\W{0,4}(?-i:[A-Z]{0,3}\d{2})"
        ),
        None,
    ),
    (
        "NATIONAL_ID",
        regex.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])|(?<![\d-])\d{6}[-+]\d{4}(?![\d-])"),
        None,
    ),
    (
        "DATE_OF_BIRTH",
        regex.compile(
            r"(?i)(?:\b(?:born(?:\s(?:on|in))?|date of birth|d\.?o\.?b\.?|birthday|birth date|geboren"
            r"|n[ée]e? le|f[øo]dt|f[öo]dd|syntynyt|urodzon[ya]))\W{0,3}\d"
            r"|(?<!\p{L})b\.\s?\d{1,2}[\s./-](?:\d{1,2}|\p{L}{3,})"
        ),
        None,
    ),
)


SHAPE_ENTITIES = tuple(dict.fromkeys(entity for entity, _, _ in _SHAPES))
"""The entity types the shapes stand for, in order."""


def suspicious(text: str) -> str | None:
    """The entity type of the first shape the text holds, or None. Never raises. The text is read as a
    detector should (`toolkit.text.unmasked`: no zero-width characters, full-width forms, encoded at
    signs), so a contact disguised from the scrubber is still found."""
    return _first_shape(unmasked(text), ())


def suspicious_each(texts: Sequence[str]) -> list[str | None]:
    """`suspicious` of each text, in order."""
    shown = [unmasked(text) for text in texts]
    return [
        _first_shape(text, possible) for text, possible in zip(shown, _screen().possible(shown), strict=True)
    ]


@cache
def _screen() -> Screen:
    return Screen([required_literals(pattern.pattern, pattern.flags) for _, pattern, _ in _SHAPES])


def _first_shape(text: str, possible: Sequence[bool]) -> str | None:
    """The entity of the first shape in `text`; `possible`, by shape (empty: all), rules shapes out."""
    for place, (entity, pattern, test) in enumerate(_SHAPES):
        if possible and not possible[place]:
            continue
        for match in pattern.finditer(text):
            if test is None or test(match.group()):
                return entity
    return None

"""Pattern detectors from `rules/recognizers.yaml`, runnable without Presidio or spaCy.

The pre-commit scan and the release's leak check use them directly (fast, no model); the scrubber turns
the same declarations into Presidio recognizers. A declaration may name a `check` that a match must
pass (a card number's Luhn checksum, an IBAN's mod-97 check).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import regex

from toolkit.rules import RecognizerSpec


def luhn_ok(value: str) -> bool:
    """The Luhn checksum of card numbers ('4111 1111 1111 1111' passes, one digit changed fails)."""
    digits = [int(char) for char in value if char.isdigit()]
    if not 12 <= len(digits) <= 19:  # 12: Maestro; which runs of digits may be cards, the patterns say
        return False
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2:
            digit *= 2
            digit -= 9 if digit > 9 else 0
        total += digit
    return total % 10 == 0


def iban_ok(value: str) -> bool:
    """The ISO 13616 mod-97 check of an IBAN ('GB82 WEST 1234 5698 7654 32' passes)."""
    compact = "".join(char for char in value if char.isalnum()).upper()
    if not 15 <= len(compact) <= 34 or not compact[:2].isalpha() or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in rearranged)) % 97 == 1


def ipv6_ok(value: str) -> bool:
    """An IPv6 address in any form, with at least two groups and four digits ('fe80::1'; not '::', 'a::'
    or 'a::b', which C++ writes)."""
    address = value.partition("%")[0]
    if sum(1 for group in address.split(":") if group) < 2 or sum(map(str.isalnum, address)) < 4:
        return False
    try:
        ipaddress.IPv6Address(address)
    except ValueError:
        return False
    return True


def ipv4_ok(value: str) -> bool:
    """A dotted quad that `ipaddress` reads as an IPv4 address ('192.168.10.20', not '999.1.1.1')."""
    try:
        ipaddress.IPv4Address(value)
    except ValueError:
        return False
    return True


def phone_ok(value: str, regions: Sequence[str]) -> bool:
    """A number `phonenumbers` finds valid in one of the regions ('(030) 1234567' in DE)."""
    import phonenumbers

    for region in regions:
        try:
            number = phonenumbers.parse(value, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return True
    return False


_YEAR = regex.compile(r"(?:19[5-9]\d|20[0-4]\d)")
_DIGITS = regex.compile(r"\d+")
_THOUSANDS = regex.compile(r"\d{1,3}(?:[ .]\d{3})+")


def digit_run_ok(candidate: str) -> bool:
    """8 to 24 digits (a Mexican CLABE has 18, an Argentine CBU 22, a Russian account 20) that are not years
    ('2019 - 2021'), a date ('2019-03-14', '03/2019 - 06/2021') or a number written in thousands
    ('10 000 000'): a phone, an account or an identity number."""
    digits = [char for char in candidate if char.isdigit()]
    if not 8 <= len(digits) <= 24:
        return False
    groups = _DIGITS.findall(candidate)
    if all(len(group) == 4 and _YEAR.fullmatch(group) for group in groups):
        return False
    if all(_YEAR.fullmatch(group) or (len(group) <= 2 and 1 <= int(group) <= 31) for group in groups):
        return False
    return _THOUSANDS.fullmatch(candidate.strip()) is None


FILTERING_CHECKS = frozenset({"digit_run"})
"""Checks that only rule a match out (a run of digits that is a year or a date) without confirming it: the
scrubber keeps such a match's pattern score, where a checksum or a valid number makes it certain."""
VALIDATORS: dict[str, Callable[[str], bool]] = {
    "luhn": luhn_ok,
    "iban": iban_ok,
    "ipv6": ipv6_ok,
    "digit_run": digit_run_ok,
}


def validator_for(spec: RecognizerSpec) -> Callable[[str], bool] | None:
    """The check a match of the recognizer must pass, if it declares one."""
    if spec.check == "phone":
        regions = spec.regions
        return lambda value: phone_ok(value, regions)
    return VALIDATORS[spec.check] if spec.check else None


@dataclass(frozen=True)
class Detector:
    entity: str
    name: str
    pattern: regex.Pattern[str]
    validate: Callable[[str], bool] | None = None
    score: float = 1.0


def detectors(specs: Iterable[RecognizerSpec], entities: Iterable[str] | None = None) -> list[Detector]:
    """One detector per pattern of the given recognizers (all of them, or those of `entities`)."""
    wanted = set(entities) if entities is not None else None
    return [
        Detector(
            spec.entity,
            f"{spec.name}.{pattern.name}",
            regex.compile(pattern.regex, regex.IGNORECASE if spec.ignore_case else 0),
            validator_for(spec),
            pattern.score,
        )
        for spec in specs
        if wanted is None or spec.entity in wanted
        for pattern in spec.patterns
    ]


def find(found_by: Iterable[Detector], text: str) -> Iterator[Finding]:
    """Every match that passes its detector's validation, as a `Finding` with the pattern's score."""
    for detector in found_by:
        for match in detector.pattern.finditer(text):
            if detector.validate is None or detector.validate(match.group()):
                yield Finding(match.start(), match.end(), detector.entity, detector.score)


@dataclass(frozen=True, slots=True)
class Finding:
    """Something found in a text: where, of which type, how sure the detector was, and whether it is one of
    the record's own identifiers (known: what the record says beats what a detector or a model guessed)."""

    start: int
    end: int
    entity: str
    score: float = 1.0
    known: bool = False


def declared_order(specs: Iterable[RecognizerSpec]) -> tuple[str, ...]:
    """The entity types in the order `rules/recognizers.yaml` declares their first recognizer: the last
    tie-break between findings of one stretch of text (a specific recognizer is declared before a
    catch-all: `phone` before `long_number`)."""
    return tuple(dict.fromkeys(spec.entity for spec in specs))


_LINE_BREAK = regex.compile(r"[\n\r\v\f\u2028\u2029]")


def resolve(
    found: Iterable[Finding], text: str, order: Sequence[str], join_touching: bool = True
) -> list[tuple[int, int, str]]:
    """One type per stretch of text, the same on every path (the scrubber, verification, `toolkit check`):
    findings that overlap become one covering span, typed by the finding that covers the most; on a tie by
    a known identifier over a detector, then by the higher score, then by the type `order` lists first
    (types it does not list come after, by name). With `join_touching`, findings of one type with only
    white space between them are joined too, as Presidio's anonymizer joins them, unless a line break is
    among it (the lines of an address block are apart). Sorted by start."""
    place = {entity: index for index, entity in enumerate(order)}

    def rank(finding: Finding) -> tuple[int, bool, float, int, str]:
        tie = -place.get(finding.entity, len(place))
        return finding.end - finding.start, finding.known, finding.score, tie, finding.entity

    merged: list[tuple[int, int, str]] = []
    best: list[tuple[int, bool, float, int, str]] = []
    for finding in sorted(found, key=lambda f: (f.start, f.end)):
        start, end, entity = finding.start, finding.end, finding.entity
        between = text[merged[-1][1] : start] if merged else ""
        touching = (
            join_touching
            and merged
            and entity == merged[-1][2]
            and not between.strip()
            and not _LINE_BREAK.search(between)
        )
        if merged and (start < merged[-1][1] or touching):
            last_start, last_end, last_entity = merged[-1]
            if rank(finding) > best[-1]:
                last_entity, best[-1] = entity, rank(finding)
            merged[-1] = (last_start, max(last_end, end), last_entity)
        else:
            merged.append((start, end, entity))
            best.append(rank(finding))
    return merged

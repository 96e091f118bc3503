"""The span adjusters, each alone: a case table per adjuster of spans it changes and spans it leaves, with
the repository's vocabularies and no NLP model; then the switches and the counts."""

from __future__ import annotations

import pytest

from toolkit.detectors import Finding
from toolkit.rules import SPAN_ADJUSTERS, PrivacyRules
from toolkit.scrub.addresses import AddressWidener
from toolkit.scrub.adjusters import SpanAdjusters
from toolkit.scrub.spans import Span
from toolkit.scrub.text import Seeds, TextScrubber
from toolkit.text import Lexicon

CASES = [
    # adjuster, entity, text, the span found, the values to replace after the adjuster
    ("surname_after_a_name", "PERSON", "Thanks to Thành Nguyễn for the review", "Thành", ["Thành Nguyễn"]),
    ("surname_after_a_name", "PERSON", "Reviewed by Ana Lima Costa today", "Ana", ["Ana Lima Costa"]),
    ("surname_after_a_name", "PERSON", "Paired with Ana on the parser", "Ana", ["Ana"]),
    ("surname_after_a_name", "PERSON", "Signed, Ana\nPython developer", "Ana", ["Ana"]),
    ("surname_after_a_name", "PERSON", "Dashboards by Ana Grafana", "Ana", ["Ana"]),
    ("given_name_before_a_name", "PERSON", "used by Ray Chukwuemeka's group", "Chukwuemeka", ["Ray Chukwuemeka"]),
    ("given_name_before_a_name", "PERSON", "used by the Chukwuemeka group", "Chukwuemeka", ["Chukwuemeka"]),
    ("given_name_before_a_name", "PERSON", "used by Kubernetes Chukwuemeka", "Chukwuemeka", ["Chukwuemeka"]),
    ("possessive_left_out", "PERSON", "Call Yuki Tanaka's phone", "Yuki Tanaka's", ["Yuki Tanaka"]),
    ("possessive_left_out", "PERSON", "Call Yuki Tanaka\u2019s phone", "Yuki Tanaka\u2019s", ["Yuki Tanaka"]),
    ("possessive_left_out", "PERSON", "Call Yuki Tanaka soon", "Yuki Tanaka", ["Yuki Tanaka"]),
    ("names_listed_with_a_person", "PERSON", "Paired with Rasmus and Sirli.", "Rasmus", ["Rasmus", "Sirli"]),
    ("names_listed_with_a_person", "PERSON", "Hired Ana, Oskar and Liis", "Ana", ["Ana", "Oskar", "Liis"]),
    ("names_listed_with_a_person", "PERSON", "Worked with Sorin and Anca", "Anca", ["Sorin", "Anca"]),
    ("names_listed_with_a_person", "PERSON", "Paired with Ana and Kubernetes.", "Ana", ["Ana"]),
    ("names_listed_with_a_person", "PERSON", "Paired with Ana and Young.", "Ana", ["Ana"]),
    ("address_parts", "STREET_ADDRESS", "We moved to 12 Rue Oberkampf, 75011 Paris", "12 Rue Oberkampf", ["12 Rue Oberkampf, 75011 Paris"]),
    ("address_parts", "STREET_ADDRESS", "Str. Lazăr nr. 24, ap. 9, Timișoara", "Str. Lazăr nr. 24", ["Str. Lazăr nr. 24, ap. 9, Timișoara"]),
    ("address_parts", "STREET_ADDRESS", "12 Rue Oberkampf | Python", "12 Rue Oberkampf", ["12 Rue Oberkampf"]),
    ("phone_extension", "PHONE_NUMBER", "Call 805.929.6222x9270 today", "805.929.6222", ["805.929.6222x9270"]),
    ("phone_extension", "PHONE_NUMBER", "Call +44 20 7946 0958 ext. 12", "+44 20 7946 0958", ["+44 20 7946 0958 ext. 12"]),
    ("phone_extension", "PHONE_NUMBER", "Call +44 20 7946 0958 next week", "+44 20 7946 0958", ["+44 20 7946 0958"]),
]  # fmt: skip


def _adjust(unit: str, entity: str, text: str, value: str, rules: PrivacyRules, on: bool = True) -> list[str]:
    """The values to replace after `unit` (alone, or switched off) adjusted the span of `value`."""
    adjusters = SpanAdjusters({unit} if on else set(SPAN_ADJUSTERS) - {unit})
    start = text.index(value)
    end = start + len(value)
    if unit == "given_name_before_a_name":
        known, _ = adjusters.known_name(
            Finding(start, end, entity, known=True),
            text,
            rules.allow_list,
            rules.first_names | rules.technical_given_names,
        )
        return [text[known.start : known.end]]
    if unit == "names_listed_with_a_person":
        ordinary = Lexicon(rules.allow_list, rules.common_words)
        spans, _ = adjusters.listed([(start, end, entity)], text, ordinary, rules.english_words)
        return [text[a:b] for a, b, _ in spans]
    span = Span(entity, start, end, 0.85)
    if entity == "PERSON":
        span = adjusters.person(span, text, rules.allow_list)
    else:
        widener = AddressWidener(rules.address_words, rules.allow_list, rules.place_name_joiners)
        span = adjusters.whole(span, text, widener)
    return [text[span.start : span.end]]


@pytest.mark.parametrize(("unit", "entity", "text", "value", "after"), CASES)
def test_each_adjuster_alone(
    unit: str, entity: str, text: str, value: str, after: list[str], privacy_rules: PrivacyRules
) -> None:
    assert _adjust(unit, entity, text, value, privacy_rules) == after


@pytest.mark.parametrize(("unit", "entity", "text", "value", "after"), CASES)
def test_an_adjuster_switched_off_changes_nothing(
    unit: str, entity: str, text: str, value: str, after: list[str], privacy_rules: PrivacyRules
) -> None:
    assert _adjust(unit, entity, text, value, privacy_rules, on=False) == [value]


def test_every_adjuster_has_cases_both_ways() -> None:
    for unit in SPAN_ADJUSTERS:
        changes = {after != [value] for name, _, _, value, after in CASES if name == unit}
        assert changes == {True, False}, unit


def test_a_span_names_the_adjusters_that_changed_it(privacy_rules: PrivacyRules) -> None:
    text = "Thanks to Thành Nguyễn's team"
    span = SpanAdjusters().person(Span("PERSON", 10, 15, 0.85), text, privacy_rules.allow_list)
    assert text[span.start : span.end] == "Thành Nguyễn"
    assert span.adjusted == ("surname_after_a_name", "possessive_left_out")
    unchanged = SpanAdjusters().person(Span("PERSON", 10, 22, 0.85), "Thanks to Thành Nguyễn today", ())
    assert unchanged.adjusted == ()


def test_the_replaced_spans_each_adjuster_changed_are_counted(scrubber: TextScrubber) -> None:
    result = scrubber.scrub(
        [("one", "Call Maria Okafor at 805.929.6222x9270. Kept the build green with Okafor and Tiiu.")],
        {"one": Seeds(own_names=("Maria Okafor",))},
    )
    assert "9270" not in result.texts[0]
    assert "Tiiu" not in result.texts[0]
    assert result.span_adjusters["phone_extension"] == 1
    assert result.span_adjusters["names_listed_with_a_person"] >= 1
    assert set(result.span_adjusters) <= set(SPAN_ADJUSTERS)

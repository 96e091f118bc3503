"""Each recognizer of rules/recognizers.yaml, with positive and negative examples."""

from __future__ import annotations

import pytest

from toolkit.scrub.text import TextScrubber

CASES = [
    # (text, entity, found value or None)
    ("write to ada.byron@example.org today", "EMAIL_ADDRESS", "ada.byron@example.org"),
    ("ADA_B+cv@mail.co.uk", "EMAIL_ADDRESS", "ADA_B+cv@mail.co.uk"),
    ("the @ sign and a@b are not addresses", "EMAIL_ADDRESS", None),
    ("see https://ada.dev/about.", "URL", "https://ada.dev/about"),
    ("see www.adabyron.me/cv", "URL", "www.adabyron.me/cv"),
    ("my site adabyron.dev has it", "URL", "adabyron.dev"),
    ("node.js and vue.js are frameworks", "URL", None),
    ("github.com/adabyron/engine", "HANDLE", "github.com/adabyron/engine"),
    ("gitlab.com/ada-b.", "HANDLE", "gitlab.com/ada-b"),
    ("ping @adabyron on chat", "HANDLE", "@adabyron"),
    ("ada@example.org", "HANDLE", None),
    ("call +351 912 345 678 now", "PHONE_NUMBER", "+351 912 345 678"),
    ("call +44 (20) 7946 0958", "PHONE_NUMBER", "+44 (20) 7946 0958"),
    ("call (415) 555-0199", "PHONE_NUMBER", "(415) 555-0199"),
    ("call 030 1234 5678", "PHONE_NUMBER", "030 1234 5678"),
    ("deployed 1,000s of models across 10,000s of NPUs in 2019-2021", "PHONE_NUMBER", None),
    ("version 3.8.0 and 2.2.366", "PHONE_NUMBER", None),
    ("host 192.168.10.20 is down", "IP_ADDRESS", "192.168.10.20"),
    ("version 1.2.3.4567 is not an address", "IP_ADDRESS", None),
    ("card 4111 1111 1111 1111 on file", "CREDIT_CARD", "4111 1111 1111 1111"),
    ("card 4111-1111-1111-1112 fails Luhn", "CREDIT_CARD", None),
    ("order 1234567890123 shipped", "CREDIT_CARD", None),
    ("maestro 6763 1065 1333 expires soon", "CREDIT_CARD", "6763 1065 1333"),
    ("maestro 501234567896", "CREDIT_CARD", "501234567896"),
    ("ticket 123456789031 closed", "CREDIT_CARD", None),  # 12 digits that pass Luhn, not a Maestro issuer
    ("pay to GB82 WEST 1234 5698 7654 32", "IBAN_CODE", "GB82 WEST 1234 5698 7654 32"),
    ("pay to DE89370400440532013000", "IBAN_CODE", "DE89370400440532013000"),
    ("GB82 WEST 1234 5698 7654 33 fails mod 97", "IBAN_CODE", None),
    ("see linkedin.com/in/ada-byron-1", "HANDLE", "linkedin.com/in/ada-byron-1"),
    ("supervised by Dr. Ana de la Cruz", "PERSON", "Ana de la Cruz"),
    ("co-authored with Alexander van den Hoek", "PERSON", "Alexander van den Hoek"),
]


@pytest.mark.parametrize(
    ("text", "entity", "value"), CASES, ids=[f"{e}-{i}" for i, (_, e, _) in enumerate(CASES)]
)
def test_recognizer(text: str, entity: str, value: str | None, scrubber: TextScrubber) -> None:
    (spans,) = scrubber.engine.analyze([text])
    found = [text[span.start : span.end] for span in spans if span.entity == entity]
    if value is None:
        assert found == []
    else:
        assert value in found

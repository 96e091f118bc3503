"""One type per value on every path: what the scrubber's token says a value was (`toolkit.scrub_frame`, and
so `toolkit scrub` and `toolkit run`) and what `toolkit check` reports it as agree, for phones of 20
regions, an e-mail after its owner's name, places, countries and possessives.

The phone numbers are libphonenumber's own example numbers (`phonenumbers.example_number`), written in
the international format, so the table is not made of shapes this project chose."""

from __future__ import annotations

import json
import re
from pathlib import Path

import phonenumbers
import polars as pl
import pytest

import toolkit
from toolkit.cli import main
from toolkit.rules import load_privacy_rules
from toolkit.scrub.gazetteer import PlaceRecognizer

SECRET = "a label test secret, long enough"
REGIONS = ("US", "GB", "DE", "FR", "IN", "AU", "BR", "JP", "CN", "ZA",
           "NG", "KE", "MX", "ES", "IT", "NL", "SE", "PL", "KR", "SG")  # fmt: skip


def _example(region: str) -> str:
    number = phonenumbers.example_number(region)
    assert number is not None, region
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


PHONES = [_example(region) for region in REGIONS]
TOKEN = re.compile(r"<([A-Z][A-Z_]*?)(?:_[0-9a-f]{8})?>")

CASES = [
    *((f"Call me on {phone} after six.", ["PHONE_NUMBER"]) for phone in PHONES),
    *((f"Mobile: {phone}", ["PHONE_NUMBER"]) for phone in PHONES[:5]),
    ("Contact Maria Gonzalez at maria.gonzalez@example.com for details.", ["PERSON", "EMAIL_ADDRESS"]),
    ("Ask Tomasz Wiśniewski (tomasz.wisniewski@example.org) about it.", ["PERSON", "EMAIL_ADDRESS"]),
    ("She moved from Lisbon to Berlin.", ["LOCATION", "LOCATION"]),
    ("Relocated to Nairobi last year.", ["LOCATION"]),
    ("Worked in Brazil and Japan.", ["LOCATION", "LOCATION"]),
    ("Based in Taiwan, works remotely.", ["LOCATION"]),
    ("Remote from Toronto, Canada.", ["LOCATION", "LOCATION"]),
    ("Lives near São Paulo.", ["LOCATION"]),
    ("Office in Kraków and Bangalore.", ["LOCATION", "LOCATION"]),
    ("Grew up in Kenya, studied in Germany.", ["LOCATION", "LOCATION"]),
    ("Worked in Rio de Janeiro for a year.", ["LOCATION"]),
    ("Florence fixed the build.", ["PERSON"]),  # a given name alone is a person, not the city
    ("Austin Chen reviewed it.", ["PERSON"]),
]


@pytest.mark.parametrize(("text", "types"), CASES, ids=[text[:40] for text, _ in CASES])
def test_the_scrubber_types_each_value_once_and_right(text: str, types: list[str]) -> None:
    scrubbed = toolkit.scrub_frame(pl.DataFrame({"text": [text]}), "text", key=SECRET)["text"][0]
    assert TOKEN.findall(scrubbed) == types, scrubbed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yuki Tanaka's phone is broken.", "<PERSON>'s phone is broken."),
        ("I fixed Yuki Tanaka's phone.", "I fixed <PERSON>'s phone."),
        ("Kwame Mensah\u2019s review came first.", "<PERSON>\u2019s review came first."),
        ("Those are James' notes.", "Those are <PERSON>' notes."),
    ],
)
def test_a_possessive_keeps_its_s(text: str, expected: str) -> None:
    scrubbed = toolkit.scrub_frame(pl.DataFrame({"text": [text]}), "text", key=SECRET)["text"][0]
    assert TOKEN.sub(lambda token: f"<{token[1]}>", scrubbed) == expected


CONTACTS = [
    *((f"Call me on {phone} after six.", "PHONE_NUMBER") for phone in PHONES),
    ("Contact Maria Gonzalez at maria.gonzalez@example.com for details.", "EMAIL_ADDRESS"),
]


def test_check_calls_each_contact_what_the_scrubber_calls_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "notes.csv"
    pl.DataFrame({"text": [text for text, _ in CONTACTS]}).write_csv(data)
    assert main(["check", str(data), "--format", "json", "--baseline", str(tmp_path / "baseline.json")]) == 1
    report = json.loads(capsys.readouterr().out)
    by_row = {finding["row"]: finding["entity"] for finding in report["findings"]}
    assert len(report["findings"]) == len(CONTACTS)
    scrubbed = toolkit.scrub_frame(pl.DataFrame({"text": [text for text, _ in CONTACTS]}), "text", key=SECRET)
    for row, ((_, entity), text) in enumerate(zip(CONTACTS, scrubbed["text"], strict=True), start=1):
        assert by_row[row] == entity
        assert entity in TOKEN.findall(text)


@pytest.fixture(scope="module")
def places() -> PlaceRecognizer:
    return PlaceRecognizer(load_privacy_rules().places)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Moved to São Paulo in 2019.", ["São Paulo"]),
        ("Sao Paulo office", ["Sao Paulo"]),
        ("Rio de Janeiro and Kraków", ["Rio de Janeiro", "Kraków"]),
        ("Based in New York City, then Bangalore.", ["New York City", "Bangalore"]),
        ("Kenya, Germany, Taiwan", ["Kenya", "Germany", "Taiwan"]),
        ("Florence fixed the build.", []),  # a given name
        ("Deployed to Mobile app stores; Reading group.", []),  # English words
        ("We use Django and Kafka.", []),
        ("berlin in lower case is no capitalised name", []),
        ("mail paris@example.org or see example.com/lisbon/x", []),  # inside a contact or a path
        ("@Berlin on the forum", []),  # a handle
    ],
)
def test_the_place_recognizer_finds_known_places_only(
    places: PlaceRecognizer, text: str, found: list[str]
) -> None:
    results = places.analyze(text, ["LOCATION"])
    assert [text[result.start : result.end] for result in results] == found
    assert all(result.entity_type == "LOCATION" for result in results)

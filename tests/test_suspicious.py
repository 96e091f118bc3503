"""Verification's own shapes of contacts and personal details (toolkit/suspicious.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.suspicious import suspicious, suspicious_each

FOUND = [
    ("marta@nowak.pl", "EMAIL_ADDRESS"),
    ("josé@bücher.de", "EMAIL_ADDRESS"),
    ("marta (at) nowak", "EMAIL_ADDRESS"),
    ("marta at nowak dot pl", "EMAIL_ADDRESS"),
    ("see https://x.example", "URL"),
    ("www.nowak.pl", "URL"),
    ("nowakdev.pl/blog", "URL"),
    ("ping @quietkoala", "HANDLE"),
    ("+48 600 100 200", "PHONE_NUMBER"),
    ("(030) 8812734", "PHONE_NUMBER"),
    ("tel: 8812734", "PHONE_NUMBER"),
    ("fe80::1", "IP_ADDRESS"),
    ("10.1.20.30", "IP_ADDRESS"),
    ("4111 1111 1111 1111", "CREDIT_CARD"),
    ("GB82 WEST 1234 5698 7654 32", "IBAN_CODE"),
    ("38 Mare Street", "STREET_ADDRESS"),
    ("12 rue Oberkampf", "STREET_ADDRESS"),
    ("Rua Padre Chagas 315", "STREET_ADDRESS"),
    ("Hauptstraße 5", "STREET_ADDRESS"),
    ("PO Box 12", "STREET_ADDRESS"),
    ("born 3 November 1989", "DATE_OF_BIRTH"),
    ("born in 1990", "DATE_OF_BIRTH"),
    ("DOB: 1991-03-14", "DATE_OF_BIRTH"),
]
ORDINARY = [
    "Node.js/React developer",
    "npm install @types/node",
    "worked 2015 - 2019, then 2019-03 \u2013 2021-06",
    "10 000 000 users",
    "Led 12 engineers the whole way",
    "std::vector and a::b",
    "Python 3.11, version 1.2.3",
    "processing 2 billion events",
    "297 commits in 2 years 5 months",
    "ASP.NET/C#",
    "Signal Processing",
    "12:30:45",
    "<PHONE_NUMBER_1a2b3c4d> and <EMPLOYER>",
]


@pytest.mark.parametrize(("text", "entity"), FOUND)
def test_found(text: str, entity: str) -> None:
    assert suspicious(text) == entity


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_not_suspicious(text: str) -> None:
    assert suspicious(text) is None


def test_screened_shapes_find_what_each_text_alone_finds() -> None:
    prose = Path(__file__).parent / "scrub" / "data" / "prose_dev_small.jsonl"
    texts = [text for text, _ in FOUND] + ORDINARY
    texts += [json.loads(line)["text"] for line in prose.read_text(encoding="utf-8").splitlines()]
    found = suspicious_each(texts)
    assert found == [suspicious(text) for text in texts]
    assert sum(shape is not None for shape in found) > len(FOUND)

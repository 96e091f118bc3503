"""Case tables for the résumé layout: entries, organisations after them, supervisors, awards."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.parse.helpers import parse_ok, parse_text
from toolkit.parse.document import Reject
from toolkit.rules import ParsingRules

ENTRY = "Data Engineer\n- Built pipelines.\n- Ran the on-call rota.\n\n"


@pytest.mark.parametrize(
    ("organization_block", "organization", "supervisor"),
    [
        ("Ironbark Data", "Ironbark Data", None),
        ("Parallel Systems Lab., Lakeside University,\nsupervised by Dr. Alexander van den Hoek", "Parallel Systems Lab., Lakeside University", "Dr. Alexander van den Hoek"),
        ("Vision Lab at Hillcrest, supervised by Dr. Abigaíl Perea", "Vision Lab at Hillcrest", "Dr. Abigaíl Perea"),
        ("Vision Lab\nSupervised by: Prof. Ines Ng", "Vision Lab", "Prof. Ines Ng"),
        ("Ironbark Data\nLisbon", "Ironbark Data Lisbon", None),
    ],
)  # fmt: skip
def test_organization_after_its_entry(
    organization_block: str, organization: str, supervisor: str | None, rules: ParsingRules
) -> None:
    (row,) = parse_ok("Experience\n\n" + ENTRY + organization_block, rules)["experience"]
    assert (row["title"], row["organization"], row["supervisor"]) == (
        "Data Engineer",
        organization,
        supervisor,
    )
    assert row["bullets"] == ["Built pipelines.", "Ran the on-call rota."]


@pytest.mark.parametrize(
    ("entry", "title", "bullets", "period"),
    [
        ("Data Engineer\n- One.\n- Two.", "Data Engineer", ["One.", "Two."], (None, None)),
        ("Data Engineer\n• One.\n• Two.", "Data Engineer", ["One.", "Two."], (None, None)),
        ("Data Engineer\n- One that wraps\nonto the next line.\n- Two.", "Data Engineer", ["One that wraps onto the next line.", "Two."], (None, None)),
        ("Data Engineer\nMar 2019 - Jan 2021\n- One.", "Data Engineer", ["One."], (dt.date(2019, 3, 1), dt.date(2021, 1, 1))),
        ("Data Engineer\nMar 2019 - Present\n- One.", "Data Engineer", ["One."], (dt.date(2019, 3, 1), None)),
    ],
)  # fmt: skip
def test_entry_block(
    entry: str, title: str, bullets: list[str], period: tuple[dt.date | None, ...], rules: ParsingRules
) -> None:
    (row,) = parse_ok(f"Experience\n\n{entry}\n\nIronbark Data", rules)["experience"]
    assert (row["title"], row["bullets"], (row["start"], row["end"])) == (title, bullets, period)


def test_positions_keep_their_order(rules: ParsingRules) -> None:
    text = "Experience\n\nLead\n- A.\n\nNorthwind Labs\n\nEngineer\n- B.\n\nNorthwind Labs\n\nIntern\n- C.\n\nQuillfeather"
    rows = parse_ok(text, rules)["experience"]
    assert [(row["position"], row["title"]) for row in rows] == [(1, "Lead"), (2, "Engineer"), (3, "Intern")]


AWARDS = "Experience\n\n" + ENTRY + "Ironbark Data\n\n"


@pytest.mark.parametrize(
    ("tail", "awards"),
    [
        ("Marlow Fellowship\n\nLakeside University", [("Marlow Fellowship", "Lakeside University")]),
        ("Best Paper Award", [("Best Paper Award", None)]),
        # an award without issuer in the middle: the next line names an award itself
        ("Best Paper Award\n\nMarlow Fellowship\n\nLakeside University", [("Best Paper Award", None), ("Marlow Fellowship", "Lakeside University")]),
        ("Best Paper Award\nSymposium on Compilers\nGold medal in the Informatics Olympiad", [("Best Paper Award", "Symposium on Compilers"), ("Gold medal in the Informatics Olympiad", None)]),
                # no award word needed for the first one: the list has begun
        ("Employee of the Year\n\nIronbark Data", [("Employee of the Year", "Ironbark Data")]),
    ],
)  # fmt: skip
def test_awards_after_the_experience_list(
    tail: str, awards: list[tuple[str, str | None]], rules: ParsingRules
) -> None:
    parsed = parse_ok(AWARDS + tail, rules)
    assert len(parsed["experience"]) == 1
    assert [(row["title"], row["issuer"]) for row in parsed["awards"]] == awards


def test_an_award_right_after_an_entry_with_no_organisation(rules: ParsingRules) -> None:
    parsed = parse_ok("Experience\n\n" + ENTRY + "Marlow Fellowship\n\nLakeside University", rules)
    assert parsed["experience"][0]["organization"] is None
    assert [(row["title"], row["issuer"]) for row in parsed["awards"]] == [
        ("Marlow Fellowship", "Lakeside University")
    ]


def test_lines_before_the_heading_are_kept(rules: ParsingRules) -> None:
    parsed = parse_ok("Curriculum vitae\n\nExperience\n\n" + ENTRY + "Ironbark Data", rules)
    assert parsed["unparsed_lines"] == ["Curriculum vitae"]


@pytest.mark.parametrize(
    "heading", ["Experience", "EXPERIENCE", "Work Experience", "Professional experience:"]
)
def test_heading_variants(heading: str, rules: ParsingRules) -> None:
    assert len(parse_ok(f"{heading}\n\n{ENTRY}Ironbark Data", rules)["experience"]) == 1


def test_an_experience_heading_with_nothing_after_it_is_truncated(rules: ParsingRules) -> None:
    result = parse_text("Experience\n\n", rules)
    assert isinstance(result, Reject)
    assert result.reason == "truncated"


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("Marta Nowak\nKraków, Poland", "Marta Nowak"),
        ("NOWAK, Marta\nmarta@example.org", "NOWAK, Marta"),
        ("tel +48 601 234 567\nmarta@example.org\nul. Długa 5, Gdańsk\nMARTA NOWAK", "MARTA NOWAK"),
        ("S I O B H Á N   N Í   B H R I A I N\nBackend Engineer", "SIOBHÁN NÍ BHRIAIN"),
        ("Eoghan Mac Giolla hEoin\nDublin", "Eoghan Mac Giolla hEoin"),
        ("Data Engineer\nKraków, Poland\nOpen to relocation", None),
    ],
)
def test_the_name_of_the_contact_header(header: str, name: str | None, rules: ParsingRules) -> None:
    parsed = parse_ok(header + "\n\nExperience\n\n" + ENTRY + "Ironbark Data", rules)
    assert parsed["profile"]["name"] == name

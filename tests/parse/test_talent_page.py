"""Case tables for the talent_page layout: each defect and variant on a small fictional page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.parse.helpers import parse_ok, parse_text
from toolkit.parse import parse_bytes
from toolkit.parse.document import Reject
from toolkit.rules import ParsingRules

HEADER = "Ada\u00a0Quintero\nData Engineer at Ironbark Data\nLisbon, Portugal\n"
BIO = "Ada Quintero is a Data Engineer in Lisbon who builds streaming platforms."


@pytest.mark.parametrize(
    ("summary_lines", "badges", "bio"),
    [
        (["👤", "Senior🎓", f"Top School{BIO}"], ["Senior", "Top School"], BIO),
        ([f"👤Senior🎓Top School{BIO}"], ["Senior", "Top School"], BIO),  # a known badge cut even glued twice
        (["🌱", f"Open Source Contributor{BIO}"], ["Open Source Contributor"], BIO),
        (["⭐", f"Rare Find{BIO}"], ["Rare Find"], BIO),  # unknown label: cut where the name starts
        ([BIO], [], BIO),  # no badges
        (["Senior engineer at heart, Ada builds platforms."], [], "Senior engineer at heart, Ada builds platforms."),
        ([f"Top School{BIO}", "Second paragraph of the bio."], ["Top School"], f"{BIO} Second paragraph of the bio."),
    ],
)  # fmt: skip
def test_badges_and_bio(summary_lines: list[str], badges: list[str], bio: str, rules: ParsingRules) -> None:
    text = HEADER + "Summary\n" + "\n".join(summary_lines) + "\n5 years of coding experience\n"
    profile = parse_ok(text, rules)["profile"]
    assert (profile["badges"], profile["summary"]) == (badges, bio)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (
            "Ada Quintero\nData Engineer at Ironbark Data\nAustin, Texas, United States",
            ("Data Engineer", "Ironbark Data", "Austin", "Texas", "United States"),
        ),
        ("Ada Quintero\nData Engineer @ Ironbark Data\nLisbon, Portugal", ("Data Engineer", "Ironbark Data", "Lisbon", None, "Portugal")),
        ("Ada Quintero\nFreelance Data Engineer\nPortugal", ("Freelance Data Engineer", None, None, None, "Portugal")),
        ("Ada Quintero\nLisbon, Portugal", (None, None, "Lisbon", None, "Portugal")),  # no headline
        ("Ada Quintero", (None, None, None, None, None)),
        ("Ada Quintero\nHead of Data at Shop at Home Ltd\nLisbon, Portugal", ("Head of Data at Shop", "Home Ltd", "Lisbon", None, "Portugal")),
    ],
)  # fmt: skip
def test_header(header: str, expected: tuple[str | None, ...], rules: ParsingRules) -> None:
    profile = parse_ok(header + "\nSummary\n" + BIO, rules)["profile"]
    assert profile["name"] == "Ada Quintero"
    assert (
        profile["title"],
        profile["employer"],
        profile["city"],
        profile["region"],
        profile["country"],
    ) == expected


@pytest.mark.parametrize(
    ("facts", "field", "value"),
    [
        ("13 years of coding experience", "coding_years", 13),
        ("1 year of coding experience", "coding_years", 1),
        ("9 years of employment as a software developer", "employment_years", 9),
        ("Mandarin, English", "spoken_languages", ["Mandarin", "English"]),
        ("Twi, English", "spoken_languages", ["Twi", "English"]),  # half known is enough
        ("Twi", "spoken_languages", ["Twi"]),  # the line before the skills: languages by position
    ],
)
def test_facts(facts: str, field: str, value: object, rules: ParsingRules) -> None:
    text = (
        HEADER
        + "Summary\n"
        + BIO
        + "\n2 years of coding experience\n"
        + facts
        + "\nGithub Skills (1)\npython9\n"
    )
    assert parse_ok(text, rules)["profile"][field] == value


@pytest.mark.parametrize(
    ("facts", "education", "languages"),
    [
        ("Mandarin, English", [], ["Mandarin", "English"]),
        (
            "Master of Science, Physics at Hillcrest Institute\nEnglish",
            [("Master of Science", "Physics")],
            ["English"],
        ),
    ],
)
def test_facts_end_the_bio_even_without_years_lines(
    facts: str, education: list[tuple[str, str]], languages: list[str], rules: ParsingRules
) -> None:
    parsed = parse_ok(HEADER + "Summary\n" + BIO + "\n" + facts + "\nGithub Skills (1)\npython9\n", rules)
    assert parsed["profile"]["summary"] == BIO
    assert [(row["degree"], row["field"]) for row in parsed["education"]] == education
    assert parsed["profile"]["spoken_languages"] == languages


@pytest.mark.parametrize(
    ("line", "education"),
    [
        (
            "Bachelor of Science (B.Sc.), Computer Science at Lakeside University",
            {"degree": "Bachelor of Science (B.Sc.)", "field": "Computer Science", "institution": "Lakeside University"},
        ),
        (  # a degree written twice stays as written: the quality rules flag it
            "Master of Science (M.Sc.), Physics, Master of Science (M.Sc.), Physics at Hillcrest Institute",
            {
                "degree": "Master of Science (M.Sc.)",
                "field": "Physics, Master of Science (M.Sc.), Physics",
                "institution": "Hillcrest Institute",
            },
        ),
        ("Diploma in Applied Computing", {"degree": "Diploma in Applied Computing", "field": None, "institution": None}),
        ("Studied at Lakeside University", {"degree": "Studied", "field": None, "institution": "Lakeside University"}),
    ],
)  # fmt: skip
def test_education(line: str, education: dict[str, str | None], rules: ParsingRules) -> None:
    text = HEADER + "Summary\n" + BIO + "\n3 years of coding experience\n" + line + "\nEnglish\n"
    parsed = parse_ok(text, rules)
    assert parsed["education"] == [education]
    assert parsed["profile"]["spoken_languages"] == ["English"]


def test_unknown_fact_lines_are_kept_not_lost(rules: ParsingRules) -> None:
    text = HEADER + "Summary\n" + BIO + "\n3 years of coding experience\nOpen to relocation: yes\nEnglish\n"
    assert parse_ok(text, rules)["unparsed_lines"] == ["Open to relocation: yes"]


def test_declared_counts_are_kept_when_fewer_items_follow(rules: ParsingRules) -> None:
    text = (
        HEADER + "Summary\n" + BIO + "\nGithub Skills (18)\nxla10\npython9\n"
        "Programming languages (4)\nGithub contributions (5)\nopenquill/quill\nJun 2019 - Jul 2021\n"
    )
    parsed = parse_ok(text, rules)
    declared = {key: parsed["profile"][key] for key in parsed["profile"] if key.startswith("declared_")}
    assert declared == {
        "declared_skills": 18,
        "declared_programming_languages": 4,
        "declared_contributions": 5,
    }
    assert len(parsed["skills"]) == 2
    assert [row["repository"] for row in parsed["contributions"]] == ["openquill/quill"]


def test_programming_languages_are_their_own_kind(rules: ParsingRules) -> None:
    text = HEADER + "Summary\n" + BIO + "\nGithub Skills (1)\nxla10\nProgramming languages (2)\nrust9\ngo7\n"
    kinds = [(row["kind"], row["skill"], row["score"]) for row in parse_ok(text, rules)["skills"]]
    assert kinds == [
        ("github_skill", "xla", 10),
        ("programming_language", "rust", 9),
        ("programming_language", "go", 7),
    ]


CONTRIBUTION = "Github contributions (1)\nopenquill/quill\nJun 2019 - Jul 2021\nA markdown engine\n"


@pytest.mark.parametrize(
    ("block", "role", "commits", "months"),
    [
        ("Role in this project:\nMaintainer\nMaintainerContributions:12 commits in 2 years 1 month", "Maintainer", 12, 25),
        ("Role in this project:Maintainer\nMaintainerContributions:12 commits in 3 months", "Maintainer", 12, 3),
        ("Role in this project:\nMaintainerContributions:1 commit in 1 month", "Maintainer", 1, 1),  # role only glued
        ("MaintainerContributions:12 commits in 1 year", "Maintainer", 12, 12),
    ],
)  # fmt: skip
def test_role_glued_to_contributions(
    block: str, role: str, commits: int, months: int, rules: ParsingRules
) -> None:
    text = HEADER + CONTRIBUTION + block + "\nContributions summary:Ada fixed the parser.\npythoncompiler\n"
    (row,) = parse_ok(text, rules)["contributions"]
    assert (row["role"], row["commits"], row["duration_months"]) == (role, commits, months)
    assert (row["summary"], row["tags"]) == ("Ada fixed the parser.", ["python", "compiler"])


def test_tags_split_against_the_profiles_own_skills(rules: ParsingRules) -> None:
    text = (
        HEADER + "Github Skills (1)\nzephyrdb9\n" + CONTRIBUTION
        + "Role in this project:Maintainer\nContributions summary:Ada.\npythonzephyrdbquokkaflow\n"
    )  # fmt: skip
    (row,) = parse_ok(text, rules)["contributions"]
    assert row["tags"] == ["python", "zephyrdb", "quokkaflow"]


def test_a_page_cut_before_its_name_is_truncated(rules: ParsingRules) -> None:
    result = parse_text("Summary\n" + BIO + "\n13 years of coding experience\n", rules)
    assert isinstance(result, Reject)
    assert result.reason == "truncated"


def test_a_page_cut_mid_contribution_keeps_what_it_has(rules: ParsingRules) -> None:
    parsed = parse_ok(HEADER + "Summary\n" + BIO + "\n" + CONTRIBUTION + "Role in this pro", rules)
    (row,) = parsed["contributions"]
    assert (row["repository"], row["description"]) == (
        "openquill/quill",
        "A markdown engine Role in this pro",
    )


def test_extra_header_lines_are_kept_not_lost(rules: ParsingRules) -> None:
    parsed = parse_ok(HEADER + "Open to work\nSummary\n" + BIO, rules)
    assert (parsed["profile"]["city"], parsed["unparsed_lines"]) == ("Lisbon", ["Open to work"])


def test_a_bio_whose_case_folding_changes_length_parses(rules: ParsingRules) -> None:
    lines = (Path(__file__).parent.parent / "fixtures" / "talent_page_lookalike.txt").read_text().splitlines()
    summary = lines.index("Summary")
    lines[0], lines[summary + 3] = "Ada", "ßßßßßßAda"  # "ß" folds to "ss": positions in a folded copy are off
    parsed = parse_bytes("a.txt", "\n".join(lines).encode(), rules)
    assert not isinstance(parsed, Reject)

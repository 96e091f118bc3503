"""Verification, case by case: what suppresses a person, and what does not."""

from __future__ import annotations

import polars as pl
import pytest

from toolkit.model import ProfileSet
from toolkit.rules import PrivacyRules
from toolkit.verify import NameIndex, SuppressReason, contact_handles, verify


@pytest.mark.parametrize(
    ("text", "handles"),
    [
        ("mail ada.byron@example.org now", ["ada.byron"]),
        ("ping @adab42 on the forum", ["adab42"]),
        ("a@b", []),
        ("see github.com/openxla/xla", []),
        ("user@mail.example.com and @quietotter", ["user", "quietotter"]),
    ],
)
def test_contact_handles_are_read_from_source_text(text: str, handles: list[str]) -> None:
    assert list(contact_handles(text)) == handles


def _source(summary: str, name: str = "Ada Byron", supervisor: str | None = None) -> ProfileSet:
    return ProfileSet.from_frames(
        {
            "profiles": pl.DataFrame({"profile_id": ["p1"], "name": [name], "summary": [summary]}),
            "experience": pl.DataFrame({"profile_id": ["p1"], "supervisor": [supervisor]}),
        }
    )


@pytest.mark.parametrize(
    ("released", "source_summary", "names", "reason"),
    [
        ("Works on compilers.", "Ada works on compilers.", [], None),
        ("Byron works on compilers.", "Byron works on compilers.", [], SuppressReason.OWN_IDENTIFIER),
        ("BYRON, ADA on compilers.", "x", [], SuppressReason.OWN_IDENTIFIER),
        (
            "Reach ada.b.dev for talks.",
            "Reach ada.b.dev@example.org for talks.",
            [],
            SuppressReason.OWN_IDENTIFIER,
        ),
        ("Paired with Grace Hopper.", "x", ["Grace Hopper"], SuppressReason.KNOWN_NAME),
        ("Paired with Grace.", "x", ["Grace Hopper"], None),  # one word of someone else: ordinary
        ("Mail <EMAIL_ADDRESS_1a2b3c4d> or x@example.org", "x", [], SuppressReason.CONTACT),
        ("Turned the page on Deep Learning.", "x", ["Page Deep"], None),
    ],
)
def test_what_suppresses_a_person(
    released: str,
    source_summary: str,
    names: list[str],
    reason: SuppressReason | None,
    privacy_rules: PrivacyRules,
) -> None:
    release = {"profiles": pl.DataFrame({"profile_id": ["r1"], "summary": [released]})}
    result = verify(release, _source(source_summary), privacy_rules, {"r1": "p1"}, NameIndex.of(names))
    assert result.suppressed.get("p1") == reason


def test_a_supervisors_name_is_another_person(privacy_rules: PrivacyRules) -> None:
    release = {"profiles": pl.DataFrame({"profile_id": ["r1"], "summary": ["Thanks to Ninalowo."]})}
    source = _source("x", supervisor="Dr. Ajoke Ninalowo")
    result = verify(release, source, privacy_rules, {"r1": "p1"})
    assert result.suppressed == {"p1": SuppressReason.OTHER_PERSON}

"""Shared helpers: parse one text and view the result in the shape `tools.profiles` states as expected."""

from __future__ import annotations

from typing import Any

from toolkit.parse import parse_bytes
from toolkit.parse.document import Reject
from toolkit.rules import ParsingRules

PROFILE_KEYS = (
    "layout", "name", "headline", "title", "employer", "location", "city", "region", "country", "summary",
    "badges", "coding_years", "employment_years", "spoken_languages", "declared_skills",
    "declared_programming_languages", "declared_contributions",
)  # fmt: skip


def parse_text(text: str | bytes, rules: ParsingRules, source: str = "doc.txt") -> dict[str, Any] | Reject:
    """Parse one document; return its rows per table (as `tools.profiles.Profile.expected`) or the Reject."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    result = parse_bytes(source, data, rules)
    if isinstance(result, Reject):
        return result
    _, parsed = result
    return {
        "profile": parsed.profile,
        "education": parsed.education,
        "skills": parsed.skills,
        "contributions": parsed.contributions,
        "experience": parsed.experience,
        "awards": parsed.awards,
        "unparsed_lines": parsed.unparsed_lines,
    }


def profile_view(rows: dict[str, Any]) -> dict[str, Any]:
    """The profile fields a layout fills, with the ones it leaves out shown as None."""
    return {key: rows["profile"].get(key) for key in PROFILE_KEYS}


def parse_ok(text: str | bytes, rules: ParsingRules, source: str = "doc.txt") -> dict[str, Any]:
    """`parse_text` for a document that must parse: fails the test with the reject otherwise."""
    parsed = parse_text(text, rules, source)
    assert isinstance(parsed, dict), parsed
    return parsed

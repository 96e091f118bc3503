"""Fictional profiles from tools.profiles, in both styles and with every defect of the seeds, parse into
exactly what they state."""

from __future__ import annotations

import pytest

from tests.parse.helpers import PROFILE_KEYS, parse_text
from toolkit.rules import ParsingRules
from tools.profiles import Generated, documents, profiles

GENERATED = profiles(300, seed=11)
PLANTED = documents(150, seed=12)  # Faker's names, planted identifiers, employers named after surnames
IDS = [f"{i:03d}-{d.layout}" for i, d in enumerate(GENERATED)]
IDS += [f"planted-{i:03d}-{d.layout}" for i, d in enumerate(PLANTED)]


@pytest.mark.parametrize("doc", GENERATED + PLANTED, ids=IDS)
def test_generated_profile_parses_to_what_its_text_states(doc: Generated, rules: ParsingRules) -> None:
    parsed = parse_text(doc.text, rules)
    assert isinstance(parsed, dict), parsed
    expected_profile = {key: doc.expected["profile"].get(key) for key in PROFILE_KEYS}
    assert {key: parsed["profile"].get(key) for key in PROFILE_KEYS} == expected_profile
    for table in ("education", "skills", "contributions", "experience", "awards", "unparsed_lines"):
        assert parsed[table] == doc.expected[table], table


@pytest.mark.parametrize("docs", [GENERATED, PLANTED], ids=["seed", "planted"])
def test_generator_covers_both_layouts_and_the_defects(docs: list[Generated]) -> None:
    layouts = {doc.layout for doc in docs}
    texts = "\n".join(doc.text for doc in docs)
    assert layouts == {"talent_page", "resume"}
    for defect in (
        "\u00a0",
        "Contributions:",
        "Role in this project:\n",
        "supervised by Dr.",
        "Find and Hire",
    ):
        assert defect in texts, defect

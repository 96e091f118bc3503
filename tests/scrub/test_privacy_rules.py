"""Mistakes in rules/privacy.yaml and rules/recognizers.yaml are one error naming the file and the key;
none may silently switch protection off."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolkit.errors import RulesError
from toolkit.rules import PRIVACY_FILE, RECOGNIZERS_FILE, load_privacy_rules

REPO_RULES = Path(__file__).parent.parent.parent / "rules"

MISTAKES = [
    (PRIVACY_FILE, "  - PERSON\n", "  - PERSONS\n", "text_entities.0", "PERSON"),
    (PRIVACY_FILE, "country: keep:country", "country: keep:contry", "tables.profiles.country", "unknown shape"),
    (PRIVACY_FILE, "    degree: keep:degree", "    degree: drop:degree", "tables.education.degree", "only generalize and keep"),
    (PRIVACY_FILE, "    known: [vocabularies/spoken_languages.yaml]", "    known: [vocabularies/spoken.yaml]", "shapes.spoken_language.known.0", "no readable YAML"),
    (PRIVACY_FILE, "    known: [\"parsing.yaml:badges\"]", "    known: [\"parsing.yaml:badge\"]", "shapes.badge.known.0", "no list of terms"),
    (PRIVACY_FILE, "  country:\n    known:", "  country:\n    pattern: x\n    known:", "shapes.country", "either known"),
    (PRIVACY_FILE, "  max_suppressed: 0.01", "  max_suppressed: 1.5", "verification.max_suppressed", "less than 1"),
    (RECOGNIZERS_FILE, "    entity: EMAIL_ADDRESS\n", "    entity: EMAIL\n", "recognizers.0.entity", "EMAIL_ADDRESS"),
    (RECOGNIZERS_FILE, '"NO", DK', '"XX", DK', "recognizers.8", "unknown phone regions"),
    (RECOGNIZERS_FILE, "    check: phone\n", "", "recognizers.8", "regions are given with check: phone"),
    (RECOGNIZERS_FILE, "    names_only: true\n    unknown_words: true\n", "    unknown_words: true\n", "recognizers.26", "unknown_words is given with names_only"),
]  # fmt: skip


@pytest.mark.parametrize(("file", "old", "new", "key", "problem"), MISTAKES)
def test_a_mistake_names_the_file_and_the_key(
    tmp_path: Path, file: str, old: str, new: str, key: str, problem: str
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO_RULES, rules)
    text = (rules / file).read_text(encoding="utf-8")
    assert old in text
    (rules / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesError) as error:
        load_privacy_rules(rules)
    assert error.value.file == str(rules / file)
    assert error.value.key.startswith(key)
    assert problem in error.value.problem

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
    (RECOGNIZERS_FILE, "{name: product_name,", "{name: product_names,", "filters.2.name", "certain_person"),
    (RECOGNIZERS_FILE, "{name: product_name,", "{name: english_words,", "filters", "named more than once: ['english_words']"),
    (RECOGNIZERS_FILE, "  - name: email_any_script\n", "  - name: email\n", "recognizers", "named more than once: ['email']"),
    (RECOGNIZERS_FILE, "{name: english_words, enabled: true}", "{name: english_words, enabled: maybe}", "filters.3.enabled", "boolean"),
    (RECOGNIZERS_FILE, "{name: phone_extension,", "{name: phone_extensions,", "adjusters.5.name", "address_parts"),
    (RECOGNIZERS_FILE, "{name: NER,", "{name: ner,", "built_in.2.name", "NER"),
    (RECOGNIZERS_FILE, "{name: phone_extension,", "{name: address_parts,", "adjusters", "named more than once: ['address_parts']"),
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


def _switched_off(tmp_path: Path, *lines: tuple[str, str]) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(REPO_RULES, rules)
    text = (rules / RECOGNIZERS_FILE).read_text(encoding="utf-8")
    for old, new in lines:
        assert old in text
        text = text.replace(old, new, 1)
    (rules / RECOGNIZERS_FILE).write_text(text, encoding="utf-8")
    return rules


def test_units_switched_off_are_left_out_and_named(tmp_path: Path) -> None:
    rules = load_privacy_rules(
        _switched_off(
            tmp_path,
            ("  - name: iban\n", "  - name: iban\n    enabled: false\n"),
            ("{name: english_words, enabled: true}", "{name: english_words, enabled: false}"),
            ("{name: phone_extension, enabled: true}", "{name: phone_extension, enabled: false}"),
            ("{name: NER, enabled: true}", "{name: NER, enabled: false}"),
        )
    )
    assert "iban" not in [spec.name for spec in rules.recognizers]
    assert "english_words" not in rules.span_filters
    assert "phone_extension" not in rules.span_adjusters
    assert rules.built_in == {"first_name_gazetteer", "place_gazetteer"}
    assert rules.switched_off == {
        "recognizers": ("iban", "NER"),
        "span_filters": ("english_words",),
        "span_adjusters": ("phone_extension",),
    }
    every = load_privacy_rules(REPO_RULES)
    assert every.switched_off == {}
    assert len(every.span_filters) == 7
    assert len(every.span_adjusters) == 6
    assert every.built_in == {"first_name_gazetteer", "place_gazetteer", "NER"}


def test_a_filter_left_out_of_the_list_is_on(tmp_path: Path) -> None:
    rules = load_privacy_rules(
        _switched_off(tmp_path, ("  - {name: english_words, enabled: true}", "  # none"))
    )
    assert "english_words" in rules.span_filters


def test_every_recognizer_switched_off_is_an_error(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO_RULES, rules)
    path = rules / RECOGNIZERS_FILE
    path.write_text(
        path.read_text(encoding="utf-8").replace("    patterns:\n", "    enabled: false\n    patterns:\n"),
        encoding="utf-8",
    )
    with pytest.raises(RulesError) as error:
        load_privacy_rules(rules)
    assert error.value.problem == "every recognizer is switched off"

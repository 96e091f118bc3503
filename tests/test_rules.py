"""The rules reader: the shipped rules load; each kind of mistake is one error naming the file and key."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from toolkit.errors import RulesError
from toolkit.rules import (
    COMMON_WORDS_FILE,
    PARSING_FILE,
    QUALITY_FILE,
    SPOKEN_LANGUAGES_FILE,
    TECHNICAL_TERMS_FILE,
    TOOL_NAMES_FILE,
    load_parsing_rules,
    load_privacy_rules,
    load_quality_rules,
)
from tools.make_common_words import census_names

REPO_RULES = Path(__file__).parent.parent / "rules"
VALID_PARSING = "site_footers: [Hire us]\nbadges: [Senior]\naward_keywords: [prize]\nmax_input_bytes: 1000\n"


def test_the_shipped_rules_load() -> None:
    rules = load_parsing_rules(REPO_RULES)
    assert "Top School" in rules.badges
    assert {"xla", "kubernetes", "deep-learning"} <= rules.technical_terms
    assert {"english", "mandarin"} <= rules.spoken_languages


def test_toolkit_rules_environment_variable_overrides_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(REPO_RULES, tmp_path / "rules")
    (tmp_path / "rules" / PARSING_FILE).write_text(VALID_PARSING)
    monkeypatch.setenv("TOOLKIT_RULES", str(tmp_path / "rules"))
    assert load_parsing_rules().badges == ("Senior",)


@pytest.mark.parametrize(
    ("file", "content", "key", "problem"),
    [
        (PARSING_FILE, None, "", "file not found"),
        (PARSING_FILE, "badges: [unclosed\n", "", "not valid YAML at line 2"),
        (PARSING_FILE, "- a list\n- not a mapping\n", "", "must be a mapping"),
        (PARSING_FILE, VALID_PARSING.replace("max_input_bytes: 1000", "max_input_bytes: lots"), "max_input_bytes", "integer"),
        (PARSING_FILE, VALID_PARSING.replace("max_input_bytes: 1000", "max_input_bytes: 0"), "max_input_bytes", "greater than 0"),
        (PARSING_FILE, VALID_PARSING.replace("badges: [Senior]", "badges: [Senior, 7]"), "badges.1", "string"),
        (PARSING_FILE, VALID_PARSING.replace("badges: [Senior]", "badges: [Senior, '  ']"), "badges", "blank"),
        (PARSING_FILE, VALID_PARSING.replace("badges: [Senior]\n", ""), "badges", "Field required"),
        (PARSING_FILE, VALID_PARSING + "badge_colours: [red]\n", "badge_colours", "unknown key"),
        (TECHNICAL_TERMS_FILE, "terms: []\n", "terms", "at least 1"),
        (SPOKEN_LANGUAGES_FILE, "languages: [English]\n", "languages", "unknown key (did you mean terms?)"),
        (COMMON_WORDS_FILE, None, "", "file not found"),
        (COMMON_WORDS_FILE, "terms: ''\n", "terms", "at least 1"),
        (COMMON_WORDS_FILE, "words: [a]\n", "words", "unknown key (did you mean terms?)"),
    ],
)  # fmt: skip
def test_a_mistake_names_the_file_and_the_key(
    tmp_path: Path, file: str, content: str | None, key: str, problem: str
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO_RULES, rules)
    (rules / PARSING_FILE).write_text(VALID_PARSING)
    if content is None:
        (rules / file).unlink()
    else:
        (rules / file).write_text(content)
    with pytest.raises(RulesError) as error:
        (load_privacy_rules if file == COMMON_WORDS_FILE else load_parsing_rules)(rules)
    assert error.value.file == str(rules / file)
    assert error.value.key == key
    assert problem in error.value.problem
    assert "\n" not in str(error.value)


QUALITY_RULE = """rules:
  - id: skills.score.range
    table: skills
    columns: [score]
    check: in_range
    params: {min: 0, max: 10}
    severity: error
    description: Scores run from 0 to 10.
"""


@pytest.mark.parametrize(
    ("edit", "key", "problem"),
    [
        (lambda t: t.replace("table: skills", "table: hobbies"), "rules.0.table", "Input should be"),
        (lambda t: t.replace("severity: error", "severity: error\n    threshold: 1.5"), "rules.0.threshold", "fraction"),
        (lambda t: t.replace("severity: error", "severity: error\n    threshold: -3"), "rules.0.threshold", "count"),
        (lambda t: t.replace("check: in_range", "check: ordered").replace("params: {min: 0, max: 10}", "params: {}"), "rules.0.columns", "exactly 2 columns"),
        (lambda t: t.replace("params: {min: 0, max: 10}", "params: {}"), "rules.0.params", "set min, max or both"),
        (lambda t: t.replace("params: {min: 0, max: 10}", "params: {min: 0, maximum: 10}"), "rules.0.params.maximum", "unknown key (did you mean max?)"),
        (lambda t: t.replace("check: in_range", "check: references").replace("{min: 0, max: 10}", "{table: profiles, column: score}"), "rules.0.params.column", "not in table profiles"),
        (lambda t: t.replace("check: in_range", "check: not_null").replace("{min: 0, max: 10}", "{when: {colour: red}}"), "rules.0.params", "column colour"),
        (lambda t: t.replace("id: skills.score.range", "id: Skills Score"), "rules.0.id", "pattern"),
        (lambda t: t.replace("    description: Scores run from 0 to 10.\n", ""), "rules.0.description", "Field required"),
        (lambda t: t.replace("severity: error", "severty: error"), "rules.0.severty", "unknown key (did you mean severity?)"),
        (lambda t: "rules: []\n", "rules", "at least 1"),
    ],
)  # fmt: skip
def test_a_quality_rule_mistake_names_the_file_and_key(
    tmp_path: Path, edit: Callable[[str], str], key: str, problem: str
) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / QUALITY_FILE).write_text(edit(QUALITY_RULE))
    with pytest.raises(RulesError) as error:
        load_quality_rules(rules)
    assert (error.value.file, error.value.key) == (str(rules / QUALITY_FILE), key)
    assert problem in error.value.problem


def test_the_shipped_quality_rules_load_with_typed_params() -> None:
    rules = load_quality_rules(REPO_RULES)
    assert len({rule.id for rule in rules.rules}) == len(rules.rules) >= 25
    score = next(rule for rule in rules.rules if rule.id == "skills.score.range")
    assert (score.params.min, score.params.max) == (0, 10)


def test_an_unimplemented_check_kind_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit.errors import ToolkitError
    from toolkit.quality import checks

    rule = load_quality_rules(REPO_RULES).rules[0]
    monkeypatch.delitem(checks.CHECKS, rule.check)
    with pytest.raises(ToolkitError, match="has no implementation"):
        checks.plan(rule, {})


def test_a_long_word_list_may_be_written_as_one_text(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO_RULES, rules)
    (rules / COMMON_WORDS_FILE).write_text("terms: >-\n  alpha beta\n  Gamma\n")
    assert load_privacy_rules(rules).common_words == {"alpha", "beta", "gamma"}


def test_the_shipped_common_words_hold_no_census_name() -> None:
    common = load_privacy_rules(REPO_RULES).common_words
    assert {"streaming", "engine", "built", "learning"} <= common
    assert not {"will", "rose", "young", "grant", "mark"} & common


def test_the_shipped_tool_names_are_allowed_and_hold_no_census_name() -> None:
    """rules/vocabularies/tool_names.yaml (tools/make_tool_names.py) leaves out the tools named like people."""
    census = census_names()
    tools = {
        term.lower() for term in yaml.safe_load((REPO_RULES / TOOL_NAMES_FILE).read_text("utf-8"))["terms"]
    }
    assert {"storybook", "burp suite", "travis ci", "vitest"} <= tools
    assert not {term for term in tools if " " not in term} & census
    assert tools <= load_privacy_rules(REPO_RULES).allow_list
    assert "hugo" not in load_privacy_rules(REPO_RULES).allow_list  # a static site generator, and a name

"""Word lists live in `rules/vocabularies/`, once; a recognizer's pattern names one as `\\L<name>` (the
`regex` package's syntax for a named list), and loading the rules fills it in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import regex

from toolkit.errors import RulesError
from toolkit.rules import RECOGNIZERS_FILE, RecognizerSpec, alternation, load_privacy_rules

REPO_RULES = Path(__file__).parent.parent.parent / "rules"
NAMED_LIST = regex.compile(r"\\\\L<(\w+)>")
"""`\\L<name>` as written in the YAML file (a backslash doubled inside double quotes)."""


def _rules_with(tmp_path: Path, files: dict[str, tuple[str, str]]) -> Path:
    """A copy of the shipped rules with `old` replaced by `new` once in each file named."""
    rules = tmp_path / "rules"
    shutil.copytree(REPO_RULES, rules)
    for name, (old, new) in files.items():
        text = (rules / name).read_text(encoding="utf-8")
        assert old in text
        (rules / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return rules


def _recognizer(rules: Path, name: str) -> RecognizerSpec:
    return next(spec for spec in load_privacy_rules(rules).recognizers if spec.name == name)


def _finds(spec: RecognizerSpec, text: str) -> list[str]:
    flags = regex.IGNORECASE if spec.ignore_case else 0
    return [m.group() for p in spec.patterns for m in regex.finditer(p.regex, text, flags)]


SERVICES = "vocabularies/messaging_services.yaml"
MISTAKES = [
    # file edited, old, new, file named, key, problem
    (RECOGNIZERS_FILE, "\\\\L<messaging_services>", "\\\\L<messenger_services>", RECOGNIZERS_FILE, "recognizers.4.patterns.0.regex", "no vocabulary"),
    (RECOGNIZERS_FILE, "\\\\L<messaging_services>", "\\\\L<Messaging-Services>", RECOGNIZERS_FILE, "recognizers.4.patterns.0.regex", "lower case"),
    (RECOGNIZERS_FILE, "\\\\L<messaging_services>", "\\\\L<>", RECOGNIZERS_FILE, "recognizers.4.patterns.0.regex", "lower case"),
    (SERVICES, "terms: [", "terms: []\nx: [", SERVICES, "", ""),
    (SERVICES, "terms: [signal,", "terms: [' ',", SERVICES, "terms", "blank"),
]  # fmt: skip


@pytest.mark.parametrize(("edited", "old", "new", "named", "key", "problem"), MISTAKES)
def test_a_mistake_in_a_named_list_is_one_error(
    tmp_path: Path, edited: str, old: str, new: str, named: str, key: str, problem: str
) -> None:
    rules = _rules_with(tmp_path, {edited: (old, new)})
    with pytest.raises(RulesError) as error:
        load_privacy_rules(rules)
    assert error.value.file == str(rules / named)
    assert error.value.key.startswith(key)
    assert problem in error.value.problem


def test_an_empty_vocabulary_is_an_error_not_an_empty_alternative(tmp_path: Path) -> None:
    text = (REPO_RULES / SERVICES).read_text(encoding="utf-8")
    body = text[text.index("terms: [") :]
    rules = _rules_with(tmp_path, {SERVICES: (body, "terms: []\n")})
    with pytest.raises(RulesError) as error:
        load_privacy_rules(rules)
    assert error.value.file == str(rules / SERVICES)
    assert error.value.key == "terms"


def test_a_vocabulary_written_as_one_text_is_refused(tmp_path: Path) -> None:
    """One text of words would be one term with spaces: 'signal telegram' matched only whole."""
    text = (REPO_RULES / SERVICES).read_text(encoding="utf-8")
    body = text[text.index("terms: [") :]
    rules = _rules_with(tmp_path, {SERVICES: (body, "terms: signal telegram\n")})
    with pytest.raises(RulesError, match="tuple"):
        load_privacy_rules(rules)


def test_terms_are_literal_and_longer_ones_come_first(tmp_path: Path) -> None:
    """'crates.io' is no pattern ('cratesXio' is no service), 'hacker news' keeps its space, and 'kakaotalk'
    is matched whole before 'kakao'."""
    rules = _rules_with(
        tmp_path,
        {SERVICES: ("terms: [signal,", "terms: [crates.io, sign(al)?, signal,")},
    )
    spec = _recognizer(rules, "messenger_handle")
    assert _finds(spec, "crates.io: quietkoala77") == ["quietkoala77"]
    assert _finds(spec, "cratesXio: quietkoala77") == []
    assert _finds(spec, "sign(al)?: quietkoala77") == ["quietkoala77"]
    assert _finds(spec, "Hacker News: quietkoala77") == ["quietkoala77"]
    fill = next(p.regex for p in spec.patterns if p.name == "after_service")
    assert fill.index("kakaotalk") < fill.index("kakao|")


def test_an_edited_vocabulary_changes_what_is_found(tmp_path: Path) -> None:
    text = "Session: quietkoala77, Signal: sunnyotter42"
    assert _finds(_recognizer(REPO_RULES, "messenger_handle"), text) == ["sunnyotter42"]
    rules = _rules_with(tmp_path, {SERVICES: ("terms: [signal,", "terms: [session, signal,")})
    assert _finds(_recognizer(rules, "messenger_handle"), text) == ["quietkoala77", "sunnyotter42"]


def test_an_escaped_backslash_before_l_is_no_named_list(tmp_path: Path) -> None:
    rules = _rules_with(
        tmp_path,
        {RECOGNIZERS_FILE: ('{name: tilde, regex: "', '{name: tilde, regex: "\\\\\\\\L<x>|')},
    )
    assert _finds(_recognizer(rules, "tilde_account"), "a \\L<x> b") == ["\\L<x>"]


def test_every_named_list_exists_and_is_written_nowhere_else() -> None:
    """Each vocabulary a pattern names is a file of `rules/vocabularies/`, and no pattern spells out four
    of its terms in a row instead (the copies that drifted apart)."""
    lines = (REPO_RULES / RECOGNIZERS_FILE).read_text(encoding="utf-8").splitlines()
    named = {name for line in lines if not line.lstrip().startswith("#") for name in NAMED_LIST.findall(line)}
    assert len(named) >= 10
    patterns = [p.regex for spec in load_privacy_rules(REPO_RULES).recognizers for p in spec.patterns]
    for name in named:
        terms = load_list(REPO_RULES / "vocabularies" / f"{name}.yaml")
        runs = [
            "|".join(regex.escape(t, special_only=True, literal_spaces=True) for t in terms[i : i + 4])
            for i in range(len(terms) - 3)
        ]
        filled = alternation(terms)
        for pattern in patterns:
            rest = pattern.replace(filled, "")
            assert not any(run in rest for run in runs), (name, pattern[:80])


def load_list(path: Path) -> list[str]:
    import yaml

    terms = yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]
    assert isinstance(terms, list)
    return [str(term) for term in terms]


def test_the_name_splitter_reads_the_same_particles_as_the_patterns() -> None:
    """`toolkit.names` splits names with its own copy of the particles (it runs before any rules are
    read); the copy may not drift from the vocabulary the patterns use."""
    from toolkit.names import PARTICLES

    assert set(load_list(REPO_RULES / "vocabularies" / "name_particles.yaml")) == PARTICLES

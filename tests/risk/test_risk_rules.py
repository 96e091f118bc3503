"""rules/risk.yaml: every mistake is one RulesError naming the file and the key; none switches a view off."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO_RULES
from toolkit.errors import RulesError
from toolkit.rules import RISK_FILE, load_risk_rules


def _rules_with(tmp_path: Path, change: Any) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(REPO_RULES, folder)
    risk = yaml.safe_load((folder / RISK_FILE).read_text(encoding="utf-8"))
    change(risk)
    (folder / RISK_FILE).write_text(yaml.safe_dump(risk), encoding="utf-8")
    return folder


def _set(path: str, value: Any) -> Any:
    def change(risk: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node = risk
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        (_set("views/github/columns/0", "contributions.repo"), "views.github.columns.0", "not a released"),
        (
            _set("views/professional_network/columns/0", "profiles.city"),
            "views.professional_network.columns.0",
            "dropped by privacy",
        ),
        (_set("k", 1), "k", "greater than or equal to 2"),
        (_set("views/awards/k", 1), "views.awards.k", "greater than or equal to 2"),
        (_set("views/talent_site/m", 3), "views.talent_site.m", "less than or equal to 2"),
        (_set("views/career/order", None), "views.career", "needs an `order` column"),
        (_set("views/awards/columns", ["awards.title", "skills.skill"]), "views.awards", "reads one table"),
        (_set("views/awards/columns", []), "views.awards.columns", "at least 1"),
        (_set("views/awards/kind", "bag"), "views.awards.kind", "record"),
        (_set("views", {}), "views", "at least 1"),
        (_set("worth", {"profiles.summary": 2}), "worth.profiles.summary", "not a column of any view"),
        (_set("worth", {"profiles.employer": 0}), "worth.profiles.employer", "greater than 0"),
        (_set("presence", 1), "presence", "less than 1"),
        (_set("presence", -0.1), "presence", "greater than or equal to 0"),
        (
            _set("ladders/profiles.summary", ["frequent"]),
            "ladders.profiles.summary",
            "not a column of any view",
        ),
        (
            _set("ladders/profiles.employer", [{"band": [1, 5]}]),
            "ladders.profiles.employer.0",
            "needs numbers",
        ),
        (
            _set("ladders/skills.score", [{"classify": ["regions"]}]),
            "ladders.skills.score.0",
            "classify needs text",
        ),
        (_set("ladders/profiles.employer", ["frequent", "frequent"]), "ladders.profiles.employer.1", "twice"),
        (_set("ladders/skills.score", [{"band": [5, 1]}]), "ladders.skills.score.0", "ascending"),
        (
            _set("ladders/skills.score", [{"band": [1], "span": 5}]),
            "ladders.skills.score.0",
            "a step is one of",
        ),
        (_set("ladders/skills.score", ["frequently"]), "ladders.skills.score.0", ""),
        (_set("enable", False), "enable", "unknown key (did you mean enabled?)"),
        (_set("max_suppressed", 1.5), "max_suppressed", "less than 1"),
        (_set("recoding", "lokal"), "recoding", "'global' or 'local'"),
        (
            _set("ladders/education.institution", [{"classify": ["regions"], "of": "previous"}]),
            "ladders.education.institution.0",
            "needs a classify step before it",
        ),
        (
            _set("ladders/education.institution", ["frequent", {"band": [1, 5], "of": "previous"}]),
            "ladders.education.institution.1",
            "only classify takes",
        ),
        (
            _set("ladders/contributions.repository/1/of", "experience.title"),
            "ladders.contributions.repository.1.of",
            "must be a column of contributions",
        ),
        (
            _set("ladders/contributions.repository/1/of", "contributions.commits"),
            "ladders.contributions.repository.1.of",
            "classify needs text",
        ),
        (
            _set("ladders/contributions.repository/1/of", "contributions.tagz"),
            "ladders.contributions.repository.1.of",
            "not a released",
        ),
        (
            _set("ladders/contributions.repository/1/of", "tags"),
            "ladders.contributions.repository.1",
            "a column of the same table",
        ),
        (_set("text/max_run", 0), "text.max_run", "greater than or equal to 1"),
        (
            _set("text/columns", {"profiles.summary": "verbatim"}),
            "text.columns.profiles.summary",
            "k_anonymous",
        ),
        (
            _set("text/columns", {"profiles.title": "scrubbed"}),
            "text.columns.profiles.title",
            "read by a risk view",
        ),
        (
            _set("text/columns", {"profiles.declared_skills": "drop"}),
            "text.columns.profiles.declared_skills",
            "not released",
        ),
        (
            _set("text/follows", {"profiles.summry": "profiles.name"}),
            "text.follows.profiles.summry",
            "not text",
        ),
        (
            _set("text/follows", {"profiles.summary": "profiles.nickname"}),
            "text.follows.profiles.summary",
            "no column of the policy",
        ),
        (
            _set("phrases/restated", {"profiles.employer": ["profiles.title"]}),
            "phrases.restated.profiles.employer",
            "not one of phrases.columns",
        ),
        (
            _set("phrases/restated", {"profiles.title": ["profiles.summary"]}),
            "phrases.restated.profiles.title",
            "not another column of a view",
        ),
        (_set("views/text_terms/max_withheld", 1.0), "views.text_terms.max_withheld", "less than 1"),
        (
            _set("views/professional_network/max_withheld", 0.5),
            "views.professional_network",
            "withholds no rows",
        ),
    ],
)
def test_a_mistake_names_the_file_and_the_key(tmp_path: Path, change: Any, key: str, problem: str) -> None:
    with pytest.raises(RulesError) as raised:
        load_risk_rules(_rules_with(tmp_path, change))
    assert raised.value.file.endswith(RISK_FILE)
    assert raised.value.key == key
    assert problem in raised.value.problem


def test_a_missing_hierarchy_file_is_named(tmp_path: Path) -> None:
    rules = _rules_with(tmp_path, _set("ladders/profiles.country", [{"classify": ["continents"]}]))
    with pytest.raises(RulesError, match=r"hierarchies/continents\.yaml"):
        load_risk_rules(rules)


def test_a_hierarchy_group_without_terms_is_an_error(tmp_path: Path) -> None:
    rules = _rules_with(tmp_path, lambda risk: None)
    (rules / "hierarchies" / "regions.yaml").write_text("default: other\ngroups:\n  Europe: []\n")
    with pytest.raises(RulesError, match="groups"):
        load_risk_rules(rules)


def test_the_shipped_rules_load_and_every_view_column_has_a_ladder() -> None:
    risk = load_risk_rules(REPO_RULES)
    assert risk.enabled
    assert risk.k == 5
    viewed = {column for view in risk.views.values() for column in view.columns}
    assert set(risk.ladders) == viewed


def test_every_released_text_column_outside_the_views_is_k_anonymous_unless_named() -> None:
    text = load_risk_rules(REPO_RULES).text
    assert text is not None
    assert text.modes["profiles.summary"] == "k_anonymous"
    assert text.modes["experience.bullets"] == "k_anonymous"
    assert "profiles.title" not in text.modes  # a view reads it: the risk pass guards it
    assert "profiles.name" not in text.modes  # dropped
    # a repository's description follows the pseudonymized repository: withheld, its terms listed
    assert text.modes["contributions.description"] == "terms"
    assert "contributions.description" in text.terms_from
    assert "profiles.badges" not in text.terms_from  # kept values, not free text


def test_with_the_risk_pass_off_the_text_pass_governs_the_view_columns_too(tmp_path: Path) -> None:
    text = load_risk_rules(_rules_with(tmp_path, _set("enabled", False))).text
    assert text is not None
    assert text.modes["profiles.title"] == "k_anonymous"

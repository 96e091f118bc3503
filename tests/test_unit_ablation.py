"""The ablation benchmark switches one unit off in a copy of the rules, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.unit_ablation import rules_without, unit_names
from toolkit.rules import BUILT_IN, SPAN_ADJUSTERS, SPAN_FILTERS, load_privacy_rules

REPO_RULES = Path(__file__).parent.parent / "rules"


def test_every_recognizer_filter_and_adjuster_is_a_unit() -> None:
    units = unit_names(REPO_RULES)
    every = load_privacy_rules(REPO_RULES)
    assert [name for kind, name in units if kind == "recognizer"] == [spec.name for spec in every.recognizers]
    assert [name for kind, name in units if kind == "filter"] == list(SPAN_FILTERS)
    assert [name for kind, name in units if kind == "adjuster"] == list(SPAN_ADJUSTERS)
    assert [name for kind, name in units if kind == "built_in"] == list(BUILT_IN)


@pytest.mark.parametrize(
    ("unit", "switched_off"),
    [
        (("recognizer", "iban"), {"recognizers": ("iban",)}),
        (("filter", "english_words"), {"span_filters": ("english_words",)}),
        (("adjuster", "phone_extension"), {"span_adjusters": ("phone_extension",)}),
        (("built_in", "place_gazetteer"), {"recognizers": ("place_gazetteer",)}),
        (None, {}),
    ],
)
def test_one_unit_is_switched_off(
    unit: tuple[str, str] | None, switched_off: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    rules = load_privacy_rules(rules_without(REPO_RULES, unit, tmp_path))
    every = load_privacy_rules(REPO_RULES)
    assert rules.switched_off == switched_off
    off = {name for names in switched_off.values() for name in names}
    assert {spec.name for spec in rules.recognizers} == {spec.name for spec in every.recognizers} - off
    assert rules.span_filters == every.span_filters - off
    assert rules.span_adjusters == every.span_adjusters - off
    assert rules.built_in == every.built_in - off

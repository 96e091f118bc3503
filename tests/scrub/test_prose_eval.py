"""A small version of the prose evaluation (benchmarks/prose_eval.py) as a regression test.

300 sentences from presidio-evaluator's generator (its even templates, seed 2026; made apart by
tools/make_prose_eval.py), scrubbed as `toolkit scrub` scrubs them. The bounds are what the toolkit
reached when the test was written, with a small margin: a change that loses recall or precision fails it.
They are not the issue's targets, which the full sets measure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.prose_eval import Score, evaluate, load, replaced_ranges, run_toolkit

DATA = Path(__file__).parent / "data" / "prose_dev_small.jsonl"

MOST_LEFT = {
    "CREDIT_CARD": 0.0,
    "IBAN_CODE": 0.0,
    "EMAIL_ADDRESS": 0.0,
    "IP_ADDRESS": 0.0,
    "US_SSN": 0.0,
    "PERSON": 0.14,
    "PHONE_NUMBER": 0.16,
    "STREET_ADDRESS": 0.40,
}


@pytest.fixture(scope="module")
def toolkit_score() -> Score:
    [score] = evaluate(load(DATA), {"toolkit": run_toolkit})
    return score


@pytest.mark.parametrize(("entity", "most"), MOST_LEFT.items())
def test_the_share_left_of_each_entity_stays_within_its_bound(
    entity: str, most: float, toolkit_score: Score
) -> None:
    assert toolkit_score.labelled[entity] > 0
    assert toolkit_score.left_share(entity) <= most, toolkit_score.examples_left.get(entity)


def test_few_replacements_touch_no_labelled_value(toolkit_score: Score) -> None:
    assert toolkit_score.unaligned == 0
    assert toolkit_score.not_personal / toolkit_score.replacements <= 0.06


@pytest.mark.parametrize(
    ("original", "output", "ranges"),
    [
        ("Call Ada now", "Call <PERSON> now", [(5, 8)]),
        ("Call Ada now", "Call <PERSON_1a2b3c4d> now", [(5, 8)]),
        ("Ada and Bo", "<PERSON> and <PERSON>", [(0, 3), (8, 10)]),
        ("nothing here", "nothing here", []),
        ("nothing here", "something else", None),
    ],
)
def test_replaced_ranges_align_an_output_with_its_input(
    original: str, output: str, ranges: list[tuple[int, int]] | None
) -> None:
    assert replaced_ranges(original, output) == ranges

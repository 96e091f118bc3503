"""The adversarial suite, run as a user runs the job (one case at a time, the risk pass off): of the
planted identifiers, at most 3 in 150 survive (the target of the issue; aim for none); no case blocks its release and none fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.adversarial_eval import score

pytestmark = pytest.mark.slow  # the module's fixture runs the whole scrubber over every case

CASES = Path(__file__).parent / "cases"


@pytest.fixture(scope="module")
def scored() -> dict[str, dict[str, int]]:
    classes: dict[str, dict[str, int]] = score(CASES)["classes"]
    return classes


def test_at_most_3_in_150_planted_identifiers_survive(scored: dict[str, dict[str, int]]) -> None:
    total = scored["total"]
    assert total["planted"] >= 150
    assert total["survived"] * 150 <= 3 * total["planted"]


def test_no_case_blocks_its_release_or_fails(scored: dict[str, dict[str, int]]) -> None:
    assert scored["total"]["blocked_cases"] == 0
    assert scored["total"]["errors"] == 0

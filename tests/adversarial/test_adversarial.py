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


FORMATS_HELDOUT = Path(__file__).parent / "formats_heldout" / "cases"


def test_the_structured_formats_set_keeps_the_same_target() -> None:
    """30 JSON Resume, GitHub API and LinkedIn export cases written apart from the code (first scored at
    02b9800: 1 of 192 survived, not fitted since)."""
    total = score(FORMATS_HELDOUT)["classes"]["total"]
    assert total["planted"] >= 150
    assert total["survived"] * 150 <= 3 * total["planted"]
    assert total["blocked_cases"] == total["errors"] == 0

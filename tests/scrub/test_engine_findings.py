"""How the engine settles overlapping findings of its recognizers (Presidio's rule, with a fixed tie-break)."""

from __future__ import annotations

import pytest
from presidio_analyzer import Pattern, PatternRecognizer

from toolkit.scrub.engine import _Running, _without_duplicates


def _running(order: int, name_words: int = 0, entity: str = "PERSON") -> _Running:
    recognizer = PatternRecognizer(
        supported_entity=entity, name=f"r{order}", patterns=[Pattern(name="p", regex="x", score=0.5)]
    )
    return _Running(order, None, recognizer, name_words)


CUE, NAMES_ONLY, OTHER_ENTITY = _running(0), _running(1, name_words=2), _running(2, entity="LOCATION")


@pytest.mark.parametrize(
    ("findings", "kept"),
    [
        # a finding inside another of its entity with a score as high goes
        ([("PERSON", 0, 10, 0.5, CUE), ("PERSON", 2, 5, 0.5, CUE)], [("PERSON", 0, 10, 0.5, CUE)]),
        # ... unless its own score is higher
        (
            [("PERSON", 0, 10, 0.5, CUE), ("PERSON", 2, 5, 0.9, CUE)],
            [("PERSON", 2, 5, 0.9, CUE), ("PERSON", 0, 10, 0.5, CUE)],
        ),
        # another entity's span does not swallow it
        (
            [("LOCATION", 0, 10, 0.5, OTHER_ENTITY), ("PERSON", 2, 5, 0.5, CUE)],
            [("LOCATION", 0, 10, 0.5, OTHER_ENTITY), ("PERSON", 2, 5, 0.5, CUE)],
        ),
        # the same span from two recognizers: the one that is not names_only, in either order
        ([("PERSON", 0, 10, 0.5, NAMES_ONLY), ("PERSON", 0, 10, 0.5, CUE)], [("PERSON", 0, 10, 0.5, CUE)]),
        ([("PERSON", 0, 10, 0.5, CUE), ("PERSON", 0, 10, 0.5, NAMES_ONLY)], [("PERSON", 0, 10, 0.5, CUE)]),
    ],
)
def test_overlapping_findings(findings: list, kept: list) -> None:  # type: ignore[type-arg]
    assert _without_duplicates(findings) == kept

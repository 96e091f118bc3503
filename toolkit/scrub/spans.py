"""A span of a text that a unit found: what the engine, the filters and the adjusters pass along."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    entity: str
    start: int
    end: int
    score: float
    source: str = ""
    """The unit that found it: a recognizer's name, or `NER`."""
    adjusted: tuple[str, ...] = ()
    """The span adjusters that changed it (`toolkit.scrub.adjusters`), in the order they did."""

"""The layouts the parser knows, and detection: each layout scores a document; the best score wins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolkit.parse import github_api, json_resume, resume, talent_page
from toolkit.parse.document import Document, ParsedProfile, Reject
from toolkit.rules import ParsingRules


@dataclass(frozen=True, slots=True)
class Layout:
    name: str
    detect: Callable[[list[str]], int]
    """A score: 0 means "not this layout"; higher means more of the layout's fixed markers were seen."""
    parse: Callable[[Document, ParsingRules], ParsedProfile | Reject]


LAYOUTS: tuple[Layout, ...] = (
    Layout(talent_page.LAYOUT, talent_page.detect, talent_page.parse),
    Layout(resume.LAYOUT, resume.detect, resume.parse),
)


DOCUMENT_FORMATS: dict[str, tuple[Callable[[Any], bool], Callable[[Any, ParsingRules], ParsedProfile]]] = {
    json_resume.LAYOUT: (json_resume.detect, json_resume.parse),
    github_api.LAYOUT: (github_api.detect, github_api.parse),
}
"""The JSON formats: a layout name -> (does this JSON document have the format?, parse it)."""


def detect_layout(lines: list[str]) -> Layout | None:
    """The layout with the highest positive score; on a tie, the one registered first."""
    best, best_score = None, 0
    for layout in LAYOUTS:
        score = layout.detect(lines)
        if score > best_score:
            best, best_score = layout, score
    return best

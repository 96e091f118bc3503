"""Layout detection: each layout recognises its own documents and not the other's or plain prose."""

from __future__ import annotations

import pytest

from toolkit.parse.registry import LAYOUTS, detect_layout
from toolkit.text import clean_lines
from tools.profiles import profiles


@pytest.mark.parametrize(
    ("text", "layout"),
    [
        ("Ada Byron\nData Engineer at Ironbark\nLisbon, Portugal\nSummary\nAda is great.", "talent_page"),
        ("Ada Byron\nGithub Skills (2)\npython9\nrust8", "talent_page"),
        ("Experience\n\nEngineer\n- Built things.\n\nIronbark", "resume"),
        (
            "Engineer\n- Built things.\n- Fixed things.\n\nIronbark Data\n\nIntern\n- Learned.",
            "resume",
        ),  # no heading
        ("# Notes\n\n- one\n- two\n\nSome paragraph of prose that goes on.\n", None),  # markdown is no résumé
        ("Dear hiring manager,\nplease find my CV attached.", None),
        ("", None),
    ],
)
def test_detect_layout(text: str, layout: str | None) -> None:
    detected = detect_layout(clean_lines(text))
    assert (detected.name if detected else None) == layout


def test_every_generated_document_is_detected_as_its_own_layout() -> None:
    for doc in profiles(100, seed=3):
        detected = detect_layout(clean_lines(doc.text))
        assert detected is not None
        assert detected.name == doc.layout


def test_layout_names_are_unique() -> None:
    names = [layout.name for layout in LAYOUTS]
    assert len(names) == len(set(names)) == 2

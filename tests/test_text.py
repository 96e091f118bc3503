"""toolkit.text: the normalization every layout's lines go through."""

from __future__ import annotations

import pytest

from toolkit.text import clean_lines, unspaced


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("T E M I T O P E   A J A Y I - C O L E", "TEMITOPE AJAYI-COLE"),
        ("S K I L L S", "SKILLS"),
        ("A B C", "A B C"),  # too short to be a letter-spaced word
        ("Grades A B C D", "Grades A B C D"),
        ("x86 a b c d", "x86 a b c d"),
    ],
)
def test_a_letter_spaced_line_becomes_its_words(line: str, expected: str) -> None:
    assert unspaced(line) == expected


def test_lines_are_unspaced_before_their_white_space_is_folded() -> None:
    assert clean_lines("J O H A N N A   M A L M S T R Ö M\n\nData  Engineer") == [
        "JOHANNA MALMSTRÖM", "", "Data Engineer",
    ]  # fmt: skip

"""A pattern's screen: strings one of which every text it matches holds, read off the pattern; a text
holding none is not read by the pattern, and what the recognizers find is the same with screens and without."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.screens import Screen, required_literals


@pytest.mark.parametrize(
    ("pattern", "required"),
    [
        (r"\b(?:foo|bar)baz\d+", {"foobaz", "barbaz"}),
        (r"(?<=\bborn:\s)\d{4}", {"born:"}),  # a look-behind's content: the text holds it
        (r"\p{Lu}\p{Ll}+ Street\b", {" Street"}),
        (r"[\p{L}\p{N}._-]+@[\p{L}\p{N}-]+", {"@"}),  # a class with a Unicode property says nothing
        (r"(?:ab|cd)?ef", {"abef", "cdef", "ef"}),  # an optional part: with it or without
        (r"x{2,3}y?", {"x"}),
        (r"(?i:Dr|Prof)\.\s\p{Lu}", {"Dr.", "Prof."}),
        (r"[ab]c", {"ac", "bc"}),  # a small class: its characters
        (r"[a-z]c", {"c"}),  # a wide one: nothing
        (r"(?=.*@)\w+", {"@"}),  # a look-ahead's content
        (r"a?b*", None),
        (r"(?!foo)\w+", None),  # a negative look-around needs nothing
        (r"foo|\d+", None),  # an alternative that needs nothing
        (r"[^@]+", None),
        (r"(?:foo){e<=1}", None),  # fuzzy: `regex` reads it otherwise
        (r"[[:alpha:]]+x", None),  # a POSIX class
        (r"\Gfoo", None),
        (r"foo\Kbar", None),
        (r"(?f)(?i)strasse", None),  # full case folding
        (r"(?<=x", None),  # never closes
    ],
)
def test_the_required_strings_of_a_pattern(pattern: str, required: set[str] | None) -> None:
    assert required_literals(pattern) == (frozenset(required) if required is not None else None)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"(?i)\bstr\.", "\u017ftr. 4"),  # the long s is an s to `regex` ignoring case
        (r"(?i)linkedin:", "L\u0130NKED\u0130N: ada"),  # so is the dotted capital I an i
        (r"(?i)kelvin", "\u212aELVIN"),  # the Kelvin sign a k
        (r"(?i)σοφία", "ΣΟΦΊΑ"),
        (r"(?i)όνομα:", "ΌΝΟΜΑ:"),
        (r"(?i:straße)\s\d", "STRAßE 5"),
        (r"Strasse", "Strasse 5"),
    ],
)
def test_a_screen_compares_as_regex_does_ignoring_case(pattern: str, text: str) -> None:
    assert regex.search(pattern, text)
    assert required_literals(pattern) is not None
    assert Screen([required_literals(pattern)]).possible([text]) == [(True,)]


def test_a_screen_rules_out_texts_without_the_strings() -> None:
    screen = Screen([frozenset({"@"}), None, frozenset({"street", "road"})])
    assert screen.possible(["no handle here", "ada@example.org", "12 Mill ROAD"]) == [
        (False, True, False),
        (True, True, False),
        (False, True, True),
    ]
    assert screen.possible([]) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAbBiI\u0130\u0131\u017fsSKk\u212a@. -:"), max_size=20))
def test_a_screen_never_rules_out_a_text_the_pattern_matches(text: str) -> None:
    patterns = [r"(?i)is\b", r"(?i)k[ai]@", r"ab:|(?i:si)", r"(?<=\bbi)\s?@"]
    screen = Screen([required_literals(p) for p in patterns])
    for pattern, possible in zip(patterns, screen.possible([text])[0], strict=True):
        if regex.search(pattern, text):
            assert possible, (pattern, text)

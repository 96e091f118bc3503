"""A word NER took for a person or a place, judged by the tool around it: the name it is part of, the
list it is an item of; and what NER alone may teach the rest of a record."""

from __future__ import annotations

from collections.abc import Hashable

import pytest

from toolkit.scrub.engine import _LOWER_CASE_ONLY
from toolkit.scrub.text import Seeds, TextScrubber
from toolkit.scrub.tools import in_tool_list, in_tool_name

ALLOWED = frozenset({"gitlab ci", "power bi", "unreal engine", "jira", "grafana", "prometheus", "junit"})


@pytest.mark.parametrize(
    ("text", "word", "part_of_a_tool"),
    [
        ("CI on GitLab CI and Jenkins", "CI", True),
        ("Dashboards in Power BI, daily", "BI", True),
        ("Unreal Engine 5 gameplay", "Engine", True),
        ("Power, BI and more", "BI", False),  # a comma between: two words, not one name
        ("GitLab\nCI", "CI", False),  # another line
        ("Met Ana in Lisbon", "Lisbon", False),
    ],
)
def test_in_tool_name(text: str, word: str, part_of_a_tool: bool) -> None:
    start = text.rindex(word)
    assert in_tool_name(text, start, start + len(word), ALLOWED) is part_of_a_tool


def _is_tool(item: str) -> bool:
    return item.lower().rstrip(" 0123456789") in ALLOWED


@pytest.mark.parametrize(
    ("text", "word", "share", "item_of_tools"),
    [
        ("Observability: Grafana, Loki, Prometheus, Jira", "Loki", 2 / 3, True),
        ("Observability: Grafana · Loki · Prometheus", "Loki", 1.0, True),
        ("Testing: JUnit 5 | Mockito | Jira", "Mockito", 1.0, True),
        ("Grafana, Loki", "Loki", 2 / 3, False),  # two items are no list
        ("Berlin | +49 30 000 | Grafana", "Berlin", 1.0, False),  # most others are no tools
        ("Team: Ana Lima, Bo Chen, Grafana", "Bo Chen", 2 / 3, False),
        (
            "Grafana, Jira, Prometheus, worked with Loki on dashboards",
            "Loki",
            2 / 3,
            False,
        ),  # not a whole item
    ],
)
def test_in_tool_list(text: str, word: str, share: float, item_of_tools: bool) -> None:
    start = text.rindex(word)
    assert in_tool_list(text, start, start + len(word), _is_tool, share) is item_of_tools


@pytest.mark.parametrize(
    ("span", "english"),
    [
        ("Power Pivot", True),
        ("Control Tower", True),
        ("Crystal Reports", False),  # Crystal is a given name
        ("Manual Tester", False),  # so is Manual, in the Census lists
        ("Dean Chase", False),  # a given name first
        ("Brannagh Moss", False),  # a word that is no English word
        ("Moss", False),  # one word
    ],
)
def test_named_by_english_words(span: str, english: bool, scrubber: TextScrubber) -> None:
    assert scrubber.tools.named_by_english_words(span, scrubber.allow_list) is english


@pytest.mark.parametrize(
    ("run", "lower_case"),
    [
        ("de datos", True),
        ("para", True),
        ("Ana Lima", False),
        ("田中", False),
        ("van Dijk", False),
        ("ngawang.sherpa", False),  # an account: a name
    ],
)
def test_lower_case_only(run: str, lower_case: bool) -> None:
    assert bool(_LOWER_CASE_ONLY.fullmatch(run)) is lower_case


@pytest.mark.parametrize(
    "text",
    [
        "Tools: Python, Docker, Kubernetes, ada.byron@example.org",
        "Stack: Grafana | Prometheus | Jira | 12 Rue Cler",
    ],
)
def test_contacts_listed_among_tools_are_still_replaced(text: str, scrubber: TextScrubber) -> None:
    (out,) = scrubber.scrub([("record", text)]).texts
    assert "example.org" not in out
    assert "Rue Cler" not in out


def test_a_given_name_before_a_known_surname_goes_with_it(scrubber: TextScrubber) -> None:
    text = "Dashboards used daily by Ray Chukwuemeka's underwriting group."
    seeds: dict[Hashable, Seeds] = {"record": Seeds(own_names=("Ada Byron",), other_people=("Chukwuemeka",))}
    (out,) = scrubber.scrub([("record", text)], seeds).texts
    assert "Ray" not in out
    assert "Chukwuemeka" not in out

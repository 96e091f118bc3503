"""Span filters: the named rules that keep a span found as a person or a place out of the replacements,
because it names a tool, a product or a job ('Power BI', 'Katalon Studio', 'Grafana, Loki, Tempo').

NER and the name recognizers find many tools; a tool taken for a person would be replaced in every mention
of the record. Each filter is one unit: a name (`rules.SpanFilterName`), the entities it judges, and a
test over the span in its text. `rules/recognizers.yaml` switches each on or off (`filters:`), and the
report counts the spans each kept out. They are tried in the order of `FILTERS`; the first that rejects
a span is the one counted. `certain_person` is the exception: a span it vouches for is replaced whatever
the filters say.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container
from dataclasses import dataclass

from toolkit.rules import SPAN_FILTERS, SpanFilterName
from toolkit.scrub.spans import Span
from toolkit.scrub.tools import (
    ToolJudge,
    given_name_first,
    in_tool_list,
    in_tool_name,
    named_by_allowed_words,
)
from toolkit.text import fold

_Test = Callable[[ToolJudge, Span, str, str, Container[str]], bool]
"""(judge, span, its text, the span's value, the record's allow-list) -> whether the filter applies."""

PERSON_OR_PLACE = frozenset({"PERSON", "LOCATION"})


@dataclass(frozen=True)
class SpanFilter:
    name: SpanFilterName
    entities: frozenset[str]
    test: _Test


def _certain_person(judge: ToolJudge, span: Span, text: str, value: str, allowed: Container[str]) -> bool:
    """A recognizer certain from the sentence ('Julia Rust reviewed ...': score 1), or a given name before
    a capitalised word that are not one allowed term together ('Maria Python'; not 'Travis CI')."""
    return span.score >= 1 or (given_name_first(value, judge.first_names) and fold(value) not in allowed)


def _allowed_words(judge: ToolJudge, span: Span, text: str, value: str, allowed: Container[str]) -> bool:
    """Allowed words (for a person, everyday words too: nobody is named 'Engineering Manager'), the
    lower-case words of other languages between them ('Java ve Hibernate'), words written as software."""
    everyday = judge.common_words if span.entity == "PERSON" else ()
    return named_by_allowed_words(value, allowed, everyday, judge.first_names)


def _product_name(judge: ToolJudge, span: Span, text: str, value: str, allowed: Container[str]) -> bool:
    return judge.named_as_product(value, allowed)


def _english_words(judge: ToolJudge, span: Span, text: str, value: str, allowed: Container[str]) -> bool:
    return judge.named_by_english_words(value, allowed)


def _listed_with_a_tool(judge: ToolJudge, span: Span, text: str, value: str, allowed: Container[str]) -> bool:
    """A single word with a tool beside it in a list; a place needs one on each side, and a given name
    is never judged so ('Kafka and Marzieh's benchmarks')."""
    if span.entity == "LOCATION":
        return judge.among_tools(span, text, allowed, both=True)
    return value not in judge.first_names and judge.among_tools(span, text, allowed)


def _inside_a_tool_name(judge: ToolJudge, span: Span, text: str, value: str, allowed: Container[str]) -> bool:
    """Part of an allowed term written across it ('GitLab CI'), unless a word of it is a given name."""
    return not judge.holds_given_name(value) and in_tool_name(text, span.start, span.end, allowed)


def _item_of_a_tool_list(
    judge: ToolJudge, span: Span, text: str, value: str, allowed: Container[str]
) -> bool:
    """An item of a list of three or more whose other items are tools: half of them (two at least) for a
    person, all of them for a place ('Berlin | +49 30 000 | Python' keeps Berlin a place); never a span
    with a given name."""
    if judge.holds_given_name(value):
        return False
    person = span.entity == "PERSON"  # for a place, codes are parts of its address ('Apt 5B', 'H2W 1T2')
    return in_tool_list(
        text,
        span.start,
        span.end,
        lambda item: judge.is_tool_item(item, allowed, person),
        1 / 2 if person else 1.0,
    )


FILTERS: tuple[SpanFilter, ...] = (
    SpanFilter("certain_person", frozenset({"PERSON"}), _certain_person),
    SpanFilter("allowed_words", PERSON_OR_PLACE, _allowed_words),
    SpanFilter("product_name", PERSON_OR_PLACE, _product_name),
    SpanFilter("english_words", frozenset({"PERSON"}), _english_words),
    SpanFilter("listed_with_a_tool", PERSON_OR_PLACE, _listed_with_a_tool),
    SpanFilter("inside_a_tool_name", PERSON_OR_PLACE, _inside_a_tool_name),
    SpanFilter("item_of_a_tool_list", PERSON_OR_PLACE, _item_of_a_tool_list),
)
assert tuple(f.name for f in FILTERS) == SPAN_FILTERS, "every filter of the rules, in their order"
BY_NAME = {f.name: f for f in FILTERS}


class SpanFilters:
    """The filters switched on, tried in order over spans, with one judge's vocabularies."""

    def __init__(self, judge: ToolJudge, enabled: Collection[str] = SPAN_FILTERS) -> None:
        self.judge = judge
        self.certain = BY_NAME["certain_person"] if "certain_person" in enabled else None
        self.filters = [f for f in FILTERS if f.name in enabled and f.name != "certain_person"]

    def verdict(self, span: Span, text: str, allowed: Container[str]) -> tuple[bool, SpanFilterName | None]:
        """(whether `span` is kept out of the replacements, the unit that decided): the filter that kept
        it out, or `certain_person` where it vouched for a span a filter would have kept out; None where
        no unit applied. `allowed` is the record's allow-list (with its own technical words)."""
        if span.entity not in PERSON_OR_PLACE:
            return False, None  # a contact, an address, a number: never a tool
        value = text[span.start : span.end]
        judge = self.judge
        rejecting = next(
            (
                f.name
                for f in self.filters
                if span.entity in f.entities and f.test(judge, span, text, value, allowed)
            ),
            None,
        )
        if rejecting is None:
            return False, None
        certain = self.certain
        if (
            certain is not None
            and span.entity in certain.entities
            and certain.test(judge, span, text, value, allowed)
        ):
            return False, certain.name
        return True, rejecting

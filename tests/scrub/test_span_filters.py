"""The span filters, each alone: a case table per filter of spans it applies to and spans it does not, with
the repository's vocabularies and no NLP model; then how they combine (order, the exception, switches)."""

from __future__ import annotations

from collections import Counter

import pytest

from toolkit.rules import SPAN_FILTERS, PrivacyRules
from toolkit.scrub.filters import BY_NAME, FILTERS, SpanFilters
from toolkit.scrub.spans import Span
from toolkit.scrub.text import Seeds, TextScrubber
from toolkit.scrub.tools import ToolJudge


@pytest.fixture(scope="module")
def judge(privacy_rules: PrivacyRules) -> ToolJudge:
    rules = privacy_rules
    return ToolJudge(
        rules.common_words,
        rules.first_names,
        rules.first_names | rules.technical_given_names,
        rules.english_words,
        rules.product_words,
        rules.vendors,
    )


def _span(text: str, value: str, entity: str = "PERSON", score: float = 0.85) -> Span:
    start = text.rindex(value)
    return Span(entity, start, start + len(value), score)


CASES = [
    # filter, entity, text, the span's value, its score, whether the filter applies
    ("certain_person", "PERSON", "Maria Python reviewed the patch", "Maria Python", 0.85, True),
    ("certain_person", "PERSON", "Builds on Grafana daily", "Grafana", 1.0, True),
    ("certain_person", "PERSON", "Reviewed by Stan Kafka today", "Stan Kafka", 0.85, True),
    ("certain_person", "PERSON", "Builds on Travis CI daily", "Travis CI", 0.85, False),
    ("certain_person", "PERSON", "Dashboards in Grafana", "Grafana", 0.85, False),
    ("allowed_words", "PERSON", "Dashboards in Power BI", "Power BI", 0.85, True),
    ("allowed_words", "PERSON", "Promoted to Engineering Manager", "Engineering Manager", 0.85, True),
    ("allowed_words", "PERSON", "Migrated Java ve Hibernate code", "Java ve Hibernate", 0.85, True),
    ("allowed_words", "PERSON", "Pipelines in PySpark", "PySpark", 0.85, True),
    ("allowed_words", "PERSON", "Paired with Ana Lima", "Ana Lima", 0.85, False),
    ("allowed_words", "LOCATION", "Moved to Engineering Manager", "Engineering Manager", 0.85, False),
    ("product_name", "PERSON", "Tests in Katalon Studio", "Katalon Studio", 0.85, True),
    ("product_name", "PERSON", "Loaded into Amazon Redshift", "Amazon Redshift", 0.85, True),
    ("product_name", "PERSON", "Procurement in SAP Ariba", "SAP Ariba", 0.85, True),
    ("product_name", "LOCATION", "Lives in Spring Valley", "Spring Valley", 0.85, False),
    ("product_name", "PERSON", "Reviewed by Django Mwale", "Django Mwale", 0.85, False),
    ("english_words", "PERSON", "Reports in Power Pivot", "Power Pivot", 0.85, True),
    ("english_words", "PERSON", "Shipped Control Tower", "Control Tower", 0.85, True),
    ("english_words", "PERSON", "Mentored by Dean Chase", "Dean Chase", 0.85, False),
    ("english_words", "PERSON", "Mentored by Brannagh Moss", "Brannagh Moss", 0.85, False),
    ("listed_with_a_tool", "PERSON", "Monitoring with Wireshark and Zeek", "Zeek", 0.85, True),
    ("listed_with_a_tool", "PERSON", "Kafka and Marzieh's benchmarks", "Marzieh", 0.85, False),
    ("listed_with_a_tool", "LOCATION", "Stack: Grafana, Loki, Kubernetes", "Loki", 0.85, True),
    ("listed_with_a_tool", "LOCATION", "Kubernetes, Berlin", "Berlin", 0.85, False),
    ("inside_a_tool_name", "PERSON", "CI on GitLab CI and Jenkins", "CI", 0.85, True),
    ("inside_a_tool_name", "PERSON", "Dashboards in Power BI, daily", "BI", 0.85, True),
    ("inside_a_tool_name", "PERSON", "GitLab\nCI", "CI", 0.85, False),
    ("inside_a_tool_name", "LOCATION", "Met Ana in Lisbon", "Lisbon", 0.85, False),
    ("item_of_a_tool_list", "PERSON", "Observability: Grafana, Loki, Prometheus, Jira", "Loki", 0.85, True),
    ("item_of_a_tool_list", "PERSON", "Team: Ana Lima, Bo Chen, Grafana", "Bo Chen", 0.85, False),
    ("item_of_a_tool_list", "LOCATION", "Berlin | +49 30 000 | Grafana", "Berlin", 0.85, False),
    ("item_of_a_tool_list", "LOCATION", "Observability: Grafana · Loki · Prometheus", "Loki", 0.85, True),
]


@pytest.mark.parametrize(("name", "entity", "text", "value", "score", "applies"), CASES)
def test_each_filter_alone(
    name: str,
    entity: str,
    text: str,
    value: str,
    score: float,
    applies: bool,
    judge: ToolJudge,
    privacy_rules: PrivacyRules,
) -> None:
    unit = BY_NAME[name]  # type: ignore[index]
    assert entity in unit.entities
    span = _span(text, value, entity, score)
    assert unit.test(judge, span, text, value, privacy_rules.allow_list) is applies


def test_every_filter_has_cases_both_ways() -> None:
    for unit in FILTERS:
        outcomes = {applies for name, *_, applies in CASES if name == unit.name}
        assert outcomes == {True, False}, unit.name


def test_filters_run_in_the_order_of_the_rules() -> None:
    assert tuple(unit.name for unit in FILTERS) == SPAN_FILTERS


def test_the_first_filter_that_applies_is_the_one_counted(
    judge: ToolJudge, privacy_rules: PrivacyRules
) -> None:
    text = "Dashboards in Power BI, daily"
    allowed = privacy_rules.allow_list
    every = SpanFilters(judge)
    assert every.verdict(_span(text, "Power BI"), text, allowed) == (True, "allowed_words")
    assert every.verdict(_span(text, "BI"), text, allowed) == (True, "inside_a_tool_name")
    without = SpanFilters(judge, set(SPAN_FILTERS) - {"allowed_words"})
    assert without.verdict(_span(text, "Power BI"), text, allowed) == (False, None)


def test_a_certain_person_is_replaced_against_the_filters(
    judge: ToolJudge, privacy_rules: PrivacyRules
) -> None:
    text = "Observability: Grafana, Loki, Prometheus, Jira"
    span = _span(text, "Loki", score=1.0)
    assert SpanFilters(judge).verdict(span, text, privacy_rules.allow_list) == (False, "certain_person")
    without = SpanFilters(judge, set(SPAN_FILTERS) - {"certain_person"})
    assert without.verdict(span, text, privacy_rules.allow_list) == (True, "listed_with_a_tool")


@pytest.mark.parametrize("entity", ["EMAIL_ADDRESS", "PHONE_NUMBER", "STREET_ADDRESS", "ORGANIZATION"])
def test_only_persons_and_places_are_judged(
    entity: str, judge: ToolJudge, privacy_rules: PrivacyRules
) -> None:
    text = "Dashboards in Power BI"
    assert SpanFilters(judge).verdict(_span(text, "Power BI", entity), text, privacy_rules.allow_list) == (
        False,
        None,
    )


def test_with_every_filter_off_nothing_is_kept_out(judge: ToolJudge, privacy_rules: PrivacyRules) -> None:
    none = SpanFilters(judge, ())
    decided: Counter[bool] = Counter()
    for _, entity, text, value, score, _ in CASES:
        kept_out, unit = none.verdict(_span(text, value, entity, score), text, privacy_rules.allow_list)
        decided[kept_out] += 1
        assert unit is None
    assert decided == {False: len(CASES)}


def test_the_units_that_decided_are_counted(scrubber: TextScrubber) -> None:
    result = scrubber.scrub(
        [("one", "Mail maria.okafor@example.org; dashboards in Power BI with Maria Okafor")],
        {"one": Seeds(own_names=("Maria Okafor",))},
    )
    assert "<EMAIL_ADDRESS_" in result.texts[0]
    assert "Power BI" in result.texts[0]
    assert result.recognizers["email"] == 1
    assert sum(result.recognizers.values()) >= result.entities["EMAIL_ADDRESS"]
    assert set(result.span_filters) <= set(SPAN_FILTERS)


def test_a_person_named_like_tools_is_replaced_only_with_the_exception(scrubber: TextScrubber) -> None:
    """The measured sets hold no such person (switching `certain_person` off changes none of their
    figures): this is the class it guards."""
    text = "Julia Rust reviewed the bindings; thanks to Stan Kafka for the benchmarks"
    every = scrubber.scrub([("one", text)])
    assert "Julia Rust" not in every.texts[0]
    assert "Stan Kafka" not in every.texts[0]
    assert every.span_filters["certain_person"] >= 2
    saved = scrubber.filters
    scrubber.filters = SpanFilters(scrubber.tools, set(SPAN_FILTERS) - {"certain_person"})
    try:
        without = scrubber.scrub([("one", text)])
    finally:
        scrubber.filters = saved
    assert "Julia Rust" in without.texts[0]
    assert "Stan Kafka" in without.texts[0]

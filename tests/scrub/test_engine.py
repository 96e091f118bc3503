"""The analysis engine: NER with nothing but the NER component, the same entities as the full pipeline,
and the same spans whether one process or several do the work."""

from __future__ import annotations

import pytest
import spacy

from toolkit.rules import NlpSettings, PrivacyRules
from toolkit.scrub.engine import NER_ENTITIES, Engine, Span, engine_for
from toolkit.scrub.text import TextScrubber

TEXTS = [
    "Kenji Ueda moved from Osaka to Berlin to join Siemens as a compiler engineer.",
    "Worked with Abigaíl Perea and Thành Nguyễn on Kafka pipelines at Northwind Labs.",
    "Supervised by Dr. Ana de la Cruz at the University of Porto; mail ana.cruz@example.org.",
    "Built Triton kernels for GPUs; call +351 912 345 678 about the Lisbon meetup.",
    "Oluwaseun Osei's talk at PyCon Lagos covered XLA and Apache Spark.",
    "MARIA JÚLIA DA MATA leads the platform team in São Paulo for Nubank.",
]
_LABELS = {"PERSON": "PERSON", "GPE": "LOCATION", "LOC": "LOCATION", "FAC": "LOCATION", "ORG": "ORGANIZATION"}


def test_only_the_ner_component_runs(scrubber: TextScrubber) -> None:
    assert scrubber.engine.ner.pipe_names == ["ner"]


def test_ner_alone_finds_what_the_full_pipeline_finds(scrubber: TextScrubber) -> None:
    full = spacy.load(scrubber.engine.settings.model)
    expected = [
        [Span(_LABELS[e.label_], e.start_char, e.end_char, 0.85) for e in doc.ents if e.label_ in _LABELS]
        for doc in full.pipe(TEXTS)
    ]
    found = scrubber.engine.named_entities(TEXTS)
    assert found == expected
    assert {span.entity for spans in found for span in spans} <= set(NER_ENTITIES)
    assert any(span.entity == "PERSON" for spans in found for span in spans)


def test_forked_workers_give_the_same_spans_in_the_same_order(
    scrubber: TextScrubber, privacy_rules: PrivacyRules
) -> None:
    texts = TEXTS * 5
    one = scrubber.engine
    assert one.settings.processes == 2
    assert len(texts) < one.settings.min_texts_per_process
    shared = engine_for(
        NlpSettings(model=one.settings.model, processes=2, min_texts_per_process=1),
        privacy_rules.recognizers,
        privacy_rules.first_names,
        privacy_rules.allow_list,
    )
    assert shared is not one
    assert shared.analyze(texts) == one.analyze(texts)
    assert shared.named_entities(texts) == one.named_entities(texts)


def test_progress_is_reported_for_every_text(scrubber: TextScrubber) -> None:
    done: list[int] = []
    scrubber.engine.named_entities(TEXTS, done.append)
    assert sum(done) == len(TEXTS)


@pytest.mark.parametrize("ner", [True, False])
def test_recognizers_run_with_or_without_ner(ner: bool, scrubber: TextScrubber) -> None:
    (spans,) = scrubber.engine.analyze(["Mail ana.cruz@example.org about the office in Osaka."], ner=ner)
    entities = {span.entity for span in spans}
    assert "EMAIL_ADDRESS" in entities
    assert ("LOCATION" in entities) is ner


def test_an_engine_without_recognizers_still_runs_ner(privacy_rules: PrivacyRules) -> None:
    engine = Engine(privacy_rules.policy.nlp, ())
    (spans,) = engine.analyze(["Kenji Ueda moved to Osaka."])
    assert {span.entity for span in spans} <= set(NER_ENTITIES)
    assert spans

"""The analysis engine: NER with nothing but the NER component, the same entities as the full pipeline,
and texts of any length read in pieces that keep their offsets."""

from __future__ import annotations

import pytest
import spacy
from spacy.language import Language

from toolkit.rules import PrivacyRules
from toolkit.scrub.engine import MAX_NER_CHARS, NER_ENTITIES, NER_SCORE, Engine, _pieces
from toolkit.scrub.spans import Span
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


def _ner(engine: Engine) -> Language:
    assert engine.ner is not None
    return engine.ner


def test_only_the_ner_component_runs(scrubber: TextScrubber) -> None:
    assert _ner(scrubber.engine).pipe_names == ["ner"]


def test_ner_alone_finds_what_the_full_pipeline_finds(scrubber: TextScrubber) -> None:
    full = spacy.load(scrubber.engine.settings.model)
    expected = [
        [
            Span(_LABELS[e.label_], e.start_char, e.end_char, 0.85, "NER")
            for e in doc.ents
            if e.label_ in _LABELS
        ]
        for doc in full.pipe(TEXTS)
    ]
    found = scrubber.engine.named_entities(TEXTS)
    assert found == expected
    assert {span.entity for spans in found for span in spans} <= set(NER_ENTITIES)
    assert any(span.entity == "PERSON" for spans in found for span in spans)


@pytest.mark.slow
def test_a_text_longer_than_spacys_limit_is_read_in_pieces_with_offsets_kept(scrubber: TextScrubber) -> None:
    filler = "the compiler team tuned kernels for weeks. " * 30_000  # 1.3 million characters
    text = filler + "Kenji Ueda moved from Osaka to Berlin."
    assert len(text) > _ner(scrubber.engine).max_length
    (spans,) = scrubber.engine.named_entities([text])
    found = {text[span.start : span.end] for span in spans}
    assert {"Kenji Ueda", "Osaka", "Berlin"} <= found


@pytest.mark.parametrize("length", [10, MAX_NER_CHARS, MAX_NER_CHARS + 1, 3 * MAX_NER_CHARS + 7])
def test_pieces_cover_the_text_exactly_and_are_never_too_long(length: int) -> None:
    text = ("abc de " * length)[:length]
    pieces = _pieces(text)
    assert "".join(piece for _, piece in pieces) == text
    assert all(text[offset : offset + len(piece)] == piece for offset, piece in pieces)
    assert all(len(piece) <= MAX_NER_CHARS for _, piece in pieces)


@pytest.mark.parametrize("ner", [True, False])
def test_recognizers_run_with_or_without_ner(ner: bool, scrubber: TextScrubber) -> None:
    (spans,) = scrubber.engine.analyze(["Mail ana.cruz@example.org about the office in Osaka."], ner=ner)
    entities = {span.entity for span in spans}
    assert "EMAIL_ADDRESS" in entities
    assert "LOCATION" in entities  # the place recognizer knows Osaka, with or without NER
    assert any(span.entity == "LOCATION" and span.score == NER_SCORE for span in spans) is ner


def test_an_engine_with_ner_switched_off_loads_no_model_and_finds_no_entity(
    privacy_rules: PrivacyRules,
) -> None:
    engine = Engine(privacy_rules.policy.nlp, privacy_rules.recognizers, ner=False)
    assert engine.ner is None
    assert engine.named_entities(["Kenji Ueda moved to Osaka."]) == [[]]
    (spans,) = engine.analyze(["Kenji Ueda moved to Osaka; mail kenji.ueda@example.org"])
    sources = {span.source for span in spans}
    assert "email" in sources
    assert "NER" not in sources


def test_an_engine_without_recognizers_still_runs_ner(privacy_rules: PrivacyRules) -> None:
    engine = Engine(privacy_rules.policy.nlp, ())
    (spans,) = engine.analyze(["Kenji Ueda moved to Osaka."])
    assert {span.entity for span in spans} <= set(NER_ENTITIES)
    assert spans


def test_the_words_ner_meets_are_forgotten_after_each_call(scrubber: TextScrubber) -> None:
    engine = scrubber.engine
    engine.named_entities(["Warm-up text for Ada Byron."])
    before = len(_ner(engine).vocab.strings)
    names = [
        f"Zqx{chr(97 + i)}wert Vlorbik{chr(97 + j)}an met Kraszt{i}{j} in Pelvos."
        for i in range(8)
        for j in range(8)
    ]
    found = engine.named_entities(names)
    assert len(found) == len(names)
    assert len(_ner(engine).vocab.strings) == before

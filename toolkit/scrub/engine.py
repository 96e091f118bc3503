"""Presidio, set up once per process and offline, for the free text of developer profiles.

- spaCy runs NER only (tagger, parser, lemmatizer, attribute ruler and senter excluded, and the shared
  tok2vec that only they listen to: the same entities at about four times the speed), loaded from an
  installed package: no model download.
- No recognizer that reaches the network: e-mails and URLs are pattern recognizers from
  `rules/recognizers.yaml` (Presidio's own e-mail recognizer would fetch a public-suffix list).
- NER runs in batches through spaCy's `nlp.pipe`; with many texts, this process and forked workers share
  the work (recognizers and NER), the workers sending back only spans.
"""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import regex
import spacy
from presidio_analyzer import (
    AnalyzerEngine,
    EntityRecognizer,
    Pattern,
    PatternRecognizer,
    RecognizerRegistry,
    RecognizerResult,
)
from presidio_analyzer.context_aware_enhancers import ContextAwareEnhancer
from presidio_analyzer.nlp_engine import NerModelConfiguration, NlpArtifacts, SpacyNlpEngine
from spacy.tokens import Doc

from toolkit.detectors import VALIDATORS
from toolkit.errors import RulesError
from toolkit.rules import PRIVACY_FILE, NlpSettings, RecognizerSpec
from toolkit.scrub.gazetteer import FirstNameRecognizer

_NOT_NER = ["tagger", "parser", "lemmatizer", "attribute_ruler", "senter", "tok2vec_morph"]
_SPACY_TO_PRESIDIO = {
    "PERSON": "PERSON",
    "PER": "PERSON",
    "GPE": "LOCATION",
    "LOC": "LOCATION",
    "FAC": "LOCATION",
    "ORG": "ORGANIZATION",
}
NER_ENTITIES = ("PERSON", "LOCATION", "ORGANIZATION")
NER_SCORE = 0.85
"""The score Presidio's spaCy recognizer gives every entity (spaCy gives none)."""


Advance = Callable[[int], None]


def _no_progress(done: int) -> None:
    """Progress is not shown."""


@dataclass(frozen=True, slots=True)
class Span:
    entity: str
    start: int
    end: int
    score: float


class _NerOnlySpacyEngine(SpacyNlpEngine):
    """Presidio's spaCy engine, loading an installed pipeline with only its NER component."""

    def __init__(self, model: str) -> None:
        configuration = NerModelConfiguration(
            model_to_presidio_entity_mapping=_SPACY_TO_PRESIDIO,
            labels_to_ignore=["CARDINAL", "DATE", "EVENT", "LANGUAGE", "LAW", "MONEY", "NORP", "ORDINAL",
                              "PERCENT", "PRODUCT", "QUANTITY", "TIME", "WORK_OF_ART"],
            low_score_entity_names=[],
        )  # fmt: skip
        super().__init__(
            models=[{"lang_code": "en", "model_name": model}], ner_model_configuration=configuration
        )
        self.model = model

    def load(self) -> None:
        try:
            nlp = spacy.load(self.model, exclude=_NOT_NER)
        except OSError:
            raise RulesError(
                PRIVACY_FILE, "nlp.model", f"{self.model!r} is not an installed spaCy pipeline"
            ) from None
        for name, component in list(nlp.pipeline):
            # A shared embedding layer (tok2vec) that no kept component listens to: NER has its own.
            if hasattr(component, "listening_components") and not component.listening_components:
                nlp.remove_pipe(name)
        self.nlp = {"en": nlp}  # type: ignore[assignment]


class _NoContext(ContextAwareEnhancer):
    """No recognizer here declares context words, so Presidio's lemma-based enhancer (which deep-copies
    every result of every text) has nothing to do."""

    def __init__(self) -> None:
        super().__init__(
            context_similarity_factor=0.0,
            min_score_with_context_similarity=0.0,
            context_prefix_count=0,
            context_suffix_count=0,
        )

    def enhance_using_context(
        self,
        text: str,
        raw_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts,
        recognizers: list[EntityRecognizer],
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        return raw_results


class _ValidatedPatternRecognizer(PatternRecognizer):
    """A pattern recognizer whose matches must pass a check (Luhn, IBAN) declared in the rules."""

    def __init__(self, check: Callable[[str], bool], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check

    def validate_result(self, pattern_text: str) -> bool:
        return self.check(pattern_text)


def _pattern_recognizer(spec: RecognizerSpec) -> PatternRecognizer:
    flags = regex.DOTALL | regex.MULTILINE | (regex.IGNORECASE if spec.ignore_case else 0)
    if spec.check:
        return _ValidatedPatternRecognizer(
            VALIDATORS[spec.check],
            supported_entity=spec.entity,
            name=spec.name,
            patterns=[Pattern(name=p.name, regex=p.regex, score=p.score) for p in spec.patterns],
            context=list(spec.context),
            global_regex_flags=flags,
        )
    return PatternRecognizer(
        supported_entity=spec.entity,
        name=spec.name,
        patterns=[Pattern(name=p.name, regex=p.regex, score=p.score) for p in spec.patterns],
        context=list(spec.context),
        global_regex_flags=flags,
    )


class Engine:
    """An analyzer over many texts. Build it once per process with `engine_for`.

    Presidio's analyzer runs the recognizers of the rules (patterns, the first-name gazetteer); spaCy's NER
    runs apart, only on the texts that need it, and its entities are mapped as Presidio's spaCy recognizer
    maps them (PERSON, LOCATION, ORGANIZATION, with its default score). Set OPENBLAS_NUM_THREADS=1 before
    numpy is first imported (the CLI does): one BLAS thread is faster for spaCy's small matrices.
    """

    def __init__(
        self,
        nlp: NlpSettings,
        recognizers: Sequence[RecognizerSpec],
        first_names: frozenset[str] = frozenset(),
        allow_list: frozenset[str] = frozenset(),
    ) -> None:
        self.settings = nlp
        self.nlp_engine = _NerOnlySpacyEngine(nlp.model)
        self.nlp_engine.load()
        self.ner = self.nlp_engine.nlp["en"]  # type: ignore[index]
        registry = RecognizerRegistry(supported_languages=["en"])
        for spec in recognizers:
            registry.add_recognizer(_pattern_recognizer(spec))
        if first_names:
            registry.add_recognizer(FirstNameRecognizer(first_names, allow_list))
        self.pattern_entities = sorted({e for r in registry.recognizers for e in r.supported_entities})
        self.analyzer = AnalyzerEngine(
            registry=registry,
            nlp_engine=self.nlp_engine,
            supported_languages=["en"],
            context_aware_enhancer=_NoContext(),
        )
        # No recognizer here reads tokens or lemmas, so every text gets the same empty artifacts.
        self.no_tokens = NlpArtifacts(
            entities=[], tokens=Doc(self.ner.vocab, words=[]), tokens_indices=[], lemmas=[],
            nlp_engine=self.nlp_engine, language="en",
        )  # fmt: skip

    def analyze(self, texts: Sequence[str], ner: bool = True) -> list[list[Span]]:
        """Spans found in each text, in order: the recognizers' and, unless `ner` is False, NER's."""
        found = _shared(self._recognized, list(texts), self.settings, _PATTERN_TEXTS_PER_NER_TEXT)
        if ner:
            for spans, entities in zip(found, self.named_entities(texts), strict=True):
                spans += entities
        return found

    def named_entities(self, texts: Sequence[str], advance: Advance = _no_progress) -> list[list[Span]]:
        """spaCy's PERSON, LOCATION and ORGANIZATION entities of each text; `advance(n)` is called as
        texts are done."""
        return _shared(self._named, list(texts), self.settings, 1, advance)

    def _recognized(self, texts: list[str], advance: Advance) -> list[list[Span]]:
        if not self.pattern_entities:  # no recognizer in the rules: Presidio would refuse to run
            return [[] for _ in texts]
        found = []
        for text in texts:
            results = self.analyzer.analyze(
                text=text, language="en", entities=self.pattern_entities, nlp_artifacts=self.no_tokens
            )
            found.append([Span(r.entity_type, r.start, r.end, r.score) for r in results])
            advance(1)
        return found

    def _named(self, texts: list[str], advance: Advance) -> list[list[Span]]:
        found = []
        for doc in self.ner.pipe(texts, batch_size=self.settings.batch_size):
            spans = []
            for entity in doc.ents:
                label = _SPACY_TO_PRESIDIO.get(entity.label_)
                if label is not None:
                    spans.append(Span(label, entity.start_char, entity.end_char, NER_SCORE))
            found.append(spans)
            advance(1)
        return found


_PATTERN_TEXTS_PER_NER_TEXT = 4
"""The recognizers cost far less per text than NER (about 0.13 ms per text against 1 ms per sentence on a
2-core test machine), so a second process takes on recognizers only from four times as many texts."""
_Work = Callable[[list[str], Advance], list[list[Span]]]
_FORKED_WORK: _Work | None = None


def _shared(
    work: _Work, texts: list[str], settings: NlpSettings, cost: int, advance: Advance = _no_progress
) -> list[list[Span]]:
    """`work` over `texts`, shared by this process and forked workers when there are enough texts. The
    workers share the loaded model and engines, and send back only spans. Progress is reported from this
    process's share (the workers go at the same pace)."""
    processes = min(settings.processes, max(1, len(texts) // (settings.min_texts_per_process * cost)))
    if processes == 1 or "fork" not in multiprocessing.get_all_start_methods():
        return work(texts, advance)
    global _FORKED_WORK
    _FORKED_WORK = work
    chunks = [texts[start::processes] for start in range(processes)]
    try:
        with warnings.catch_warnings():
            # Polars warns that a fork may deadlock in a child using Polars; these children do not.
            warnings.filterwarnings("ignore", message=".*fork.*", category=RuntimeWarning)
            with multiprocessing.get_context("fork").Pool(processes - 1) as pool:
                others = pool.map_async(_forked_work, chunks[1:])
                parts = [work(chunks[0], lambda done: advance(done * processes)), *others.get()]
    finally:
        _FORKED_WORK = None
    merged: list[list[Span]] = [[] for _ in texts]
    for start, part in enumerate(parts):
        merged[start::processes] = part
    return merged


def _forked_work(texts: list[str]) -> list[list[Span]]:
    assert _FORKED_WORK is not None
    return _FORKED_WORK(texts, _no_progress)


@lru_cache(maxsize=2)
def engine_for(
    nlp: NlpSettings,
    recognizers: tuple[RecognizerSpec, ...],
    first_names: frozenset[str] = frozenset(),
    allow_list: frozenset[str] = frozenset(),
) -> Engine:
    """One engine per process and settings: the spaCy model loads once."""
    return Engine(nlp, recognizers, first_names, allow_list)

"""Presidio, set up once per process and offline, for the free text of developer profiles.

- spaCy runs NER only (tagger, parser, lemmatizer, attribute ruler and senter excluded: the same
  entities at about twice the speed), loaded from an installed package: no model download.
- No recognizer that reaches the network: e-mails and URLs are pattern recognizers from
  `rules/recognizers.yaml` (Presidio's own e-mail recognizer would fetch a public-suffix list).
- Texts are analyzed in batches through spaCy's `nlp.pipe`, in several processes when there are many.
"""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Callable, Iterator, Sequence
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
from presidio_analyzer.predefined_recognizers import SpacyRecognizer

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
        self.nlp = {"en": nlp}  # type: ignore[assignment]


class _TokensOnlySpacyEngine(_NerOnlySpacyEngine):
    """The same tokenizer with no NER: for texts in which nothing could be a name."""

    def load(self) -> None:
        self.nlp = {"en": spacy.blank("en")}  # type: ignore[assignment]


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

    Set OPENBLAS_NUM_THREADS=1 before numpy is first imported (the CLI does): one BLAS thread is faster
    for spaCy's small matrices.
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
        self.tokens_engine = _TokensOnlySpacyEngine(nlp.model)
        self.tokens_engine.load()
        registry = RecognizerRegistry(supported_languages=["en"])
        registry.add_recognizer(
            SpacyRecognizer(supported_language="en", supported_entities=list(NER_ENTITIES))
        )
        for spec in recognizers:
            registry.add_recognizer(_pattern_recognizer(spec))
        if first_names:
            registry.add_recognizer(FirstNameRecognizer(first_names, allow_list))
        self.entities = sorted({*NER_ENTITIES, *(spec.entity for spec in recognizers)})
        self.analyzer = AnalyzerEngine(
            registry=registry,
            nlp_engine=self.nlp_engine,
            supported_languages=["en"],
            context_aware_enhancer=_NoContext(),
        )

    def analyze(self, texts: Sequence[str], needs_ner: Sequence[bool] | None = None) -> Iterator[list[Span]]:
        """Spans found in each text, in order. Texts marked False in `needs_ner` skip spaCy's NER (only
        tokenized); every recognizer still runs on every text, and Presidio reads the NER results."""
        flags = list(needs_ner) if needs_ner is not None else [True] * len(texts)
        entities = iter(self._named_entities([text for text, flag in zip(texts, flags, strict=True) if flag]))
        for text, flag in zip(texts, flags, strict=True):
            doc = self.tokens_engine.nlp["en"](text)  # type: ignore[index]
            if flag:
                doc.ents = spacy.util.filter_spans(
                    [span for start, end, label in next(entities)
                     if (span := doc.char_span(start, end, label=label, alignment_mode="expand")) is not None]
                )  # fmt: skip
            artifacts = self.nlp_engine._doc_to_nlp_artifact(doc, "en")
            found = self.analyzer.analyze(
                text=text, language="en", entities=self.entities, nlp_artifacts=artifacts
            )
            yield [Span(r.entity_type, r.start, r.end, r.score) for r in found]

    def _named_entities(self, texts: list[str]) -> list[list[tuple[int, int, str]]]:
        """spaCy's entities of each text, as (start, end, label). With many texts, this process and forked
        workers share the work; the workers share the loaded model and send back only these tuples
        (spaCy's own n_process ships whole Docs back)."""
        processes = min(self.settings.processes, max(1, len(texts) // self.settings.min_texts_per_process))
        if processes == 1 or "fork" not in multiprocessing.get_all_start_methods():
            return _entities_of(self.nlp_engine.nlp["en"], texts, self.settings.batch_size)  # type: ignore[index]
        global _FORKED_NLP
        _FORKED_NLP = (self.nlp_engine.nlp["en"], self.settings.batch_size)  # type: ignore[index]
        chunks = [texts[start::processes] for start in range(processes)]
        nlp = self.nlp_engine.nlp["en"]  # type: ignore[index]
        with warnings.catch_warnings():
            # Polars warns that a fork may deadlock in a child using Polars; these children do not.
            warnings.filterwarnings("ignore", message=".*fork.*", category=RuntimeWarning)
            with multiprocessing.get_context("fork").Pool(processes - 1) as pool:
                others = pool.map_async(_entities_in_worker, chunks[1:])
                parts = [_entities_of(nlp, chunks[0], self.settings.batch_size), *others.get()]
        _FORKED_NLP = None
        merged: list[list[tuple[int, int, str]]] = [[] for _ in texts]
        for start, part in enumerate(parts):
            merged[start::processes] = part
        return merged


_FORKED_NLP: tuple[Any, int] | None = None


def _entities_of(nlp: Any, texts: list[str], batch_size: int) -> list[list[tuple[int, int, str]]]:
    return [
        [(e.start_char, e.end_char, e.label_) for e in doc.ents]
        for doc in nlp.pipe(texts, batch_size=batch_size)
    ]


def _entities_in_worker(texts: list[str]) -> list[list[tuple[int, int, str]]]:
    assert _FORKED_NLP is not None
    nlp, batch_size = _FORKED_NLP
    return _entities_of(nlp, texts, batch_size)


@lru_cache(maxsize=2)
def engine_for(
    nlp: NlpSettings,
    recognizers: tuple[RecognizerSpec, ...],
    first_names: frozenset[str] = frozenset(),
    allow_list: frozenset[str] = frozenset(),
) -> Engine:
    """One engine per process and settings: the spaCy model loads once."""
    return Engine(nlp, recognizers, first_names, allow_list)

"""Presidio, set up once per process and offline, for the free text of developer profiles.

- spaCy runs NER only (tagger, parser, lemmatizer, attribute ruler and senter excluded, and the shared
  tok2vec that only they listen to: the same entities at about four times the speed), loaded from an
  installed package: no model download.
- No recognizer that reaches the network: e-mails and URLs are pattern recognizers from
  `rules/recognizers.yaml` (Presidio's own e-mail recognizer would fetch a public-suffix list).
- NER runs in batches through spaCy's `nlp.pipe`, in this process: worker processes belong to the job
  driver, never to a stage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from itertools import count, groupby
from typing import Any

import regex
import spacy
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer
from presidio_analyzer.analyzer_engine import REGEX_TIMEOUT_SECONDS
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine
from spacy.language import Language

from toolkit.detectors import FILTERING_CHECKS, validator_for
from toolkit.errors import RulesError
from toolkit.names import PARTICLES
from toolkit.rules import PRIVACY_FILE, SPAN_ADJUSTERS, NlpSettings, RecognizerSpec
from toolkit.screens import Screen, required_literals
from toolkit.scrub.addresses import AddressWidener
from toolkit.scrub.adjusters import SpanAdjusters
from toolkit.scrub.gazetteer import FirstNameRecognizer, PlaceRecognizer
from toolkit.scrub.memo import TextMemo
from toolkit.scrub.probes import lookbehind_probe
from toolkit.scrub.spans import Span
from toolkit.scrub.watchdog import budgeted

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
NER = "NER"
"""The source of the spans spaCy's named entities give."""
NER_SCORE = 0.85
"""The score Presidio's spaCy recognizer gives every entity (spaCy gives none)."""


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


class _ValidatedPatternRecognizer(PatternRecognizer):
    """A pattern recognizer whose matches must pass a check (Luhn, IBAN) declared in the rules. A check that
    `confirms` makes a match certain (Presidio's score 1); one that only filters (`FILTERING_CHECKS`) leaves
    the pattern's score, so a catch-all never outranks a specific recognizer on the same text."""

    def __init__(self, check: Callable[[str], bool], confirms: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check
        self.confirms = confirms

    def validate_result(self, pattern_text: str) -> bool | None:
        passed = self.check(pattern_text)
        return passed if self.confirms or not passed else None


class _LoadedPattern(Pattern):
    """A pattern of the rules, as Presidio's `Pattern` holds it, without compiling it again to check it:
    the rules compiled each one when they loaded (`toolkit.rules` rejects one that does not compile). In a
    worker, which receives loaded rules, Presidio's check compiled the 104 patterns once more, 0.4 s."""

    def __init__(self, name: str, regex: str, score: float) -> None:
        self.name = name
        self.regex = regex
        self.score = score
        self.compiled_regex = None
        self.compiled_with_flags = None


def _flags(spec: RecognizerSpec) -> int:
    return regex.DOTALL | regex.MULTILINE | (regex.IGNORECASE if spec.ignore_case else 0)


def _pattern_recognizer(spec: RecognizerSpec) -> PatternRecognizer:
    flags = _flags(spec)
    check = validator_for(spec)
    if check is not None:
        return _ValidatedPatternRecognizer(
            check,
            spec.check not in FILTERING_CHECKS,
            supported_entity=spec.entity,
            name=spec.name,
            patterns=[_LoadedPattern(p.name, p.regex, p.score) for p in spec.patterns],
            context=list(spec.context),
            global_regex_flags=flags,
        )
    return PatternRecognizer(
        supported_entity=spec.entity,
        name=spec.name,
        patterns=[_LoadedPattern(p.name, p.regex, p.score) for p in spec.patterns],
        context=list(spec.context),
        global_regex_flags=flags,
    )


_RunningPattern = tuple[regex.Pattern[str], float, regex.Pattern[str] | None, int]
"""A compiled pattern, its score, its probe (what a text must hold for the pattern to match in it), and
its place in the engine's screen (`toolkit.screens`)."""


def _running_pattern(source: str, flags: int, score: float, place: int) -> _RunningPattern:
    probe = lookbehind_probe(source)
    compiled_probe = regex.compile(probe, flags) if probe is not None else None
    return regex.compile(source, flags), score, compiled_probe, place


_Finding = tuple[str, int, int, float, "_Running"]
"""(entity, start, end, score, the recognizer that found it)."""


class _Running:
    """A recognizer of the rules as the engine runs it: its patterns compiled with its flags once, what a
    text must hold for it to read the text, and how many name words its matches must keep (0: any)."""

    def __init__(
        self,
        order: int,
        requires: str | None,
        recognizer: PatternRecognizer | FirstNameRecognizer | PlaceRecognizer,
        name_words: int,
        patterns: Sequence[_RunningPattern] = (),
        unknown_words: bool = False,
        name: str = "",
    ) -> None:
        self.order = order
        self.requires = requires
        self.recognizer = recognizer
        self.name = name
        self.name_words = name_words
        self.patterns = patterns
        self.unknown_words = unknown_words

    def findings(
        self, text: str, timeout: float | None = REGEX_TIMEOUT_SECONDS, possible: Sequence[bool] = ()
    ) -> list[_Finding]:
        """What Presidio's `analyze` of the recognizer finds, without its per-match explanations: a
        pattern match scores the pattern's score, 1 when the recognizer validates it, and is dropped when
        the recognizer invalidates it; a pattern that runs past `timeout` seconds (Presidio's regex timeout;
        None: no limit) is skipped. `possible` (the engine's screen for this text, by place; empty: all
        possible) skips the patterns that cannot match the text."""
        recognizer = self.recognizer
        if not isinstance(recognizer, PatternRecognizer):
            return [
                (r.entity_type, r.start, r.end, r.score, self)
                for r in recognizer.analyze(text, recognizer.supported_entities, None)
                if r.score > EntityRecognizer.MIN_SCORE
            ]
        entity = recognizer.supported_entities[0]
        found: list[_Finding] = []
        for pattern, pattern_score, probe, place in self.patterns:
            if possible and not possible[place]:
                continue  # none of the strings the pattern needs is in the text (`toolkit.screens`)
            try:
                if probe is not None and probe.search(text, timeout=timeout) is None:
                    continue  # no cue that the pattern's look-behind needs (`toolkit.scrub.probes`)
                for match in pattern.finditer(text, timeout=timeout):
                    start, end = match.span()
                    if start == end:
                        continue
                    value = text[start:end]
                    score = pattern_score
                    valid = recognizer.validate_result(value)
                    if valid is not None:
                        score = EntityRecognizer.MAX_SCORE if valid else EntityRecognizer.MIN_SCORE
                    if recognizer.invalidate_result(value):
                        score = EntityRecognizer.MIN_SCORE
                    if score > EntityRecognizer.MIN_SCORE:
                        found.append((entity, start, end, score, self))
            except TimeoutError:
                continue
        return found


def _without_duplicates(found: list[_Finding]) -> list[_Finding]:
    """Presidio's `remove_duplicates`: no finding inside another of the same entity whose score is as
    high, in Presidio's order (highest score first, then by start, longest first); identical findings of
    two recognizers are one, the one replacing most (see `Engine.recognized`)."""
    ranked = sorted(found, key=lambda f: (f[0], f[1], -(f[2] - f[1]), -f[3], f[4].name_words, f[4].order))
    kept: list[_Finding] = []
    for _, group in groupby(ranked, key=lambda f: f[0]):
        active: list[_Finding] = []
        for finding in group:
            active = [other for other in active if other[2] >= finding[1]]
            if any(other[1] <= finding[1] and finding[2] <= other[2] and finding[3] <= other[3]
                   for other in active):  # fmt: skip
                continue
            kept.append(finding)
            active.append(finding)
    return sorted(kept, key=lambda f: (-f[3], f[1], -(f[2] - f[1])))


class Engine:
    """An analyzer over many texts. Build it once per process with `engine_for`.

    The recognizers of the rules (Presidio pattern recognizers, the first-name gazetteer) run here, with
    Presidio's scoring and its rule for overlapping findings (`recognized`); spaCy's NER runs apart, only
    on the texts that need it, and its entities are mapped as Presidio's spaCy recognizer maps them
    (PERSON, LOCATION, ORGANIZATION, with its default score). Set OPENBLAS_NUM_THREADS=1 before
    numpy is first imported (the CLI does): one BLAS thread is faster for spaCy's small matrices.
    """

    def __init__(
        self,
        nlp: NlpSettings,
        recognizers: Sequence[RecognizerSpec],
        first_names: frozenset[str] = frozenset(),
        allow_list: frozenset[str] = frozenset(),
        common_words: frozenset[str] = frozenset(),
        english_words: frozenset[str] = frozenset(),
        address_words: frozenset[str] = frozenset(),
        joiners: frozenset[str] = frozenset(),
        languages: frozenset[str] = frozenset(),
        places: frozenset[str] = frozenset(),
        adjusters: frozenset[str] = frozenset(SPAN_ADJUSTERS),
        ner: bool = True,
    ) -> None:
        self.settings = nlp
        # A tool's name ends an address ('…, Berlin, Kubernetes'); a language's ('Czech Republic') does not.
        self.addresses = AddressWidener(
            address_words, frozenset(allow_list - common_words - languages), joiners
        )
        self.adjusters = SpanAdjusters(adjusters)
        self.names_only = {spec.name: spec.name_words for spec in recognizers if spec.names_only}
        self.ordinary = (allow_list, common_words)
        self.english = english_words
        self.ner: Language | None = None
        """spaCy's pipeline, None when the rules switch NER off (the model is not loaded then)."""
        if ner:
            nlp_engine = _NerOnlySpacyEngine(nlp.model)
            nlp_engine.load()
            self.ner = nlp_engine.nlp["en"]  # type: ignore[index]
        # A text without digits is not read by the recognizers that need one (phones, cards, IPs ...), an
        # ASCII text not by those of other scripts.
        place = count()  # each pattern's place in the screen, in the order the screen is built
        self.recognizers = [
            _Running(
                order,
                spec.requires,
                _pattern_recognizer(spec),
                self.names_only.get(spec.name, 0),
                [_running_pattern(p.regex, _flags(spec), p.score, next(place)) for p in spec.patterns],
                spec.unknown_words,
                spec.name,
            )
            for order, spec in enumerate(recognizers)
        ]
        self._recognized: TextMemo[Span] = TextMemo()
        self._named: TextMemo[Span] = TextMemo()
        self.screen = Screen(
            [required_literals(p.regex, _flags(spec)) for spec in recognizers for p in spec.patterns]
        )
        if first_names:
            gazetteer = FirstNameRecognizer(first_names, allow_list, english_words)
            self.recognizers.append(
                _Running(len(self.recognizers), None, gazetteer, 0, name=FirstNameRecognizer.NAME)
            )
        if places:
            self.recognizers.append(
                _Running(len(self.recognizers), None, PlaceRecognizer(places), 0, name=PlaceRecognizer.NAME)
            )

    def analyze(self, texts: Sequence[str], ner: bool = True) -> list[list[Span]]:
        """Spans found in each text, in order: the recognizers' and, unless `ner` is False, NER's."""
        found = self.recognized(texts)
        if ner:
            for spans, entities in zip(found, self.named_entities(texts), strict=True):
                spans += entities
        return found

    def forget(self) -> None:
        """Let go of the findings kept for texts read lately (`toolkit.scrub.memo`): the next texts are
        read anew."""
        self._recognized.forget()
        self._named.forget()

    def recognized(self, texts: Sequence[str]) -> list[list[Span]]:
        """The recognizers' spans in each text (patterns, gazetteer, cues), without NER.

        Presidio's analyzer finds the same (the matches of each pattern that pass the recognizer's
        validation, then no finding inside another of its entity with a score as high) in about 1.3
        times the time (measured on 2,773 profile texts), and it picks among identical
        findings of two recognizers by the order of a set, which changes from process to process. Here
        the tie goes to the recognizer that replaces most (not `names_only`), then to the first in the
        rules, so a text's findings never depend on the worker that read it. A scan has one time budget
        for all its searches (`toolkit.scrub.watchdog`), not a timeout on each. The findings of texts read
        lately are kept (`toolkit.scrub.memo`)."""
        return self._recognized.each(texts, self._recognize)

    def _recognize(self, texts: list[str]) -> list[list[Span]]:
        possible = self.screen.possible(texts)
        with budgeted() as run:
            return [
                run(partial(self._recognized_in, text, screened))
                for text, screened in zip(texts, possible, strict=True)
            ]

    def _recognized_in(self, text: str, possible: Sequence[bool], timeout: float | None) -> list[Span]:
        """The recognizers' spans in one text, each search under `timeout` seconds (None: no limit), the
        patterns that `possible` rules out not read."""
        held = {
            None,
            "digit" if _DIGIT.search(text) else None,
            "non_ascii" if not text.isascii() else None,
        }
        results = []
        for running in self.recognizers:
            if running.requires not in held:
                continue
            for entity, start, end, score, _ in running.findings(text, timeout, possible):
                if running.name_words:  # trimmed first: what it keeps must not hide a name inside it
                    matched = Span(entity, start, end, score, running.name)
                    trimmed = self._trimmed(matched, text, running.name_words, running.unknown_words)
                    if trimmed is None:
                        continue
                    start, end = trimmed.start, trimmed.end
                results.append((entity, start, end, score, running))
        return [
            self.adjusters.whole(Span(entity, start, end, score, running.name), text, self.addresses)
            for entity, start, end, score, running in _without_duplicates(results)
        ]

    def _trimmed(self, span: Span, text: str, fewest: int = 2, unknown: bool = False) -> Span | None:
        """A match of a `names_only` recognizer without the ordinary words at its ends ('The', 'Young
        Researcher' of 'The Odalys Fairweather Young Researcher Award', a possessive 's), if `fewest`
        name words are left and no ordinary word between them; else None. A match in lower case, or of
        a single word, is a name only when none of its words is an English word ('with low latency' is
        no one, nor 'Will' in 'Name: Will'). With `unknown`, English words are ordinary too and cut the
        match: its longest run of other words is the name ('Tiberio Lanzavecchia' of 'Shadowing Tiberio
        Lanzavecchia Scholar'; 'Polar Field School' is no one)."""
        allowed, everyday = self.ordinary
        words = [w for w in _NAME_WORD.finditer(text, span.start, span.end) if len(w.group()) >= 2]

        def known(folded: str, english: bool) -> bool:
            return folded in allowed or folded in everyday or (english and folded in self.english)

        def ordinary(word: regex.Match[str], english: bool = False) -> bool:
            """An allowed, everyday (or English) word, or a compound of such ('low-latency')."""
            folded = word.group().lower()
            if folded in PARTICLES:
                return False
            parts = _HYPHEN.split(folded)
            return known(folded, english) or (len(parts) > 1 and all(known(part, english) for part in parts))

        if unknown:
            runs: list[list[regex.Match[str]]] = [[]]
            for word in words:
                if ordinary(word, english=True):
                    runs.append([])
                else:
                    runs[-1].append(word)
            run = max(runs, key=lambda run: sum(w.group().lower() not in PARTICLES for w in run))
            while run and run[-1].group().lower() in PARTICLES:
                run.pop()
            if sum(w.group().lower() not in PARTICLES for w in run) < fewest:
                return None
            return replace(span, start=run[0].start(), end=run[-1].end())
        if text[span.start : span.end].islower():
            while len(words) > 2 and ordinary(words[-1], english=True):
                words.pop()  # 'chidera okoro's branch'
            # A hyphenated word of a lowercase name is as many names as parts ('mcallister-ruiz').
            parts = sum(len(_HYPHEN.split(w.group())) for w in words if w.group().lower() not in PARTICLES)
            if parts < fewest or any(ordinary(word, english=True) for word in words):
                return None
            return replace(span, start=words[0].start(), end=words[-1].end())
        while words and ordinary(words[0], english=unknown):
            words.pop(0)
        while words and ordinary(words[-1], english=unknown):
            words.pop()
        # A trailing capitalised English word goes too while two name words stay ('Fairweather Young').
        while len(words) > 2 and ordinary(words[-1], english=True):
            words.pop()
        if len(words) < fewest or any(ordinary(word, english=unknown) for word in words):
            return None
        if len(words) == 1 and ordinary(words[0], english=True):
            return None
        return replace(span, start=words[0].start(), end=words[-1].end())

    def named_entities(self, texts: Sequence[str]) -> list[list[Span]]:
        """spaCy's PERSON, LOCATION and ORGANIZATION entities of each text. A text longer than
        `MAX_NER_CHARS` is read in pieces cut at white space, so no text can exceed spaCy's length limit
        and the time stays linear in the length. The words spaCy meets are forgotten after each call
        (a memory zone): its vocabulary would otherwise grow with every new name a worker reads. The
        entities of texts read lately are kept (`toolkit.scrub.memo`)."""
        if self.ner is None:
            return [[] for _ in texts]
        return self._named.each(texts, self._name)

    def _name(self, texts: list[str]) -> list[list[Span]]:
        assert self.ner is not None, "NER is on"
        found = []
        pieces = [piece for text in texts for piece in _pieces(text)]
        with self.ner.memory_zone():
            docs = iter(self.ner.pipe([text for _, text in pieces], batch_size=self.settings.batch_size))
            for text in texts:
                spans = []
                for offset, _ in _pieces(text):
                    doc = next(docs)
                    for entity in doc.ents:
                        label = _SPACY_TO_PRESIDIO.get(entity.label_)
                        if label is None:
                            continue
                        # An entity never runs across a line break ('Liisa Lepistö' / 'Moonbase Ltd'),
                        # nor across the separators of a list ('Zephyr RTOS · FreeRTOS', 'Power BI | Jira').
                        # The small model takes words of other languages for people ('de datos', 'para'):
                        # a person in lower case is left to the cue recognizers, which know its context.
                        for line in _LINE.finditer(entity.text):
                            if label == "PERSON" and _LOWER_CASE_ONLY.fullmatch(line.group()):
                                continue
                            start = entity.start_char + offset + line.start()
                            spans.append(Span(label, start, start + len(line.group()), NER_SCORE, NER))
                found.append(spans)
        return found


_DIGIT = regex.compile(r"\d")
_LINE = regex.compile(r"[^\s|•;▪◦‣∙·](?:[^\n\r\t\v\f\u2028\u2029|•;▪◦‣∙·]|(?<=\S)·(?=\S))*(?<=[^\s|•;▪◦‣∙·])")
"""A run of an entity's text within one line and one item of a list: a middle dot between letters stays
('Col·lecció'), one with a space beside it separates."""
_LOWER_CASE_ONLY = regex.compile(r"\p{Ll}+(?:[^\S\n]\p{Ll}+)*")
"""Words in lower case and nothing else: 'de datos', not 'ngawang.sherpa' (an account) nor '田中'."""
_NAME_WORD = regex.compile(r"\p{L}+(?:[-\u2011]\p{L}+)*")
"""A word of a name, hyphenated parts together, a possessive left out."""
_HYPHEN = regex.compile(r"[-\u2011]")

MAX_NER_CHARS = 5_000
"""NER reads at most this many characters at once; a longer text is cut at white space (or, with none
near, hard), far below spaCy's own limit of a million characters."""


def _pieces(text: str) -> list[tuple[int, str]]:
    """(offset, piece) of `text` cut into pieces of at most MAX_NER_CHARS, at the last white space."""
    if len(text) <= MAX_NER_CHARS:
        return [(0, text)]
    pieces = []
    start = 0
    while start < len(text):
        end = min(start + MAX_NER_CHARS, len(text))
        if end < len(text):
            cut = text.rfind(" ", start + MAX_NER_CHARS // 2, end)
            end = cut + 1 if cut > start else end
        pieces.append((start, text[start:end]))
        start = end
    return pieces


def check_model(nlp: NlpSettings) -> None:
    """Load the NER model once, as the job would; raises `RulesError` naming `nlp.model` if it cannot."""
    _NerOnlySpacyEngine(nlp.model).load()


@lru_cache(maxsize=2)
def engine_for(
    nlp: NlpSettings,
    recognizers: tuple[RecognizerSpec, ...],
    first_names: frozenset[str] = frozenset(),
    allow_list: frozenset[str] = frozenset(),
    common_words: frozenset[str] = frozenset(),
    english_words: frozenset[str] = frozenset(),
    address_words: frozenset[str] = frozenset(),
    joiners: frozenset[str] = frozenset(),
    languages: frozenset[str] = frozenset(),
    places: frozenset[str] = frozenset(),
    adjusters: frozenset[str] = frozenset(SPAN_ADJUSTERS),
    ner: bool = True,
) -> Engine:
    """One engine per process and settings: the spaCy model loads once."""
    return Engine(
        nlp,
        recognizers,
        first_names,
        allow_list,
        common_words,
        english_words,
        address_words,
        joiners,
        languages,
        places,
        adjusters,
        ner,
    )

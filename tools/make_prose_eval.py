"""Labelled general prose from a generator this project did not write: presidio-evaluator's sentence faker.

presidio-evaluator (MIT, Microsoft; on PyPI) ships about 200 sentence templates (support requests, chat
lines, bios, addresses) and fills them with fake values from Faker and the FakeNameGenerator records it
bundles, recording each value's span. This script writes such sentences as JSON lines, one per sentence:
`{"id", "text", "spans": [{"type", "start", "end"}]}`, for `benchmarks/prose_eval.py` to score.

presidio-evaluator pulls in heavy dependencies (transformers, scikit-learn, pandas 3) that conflict with
the toolkit's own, so it runs in an environment of its own; the toolkit never imports it:

    python3 -m venv /tmp/prose-eval && /tmp/prose-eval/bin/pip install presidio-evaluator==0.3.2
    /tmp/prose-eval/bin/python tools/make_prose_eval.py --count 1500 --seed 42 --templates even \
        --out benchmarks/data/prose_dev.jsonl
    /tmp/prose-eval/bin/python tools/make_prose_eval.py --count 1500 --seed 7 --templates odd \
        --out benchmarks/data/prose_heldout.jsonl

The texts are fictional (Faker's and FakeNameGenerator's invented people), as every test datum here must be.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--count", type=int, default=1500)
    options.add_argument("--seed", type=int, default=42)
    options.add_argument("--lower-case-ratio", type=float, default=0.05, help="as in presidio-evaluator")
    options.add_argument(
        "--templates",
        choices=("all", "even", "odd"),
        default="all",
        help="which of the shipped templates (by line number): the development set and the held-out set "
        "are made from different templates, so a cue learnt from one is not rewarded on the other",
    )
    options.add_argument("--out", type=Path, required=True)
    args = options.parse_args(argv)

    from presidio_evaluator.data_generator import (  # type: ignore[import-not-found]
        PresidioSentenceFaker,
        presidio_templates_file_path,
    )

    every = [line.strip() for line in presidio_templates_file_path.read_text().splitlines()]
    chosen = [t for n, t in enumerate(every) if args.templates == "all" or n % 2 == (args.templates == "odd")]
    faker = PresidioSentenceFaker(
        locale="en_US",
        lower_case_ratio=args.lower_case_ratio,
        sentence_templates=chosen,
        random_seed=args.seed,
    )
    samples = faker.generate_new_fake_sentences(args.count)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as handle:
        for number, sample in enumerate(samples):
            spans = sorted(
                (
                    {"type": span.entity_type, "start": span.start_position, "end": span.end_position}
                    for span in sample.spans
                ),
                key=lambda span: (span["start"], span["end"]),
            )
            record = {"id": number, "text": sample.full_text, "spans": spans}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"wrote {len(samples)} sentences to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

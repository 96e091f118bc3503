"""General prose nobody here wrote: `toolkit scrub` against Presidio alone, per entity, in one run.

The sentences come from presidio-evaluator's generator (`tools/make_prose_eval.py`: its templates, Faker
and FakeNameGenerator values, its spans), not from this project. Each system's output is aligned back to
its input (both keep the text outside their replacement tokens as it was), which gives the character
ranges each replaced. Then, per labelled entity type:

- **left**: labelled values of which some word (two or more letters or digits) was not replaced: the share
  a reader of the output still sees, in part or whole (recall is one minus it);
- **replacements not personal**: replaced ranges that touch no labelled value at all ("Kafka", "Product"),
  as a share of all replaced ranges (one minus precision).

The toolkit runs as `toolkit scrub` does (`toolkit.scrub_frame`, one record per row); Presidio alone is
its default analyzer and anonymizer with the same spaCy model (`benchmarks/presidio_alone.py`). Rows per
second of each are printed beside the figures.

    python benchmarks/prose_eval.py                                     # benchmarks/data/prose_dev.jsonl
    python benchmarks/prose_eval.py --data benchmarks/data/prose_heldout.jsonl   # the held-out set
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO / "benchmarks" / "data" / "prose_dev.jsonl"
PERSONAL = ("PERSON", "PHONE_NUMBER", "EMAIL_ADDRESS", "CREDIT_CARD", "IBAN_CODE", "STREET_ADDRESS",
            "ZIP_CODE", "IP_ADDRESS", "US_SSN", "US_DRIVER_LICENSE", "DOMAIN_NAME", "URL")  # fmt: skip
"""Labelled types a release must not keep; the others (GPE, ORGANIZATION, TITLE, DATE_TIME, AGE, NRP) are
scored too but are not personal data on their own under the toolkit's policy. SKILL (résumé sets) is what
a release must keep: its "left" share is the share of skills and tools kept."""
_TOKEN = re.compile(r"<[A-Z][A-Z0-9_]*?(?:_[0-9a-f]{8})?>")
_WORD = re.compile(r"[^\W_]{2,}")


@dataclass(frozen=True)
class Record:
    id: int
    text: str
    spans: tuple[tuple[str, int, int], ...]


def load(path: Path) -> list[Record]:
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        spans = tuple((span["type"], span["start"], span["end"]) for span in data["spans"])
        records.append(Record(data["id"], data["text"], spans))
    return records


def replaced_ranges(original: str, output: str) -> list[tuple[int, int]] | None:
    """The ranges of `original` that `output` replaced by tokens, or None when `output` is not `original`
    with some ranges replaced by tokens (then nothing can be said about it). The text between tokens is
    matched in order; where a split is ambiguous the regular expression takes the shortest replacements."""
    pieces = _TOKEN.split(output)
    if len(pieces) == 1:
        return [] if output == original else None
    pattern = "".join(
        re.escape(piece) + ("(.+?)" if index < len(pieces) - 1 else "") for index, piece in enumerate(pieces)
    )
    match = re.fullmatch(pattern, original, flags=re.DOTALL)
    if match is None:
        return None
    return [match.span(group) for group in range(1, len(pieces))]


@dataclass
class Score:
    system: str
    labelled: Counter[str] = field(default_factory=Counter)
    left: Counter[str] = field(default_factory=Counter)
    replacements: int = 0
    not_personal: int = 0
    unaligned: int = 0
    rows_per_second: float = 0.0
    examples_left: dict[str, list[str]] = field(default_factory=dict)

    def left_share(self, kind: str) -> float:
        return self.left[kind] / self.labelled[kind] if self.labelled[kind] else 0.0


def score(system: str, records: Sequence[Record], outputs: Sequence[str]) -> Score:
    result = Score(system)
    for record, output in zip(records, outputs, strict=True):
        ranges = replaced_ranges(record.text, output)
        if ranges is None:
            result.unaligned += 1
        covered = [False] * len(record.text)
        for start, end in ranges or []:
            for index in range(start, end):
                covered[index] = True
        for kind, start, end in record.spans:
            result.labelled[kind] += 1
            words = list(_WORD.finditer(record.text, start, end))
            surviving = (
                [word.group() for word in words if not all(covered[word.start() : word.end()])]
                if ranges is not None
                else [word.group() for word in words if word.group().lower() in output.lower()]
            )
            # A personal value is left when any word of it is; a skill is kept only when all of it is.
            if surviving if kind != "SKILL" else len(surviving) == len(words):
                result.left[kind] += 1
                result.examples_left.setdefault(kind, []).append(record.text[start:end])
        for start, end in ranges or []:
            result.replacements += 1
            if not any(start < span_end and span_start < end for _, span_start, span_end in record.spans):
                result.not_personal += 1
    return result


def run_toolkit(texts: Sequence[str]) -> tuple[list[str], float]:
    import polars as pl

    import toolkit

    frame = pl.DataFrame({"text": list(texts)})
    toolkit.scrub_frame(pl.DataFrame({"text": ["warm-up for Ada at ada@example.org"]}), "text", key=_KEY)
    started = time.perf_counter()
    out = toolkit.scrub_frame(frame, "text", key=_KEY)["text"].to_list()
    return [text or "" for text in out], len(texts) / (time.perf_counter() - started)


def run_presidio(texts: Sequence[str]) -> tuple[list[str], float]:
    from benchmarks.presidio_alone import anonymize_documents, build

    engines = build()
    started = time.perf_counter()
    out = anonymize_documents(texts, engines)
    return out, len(texts) / (time.perf_counter() - started)


_KEY = "prose evaluation key, not a secret"
Runner = Callable[[Sequence[str]], tuple[list[str], float]]


def evaluate(records: Sequence[Record], runners: dict[str, Runner]) -> list[Score]:
    scores = []
    for system, runner in runners.items():
        outputs, rate = runner([record.text for record in records])
        result = score(system, records, outputs)
        result.rows_per_second = rate
        scores.append(result)
    return scores


def print_table(scores: Sequence[Score]) -> None:
    kinds = sorted({kind for s in scores for kind in s.labelled}, key=lambda k: (k not in PERSONAL, k))
    header = f"{'entity':<20}{'labelled':>9}" + "".join(f"{s.system + ' left':>24}" for s in scores)
    print(header)
    for kind in kinds:
        total = scores[0].labelled[kind]
        cells = "".join(f"{f'{s.left[kind]} ({s.left_share(kind):.1%})':>24}" for s in scores)
        marker = "" if kind in PERSONAL else "  (not personal alone)"
        print(f"{kind:<20}{total:>9}{cells}{marker}")
    print()
    for s in scores:
        if s.labelled["SKILL"]:
            kept, total = s.left["SKILL"], s.labelled["SKILL"]  # a skill is kept when it is left
            print(f"{s.system}: skills and tools kept {kept}/{total} ({s.left_share('SKILL'):.1%})")
    for s in scores:
        share = s.not_personal / s.replacements if s.replacements else 0.0
        print(
            f"{s.system}: {s.replacements} replacements, {s.not_personal} touching no labelled value "
            f"({share:.1%}); {s.rows_per_second:.1f} rows/s; {s.unaligned} outputs not aligned"
        )


def main(argv: Sequence[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--data", type=Path, default=DEFAULT_DATA)
    options.add_argument("--limit", type=int, default=0, help="only the first N sentences")
    options.add_argument("--no-presidio", action="store_true", help="score the toolkit alone")
    options.add_argument("--examples", type=str, default="", help="print what was left of this entity type")
    args = options.parse_args(argv)
    records = load(args.data)[: args.limit or None]
    runners: dict[str, Runner] = {"toolkit": run_toolkit}
    if not args.no_presidio:
        runners["presidio"] = run_presidio
    scores = evaluate(records, runners)
    print(f"{len(records)} labelled texts of {args.data.name}\n")
    print_table(scores)
    if args.examples:
        for s in scores:
            left = s.examples_left.get(args.examples, [])[:40]
            print(f"\n{s.system}, {args.examples} left:", *left, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    raise SystemExit(main())

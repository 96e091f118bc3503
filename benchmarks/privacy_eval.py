"""Privacy evaluation: what survives of planted personal data and technical words, Presidio alone vs toolkit.

Run: .venv/bin/python benchmarks/privacy_eval.py [--docs N] [--seed S] [--keep DIR] [--no-presidio]

Generates N fictional documents with planted identifiers (tools/profiles, planted style), then:
- Presidio alone (benchmarks/presidio_alone.py) analyzes and anonymizes each whole document;
- the toolkit runs as a process, `toolkit run DOCS --out RELEASE`, and its release is read back: a release
  has pseudonymous profile ids and no source column, so its rows cannot be traced to documents and the
  whole release text (every String and List(String) cell of every table) is searched instead.

Metrics, side by side (text compared folded for case, accents and white space, on word boundaries):
  (a) planted person identifiers surviving: (document, identifier) pairs still found (target 0); forms that
      fold to the same text count once, under the first kind listed ("MARIA DA CUNHA" is the full name).
      Employers named after a surname of the set ("Okafor Partners", each document's `namesake_employers`)
      are ordinary words, not searched: they do not count as Okafor's surname surviving;
  (b) other people's full names surviving, as a share of (document, name) pairs (target <= 1%);
  (c) technical words surviving in the free text: per word, min(count after, count before) summed over the
      set, over the count before (target >= 95%). The planted documents hold these words only in free text;
      the release is read in its free-text columns, so skills and tags tables do not count.
Exit code: 0 when the toolkit meets all three targets, 1 when it does not (or blocks its release),
2 when `toolkit run` is not available or fails.

The evaluation functions (`evaluate`, `evaluate_presidio`, `score`) are importable for regression tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import polars as pl

from benchmarks.presidio_alone import anonymize_documents, build
from tools.profiles import Planted, documents, fold, string_cells, with_formats, word_pattern, write

RELEASE_TABLES = ("profiles", "education", "skills", "contributions", "experience", "awards")
FREE_TEXT_COLUMNS = {
    "profiles": ("summary",),
    "contributions": ("description", "summary"),
    "experience": ("bullets",),
}
TARGET_OTHERS = 0.01
TARGET_TECHNICAL = 0.95
SHOWN = 20
_CELL_SEPARATOR = "\n|\n"  # not white space once folded: words of two cells never join into one name
EXIT_MET, EXIT_NOT_MET, EXIT_UNAVAILABLE = 0, 1, 2


@dataclass(frozen=True)
class Survivor:
    doc: int
    kind: str
    value: str


@dataclass
class Metrics:
    """What survived one system's treatment of the planted documents."""

    system: str
    documents: int
    identifiers: int
    identifiers_surviving: list[Survivor]
    identifiers_by_kind: Counter[str]
    others: int
    others_surviving: list[Survivor]
    technical_before: Counter[str]
    technical_after: Counter[str]
    """Per word: min(count after, count before), summed over the set."""
    seconds: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def others_rate(self) -> float:
        return len(self.others_surviving) / self.others if self.others else 0.0

    @property
    def technical_rate(self) -> float:
        before = sum(self.technical_before.values())
        return sum(self.technical_after.values()) / before if before else 1.0

    def meets_targets(self) -> bool:
        return (
            not self.identifiers_surviving
            and self.others_rate <= TARGET_OTHERS
            and self.technical_rate >= TARGET_TECHNICAL
        )


def score(system: str, docs: Sequence[Planted], texts: Sequence[str], technical_text: str) -> Metrics:
    """Score one system. `texts[i]` is where doc i's identifiers and other names are looked for (its own
    output, or the whole release for every doc); `technical_text` is the system's free text, all docs."""
    folded_cache: dict[int, str] = {}
    unnamed = namesakes_removed(docs)

    def folded(text: str) -> str:
        if id(text) not in folded_cache:
            folded_cache[id(text)] = unnamed(fold(text))
        return folded_cache[id(text)]

    identifiers, others = 0, 0
    by_kind: Counter[str] = Counter()
    surviving: list[Survivor] = []
    others_surviving: list[Survivor] = []
    for index, (doc, text) in enumerate(zip(docs, texts, strict=True)):
        haystack = folded(text)
        unique = dict(zip(map(fold, doc.person_identifiers), doc.identifier_kinds, strict=True))
        for value, kind in zip(doc.person_identifiers, doc.identifier_kinds, strict=True):
            if unique.pop(fold(value), None) is None:
                continue  # the same text as an earlier identifier once folded ("MARIA" and "Maria")
            identifiers += 1
            by_kind[kind] += 1
            if word_pattern(value).search(haystack):
                surviving.append(Survivor(index, kind, value))
        for name in doc.other_names:
            others += 1
            if word_pattern(name).search(haystack):
                others_surviving.append(Survivor(index, "other_name", name))
    before: Counter[str] = Counter()
    words = sorted({word for doc in docs for word in doc.technical_words})
    patterns = {word: word_pattern(word) for word in words}
    for (
        doc
    ) in docs:  # every word in every document: "Spark" also counts inside "Apache Spark", before and after
        source = fold(doc.text)
        for word in words:
            before[word] += len(patterns[word].findall(source))
    after_text = fold(technical_text)
    after = Counter({word: min(len(patterns[word].findall(after_text)), before[word]) for word in words})
    return Metrics(
        system, len(docs), identifiers, surviving, by_kind, others, others_surviving, before, after
    )


def namesakes_removed(docs: Sequence[Planted]) -> Callable[[str], str]:
    """A function that blanks, in folded text, the set's employers named after a surname."""
    names = sorted({fold(name) for doc in docs for name in doc.namesake_employers}, key=len, reverse=True)
    if not names:
        return lambda text: text
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)")
    return lambda text: pattern.sub(_CELL_SEPARATOR, text)


def evaluate_presidio(docs: Sequence[Planted], outputs: Sequence[str]) -> Metrics:
    """Score Presidio's anonymized documents (one per planted document, same order)."""
    return score("Presidio alone", docs, outputs, "\n".join(outputs))


def release_frames(release_dir: Path) -> dict[str, pl.DataFrame]:
    """Every table of a release folder (each <table>.parquet at its top level)."""
    return {path.stem: pl.read_parquet(path) for path in sorted(Path(release_dir).glob("*.parquet"))}


def release_text(frames: dict[str, pl.DataFrame]) -> str:
    return _CELL_SEPARATOR.join(cell for frame in frames.values() for cell in string_cells(frame))


def release_free_text(frames: dict[str, pl.DataFrame]) -> tuple[str, list[str]]:
    """The release's free-text cells, and the free-text columns it lacks ("table.column")."""
    cells: list[str] = []
    missing: list[str] = []
    for table, columns in FREE_TEXT_COLUMNS.items():
        frame = frames.get(table)
        for column in columns:
            if frame is None or column not in frame.columns:
                missing.append(f"{table}.{column}")
            else:
                cells.extend(string_cells(frame.select(column)))
    return _CELL_SEPARATOR.join(cells), missing


def evaluate(release_dir: Path, docs: Sequence[Planted]) -> Metrics:
    """Score a toolkit release written from `docs` (all of them, in any order)."""
    frames = release_frames(release_dir)
    text = release_text(frames)
    free_text, missing = release_free_text(frames)
    metrics = score("toolkit", docs, [text] * len(docs), free_text)
    absent = [table for table in RELEASE_TABLES if table not in frames]
    if absent:
        metrics.notes.append(f"release has no table {', '.join(absent)}")
    if missing:
        metrics.notes.append(f"release lacks free-text columns {', '.join(missing)} (their words count lost)")
    report = Path(release_dir) / "report.json"
    if report.is_file():
        found = _identifiers_in(report.read_text(encoding="utf-8"), docs)
        if found:
            metrics.notes.append(f"report.json holds {len(found)} planted identifiers, e.g. {found[:3]}")
    return metrics


def _identifiers_in(text: str, docs: Sequence[Planted]) -> list[str]:
    haystack = namesakes_removed(docs)(fold(text))
    values = {value for doc in docs for value in [*doc.person_identifiers, *doc.other_names]}
    return sorted(value for value in values if word_pattern(value).search(haystack))


@dataclass(frozen=True)
class ToolkitRun:
    returncode: int
    seconds: float
    stdout: str
    stderr: str

    @property
    def unavailable(self) -> bool:
        return self.returncode == EXIT_UNAVAILABLE and "invalid choice: 'run'" in self.stderr


def run_toolkit(docs_dir: Path, release_dir: Path) -> ToolkitRun:
    toolkit = Path(sys.executable).with_name("toolkit")
    started = time.perf_counter()
    done = subprocess.run(
        [str(toolkit), "run", str(docs_dir), "--out", str(release_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    return ToolkitRun(done.returncode, time.perf_counter() - started, done.stdout, done.stderr)


def _pairs(surviving: int, total: int) -> str:
    return f"{surviving}/{total} ({surviving / total:.1%})" if total else "0/0"


def _rate(metrics: Metrics) -> str:
    if metrics.seconds is None or metrics.seconds <= 0:
        return "-"
    return f"{metrics.documents / metrics.seconds:.1f}"


def _identifier_cell(m: Metrics) -> str:
    return _pairs(len(m.identifiers_surviving), m.identifiers)


def _others_cell(m: Metrics) -> str:
    return _pairs(len(m.others_surviving), m.others)


def _technical_cell(m: Metrics) -> str:
    return f"{m.technical_rate:.1%} ({sum(m.technical_after.values())}/{sum(m.technical_before.values())})"


ROWS: tuple[tuple[str, Callable[[Metrics], str], str], ...] = (
    ("person identifiers surviving", _identifier_cell, "0"),
    ("other people's names surviving", _others_cell, "<= 1%"),
    ("technical words surviving", _technical_cell, ">= 95%"),
    ("documents/s", _rate, ""),
)


def print_table(results: Sequence[Metrics | str], headers: Sequence[str]) -> None:
    """One column per system; a string in `results` stands for a system with no figures (why not)."""
    table = [
        (label, [r if isinstance(r, str) else cell(r) for r in results], target)
        for label, cell, target in ROWS
    ]
    width = max(len(text) for _, values, _ in table for text in [*values, *headers]) + 3
    print(f"{'metric':<34}" + "".join(f"{h:>{width}}" for h in headers) + "   target")
    for label, values, target in table:
        print(f"{label:<34}" + "".join(f"{v:>{width}}" for v in values) + f"   {target}")


def print_kinds(results: Sequence[Metrics]) -> None:
    kinds = sorted({kind for m in results for kind in m.identifiers_by_kind})
    print(f"\n{'identifiers surviving, by kind':<34}" + "".join(f"{m.system:>18}" for m in results))
    for kind in kinds:
        values = []
        for m in results:
            hit = sum(1 for s in m.identifiers_surviving if s.kind == kind)
            values.append(f"{hit}/{m.identifiers_by_kind[kind]}")
        print(f"  {kind:<32}" + "".join(f"{v:>18}" for v in values))


def print_details(metrics: Metrics) -> None:
    print(f"\n{metrics.system}:")
    for note in metrics.notes:
        print(f"  note: {note}")
    if metrics.identifiers_surviving:
        print(f"  identifiers surviving (first {SHOWN} of {len(metrics.identifiers_surviving)}):")
        for s in metrics.identifiers_surviving[:SHOWN]:
            print(f"    doc{s.doc:04d}  {s.kind:<18} {s.value}")
    if metrics.others_surviving:
        print(f"  other names surviving (first {SHOWN} of {len(metrics.others_surviving)}):")
        for s in metrics.others_surviving[:SHOWN]:
            print(f"    doc{s.doc:04d}  {s.value}")
    lost = sorted((metrics.technical_after[w] / n, w, n) for w, n in metrics.technical_before.items() if n)
    worst = [f"{w} {rate:.0%} of {n}" for rate, w, n in lost if rate < 1][:15]
    if worst:
        print(f"  technical words lost most: {', '.join(worst)}")


def main(argv: Sequence[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--docs", type=int, default=200)
    options.add_argument("--seed", type=int, default=7)
    options.add_argument("--keep", type=Path, metavar="DIR", help="keep documents, truth and release here")
    options.add_argument("--no-presidio", action="store_true", help="skip Presidio alone (faster)")
    options.add_argument(
        "--structured",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="re-write about this share of the documents as JSON Resume, GitHub API users and zipped "
        "LinkedIn exports (tools/profiles/structured.py)",
    )
    args = options.parse_args(argv)

    docs = list(with_formats(documents(args.docs, args.seed), args.structured, args.seed))
    work = Path(tempfile.mkdtemp(prefix="privacy_eval_")) if args.keep is None else args.keep
    try:
        docs_dir = write(work, docs)
        words = statistics.mean(len(doc.text.split()) for doc in docs)
        layouts = ", ".join(
            f"{layout} {n}" for layout, n in sorted(Counter(doc.layout for doc in docs).items())
        )
        print(
            f"{len(docs)} planted documents (seed {args.seed}; {layouts}; {words:.0f} words each on average) "
            f"in {docs_dir}"
        )
        release_dir = work / "release"
        shutil.rmtree(release_dir, ignore_errors=True)
        run = run_toolkit(docs_dir, release_dir)

        presidio: Metrics | str = "skipped"
        if not args.no_presidio:
            engines = build()
            started = time.perf_counter()
            outputs = anonymize_documents([doc.text for doc in docs], engines)
            presidio = evaluate_presidio(docs, outputs)
            presidio.seconds = time.perf_counter() - started

        toolkit: Metrics | str
        if run.unavailable:
            toolkit, code = "unavailable", EXIT_UNAVAILABLE
        elif run.returncode == EXIT_UNAVAILABLE:
            toolkit, code = "error", EXIT_UNAVAILABLE
        elif not list(release_dir.glob("*.parquet")):
            toolkit, code = "no release", EXIT_NOT_MET
        else:
            toolkit = evaluate(release_dir, docs)
            toolkit.seconds = run.seconds
            code = EXIT_MET if toolkit.meets_targets() else EXIT_NOT_MET

        print()
        print_table([presidio, toolkit], ["Presidio alone", "toolkit"])
        print(
            "  documents/s: Presidio alone in process (analyze + anonymize, engines built beforehand); "
            f"toolkit as a whole process, start-up included (exit {run.returncode})"
        )
        measured = [m for m in (presidio, toolkit) if isinstance(m, Metrics)]
        if measured:
            print_kinds(measured)
        for metrics in measured:
            print_details(metrics)
        print()
        if run.unavailable:
            print(
                "toolkit: `toolkit run` is not available yet (usage error, exit 2); "
                "only Presidio alone was measured."
            )
        elif run.returncode == EXIT_UNAVAILABLE:
            print(f"toolkit: `toolkit run` failed (exit 2): {run.stderr.strip()[-500:]}")
        elif isinstance(toolkit, str):
            print(f"toolkit: exit {run.returncode} and no release tables in {release_dir}: release blocked?")
            for line in (run.stdout + run.stderr).strip().splitlines()[-6:]:
                print(f"  | {line}")
            _print_report(release_dir)
        else:
            verdict = "meets" if toolkit.meets_targets() else "does NOT meet"
            print(f"toolkit {verdict} the targets (identifiers 0, others <= 1%, technical words >= 95%)")
        return code
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


def _print_report(release_dir: Path) -> None:
    """What report.json says about a release that was not written (read defensively: it is still evolving)."""
    report = release_dir / "report.json"
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        print(f"  no readable {report}")
        return
    release = data.get("release", {}) if isinstance(data, dict) else {}
    verification = data.get("verification", {}) if isinstance(data, dict) else {}
    if isinstance(release, dict) and "written" in release:
        print(f"  report: release written: {release['written']}")
    if isinstance(verification, dict):
        print(f"  report: verification passed: {verification.get('passed')}")
        for hit in verification.get("hits", [])[:SHOWN]:
            print(f"    hit: {hit}")


if __name__ == "__main__":
    raise SystemExit(main())

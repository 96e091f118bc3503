"""Scrub speed: documents per second, Presidio alone beside `toolkit run`, each timed as a whole process.

Run: .venv/bin/python benchmarks/scrub_speed.py [--docs N] [--runs R] [--seed S]

The planted documents of tools/profiles are written to a folder; then, as child processes (wall clock,
start-up and model loading included, medians of R runs), with OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=1:
- Presidio alone: `python -m benchmarks.presidio_alone FOLDER` (default engines, analyze + anonymize);
- Presidio tuned as a careful engineer would: `python -m benchmarks.presidio_tuned FOLDER`
  (BatchAnalyzerEngine, NER-only spaCy, one spaCy process per core);
- the toolkit: `toolkit run FOLDER --out TMP` (the whole job: parse, validate, scrub, verify, write);
- for reference, spaCy's NER alone (`python -m benchmarks.ner_alone`, NER component only, nlp.pipe with
  batch_size 128, one process) over the whole documents, and over the distinct free text the toolkit
  scrubs (parsed first): a floor for any NER-based scrubber.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.profiles import documents, write

ROOT = Path(__file__).resolve().parent.parent
CHILD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


@dataclass(frozen=True)
class Timing:
    label: str
    seconds: list[float]
    unavailable: str | None = None

    def rate(self, docs: int) -> float:
        return docs / statistics.median(self.seconds)


def _run(command: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    env = {**os.environ, **CHILD_ENV}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter() - started, done


def time_command(label: str, command: list[str], runs: int, ok_codes: tuple[int, ...] = (0,)) -> Timing:
    """Median-ready wall-clock times of `command`; stops at the first failure and says why."""
    seconds: list[float] = []
    for _ in range(runs):
        elapsed, done = _run(command)
        if done.returncode not in ok_codes:
            reason = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            return Timing(label, seconds, f"unavailable (exit {done.returncode}: {reason[:80]})")
        seconds.append(elapsed)
    return Timing(label, seconds)


def time_toolkit(folder: Path, runs: int) -> Timing:
    toolkit = str(Path(sys.executable).with_name("toolkit"))
    seconds: list[float] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            # Exit 1 (findings) still did the whole job, and 3 (blocked: one document alone cannot reach
            # the risk pass's k) all of it but publishing; 2 is a usage or rules error. The release and its
            # private folder (`<out>.private` by default) both inside the temporary folder.
            out = str(Path(tmp) / "release")
            timing = time_command("toolkit run", [toolkit, "run", str(folder), "--out", out], 1, (0, 1, 3))
        if timing.unavailable:
            return timing
        seconds += timing.seconds
    return Timing("toolkit run", seconds)


def measure(folder: Path, runs: int) -> list[Timing]:
    """Presidio alone, the toolkit, spaCy NER alone: each as a whole process over `folder`, `runs` times."""
    python = sys.executable
    return [
        time_command(
            "Presidio alone (analyze + anonymize)",
            [python, "-m", "benchmarks.presidio_alone", str(folder)],
            runs,
        ),
        time_command(
            "Presidio tuned (batch, NER only, cores)",
            [python, "-m", "benchmarks.presidio_tuned", str(folder)],
            runs,
        ),
        time_toolkit(folder, runs),
        time_command(
            "spaCy NER alone, documents (ref.)",
            [python, "-m", "benchmarks.ner_alone", "documents", str(folder)],
            runs,
        ),
        time_command(
            "spaCy NER alone, free text (ref.)",
            [python, "-m", "benchmarks.ner_alone", "free-text", str(folder)],
            runs,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--docs", type=int, default=300)
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--seed", type=int, default=7)
    args = options.parse_args(argv)

    docs = documents(args.docs, args.seed)
    words = statistics.mean(len(doc.text.split()) for doc in docs)
    print(
        f"{len(docs)} planted documents, {words:.0f} words each on average; whole processes, "
        f"start-up included; medians of {args.runs} runs"
    )
    with tempfile.TemporaryDirectory() as tmp:
        timings = measure(write(Path(tmp, "all"), docs), args.runs)
        startups = measure(write(Path(tmp, "one"), docs[:1]), 1)
    count, presidio = len(docs), timings[0]
    print(
        f"{'process':<38}{'docs/s':>8}{'seconds':>9}{'vs Presidio':>13}{'start-up s':>12}{'docs/s after':>14}"
    )
    for timing, startup in zip(timings, startups, strict=True):
        if timing.unavailable:
            print(f"{timing.label:<38}  {timing.unavailable}")
            continue
        rate, seconds = timing.rate(count), statistics.median(timing.seconds)
        ratio = f"{rate / presidio.rate(count):.2f}x" if not presidio.unavailable else "-"
        first = statistics.median(startup.seconds) if startup.seconds else float("nan")
        steady = (count - 1) / (seconds - first) if seconds > first else float("nan")
        print(f"{timing.label:<38}{rate:>8.1f}{seconds:>9.1f}{ratio:>13}{first:>12.1f}{steady:>14.1f}")
    tuned, toolkit_timing = timings[1], timings[2]
    if not tuned.unavailable and not toolkit_timing.unavailable:
        print(f"toolkit run against Presidio tuned: {toolkit_timing.rate(count) / tuned.rate(count):.2f}x")
    print(
        "start-up s: the same process on one document; docs/s after: the rest over the time beyond start-up"
    )
    return 0 if not any(t.unavailable for t in timings) else 1


if __name__ == "__main__":
    raise SystemExit(main())

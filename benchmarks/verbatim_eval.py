"""Verbatim runs: which runs of words of given documents stand in a release made with them in a crowd.

Run: .venv/bin/python benchmarks/verbatim_eval.py DOC... [--crowd DIR] [--n 6] [--terms TERM...]
                                                 [--rules DIR] [--keep DIR]

The documents (e.g. the two real pages in ../shared/seeds/) are released together with the crowd
(default: sample_data/) by `toolkit run` as a whole process; then every String and List(String) cell of the
release is read as words (lower-cased runs of letters and digits; a cell, a list item, a marker "…" or a
token "<...>" ends a run) and each run of `--n` words of a document's text that stands in the release is
printed, with the rare terms (`--terms`, folded, on word boundaries) found anywhere in the release.
It shares no code with the toolkit's text pass. Exit code 0 when nothing of the documents survives, 1 when
something does, 2 when the job fails.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
_WORD = re.compile(r"[^\W_]+")
_BREAK = re.compile(r"…|<[A-Z_]+>")


def runs_of_words(text: str, n: int) -> Iterator[tuple[str, ...]]:
    """Every run of `n` words of `text`, never across a marker or a token."""
    for piece in _BREAK.split(text):
        words = [word.casefold() for word in _WORD.findall(unicodedata.normalize("NFC", piece))]
        for at in range(len(words) - n + 1):
            yield tuple(words[at : at + n])


def release_cells(release: Path) -> Iterator[str]:
    for table in sorted(release.glob("*.parquet")):
        frame = pl.read_parquet(table)
        for name, dtype in frame.schema.items():
            if dtype == pl.String:
                yield from frame.get_column(name).drop_nulls().to_list()
            elif dtype == pl.List(pl.String):
                for items in frame.get_column(name).drop_nulls().to_list():
                    yield from (item for item in items if item is not None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("docs", nargs="+", type=Path)
    parser.add_argument("--crowd", type=Path, default=ROOT / "sample_data")
    parser.add_argument("--n", type=int, default=6)
    parser.add_argument("--terms", nargs="*", default=[])
    parser.add_argument("--rules", type=Path, default=ROOT / "rules")
    parser.add_argument("--keep", type=Path, default=None, help="keep the release here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(tmp) / "inputs"
        shutil.copytree(args.crowd, inputs / "crowd")
        for index, doc in enumerate(args.docs):
            shutil.copy(doc, inputs / f"doc{index}_{doc.name}")
        release = args.keep or Path(tmp) / "release"
        env = {**os.environ, "TOOLKIT_SECRET": "a verbatim evaluation secret, long enough"}
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "run", str(inputs), "--out", str(release), "--rules",
             str(args.rules)],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode not in (0, 1):
            print(done.stderr[-2000:], file=sys.stderr)
            return 2
        released: set[tuple[str, ...]] = set()
        folded = []
        for cell in release_cells(release):
            released.update(runs_of_words(cell, args.n))
            folded.append(" ".join(word.casefold() for word in _WORD.findall(cell)))
    survived = 0
    for doc in args.docs:
        mine = dict.fromkeys(runs_of_words(doc.read_text(encoding="utf-8"), args.n))
        found = [run for run in mine if run in released]
        survived += len(found)
        print(f"{doc.name}: {len(found)} of {len(mine)} runs of {args.n} words stand in the release")
        for run in found:
            print("  " + " ".join(run))
    everything = "\n".join(folded)
    for term in args.terms:
        words = " ".join(word.casefold() for word in _WORD.findall(term))
        hit = re.search(rf"(?<!\w){re.escape(words)}(?!\w)", everything) is not None
        survived += hit
        print(f"term {term!r}: {'FOUND' if hit else 'absent'}")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())

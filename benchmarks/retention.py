"""How much a release keeps as it grows: the curve the card quotes when a release is too small.

A population written by tools/profiles in its scrape style (the project's own generator: skewed employers,
titles, places, schools and skills, a long tail of rare ones) goes through `toolkit run` with the default
rules at each size, as a whole process. From each release's report.json (its counts come from the
released files, `toolkit.contents`):
- the persons released;
- the share of quasi-identifier cells withheld: cells of the attacker views' columns that held a value
  after verification and are null in the release (or belong to a person the risk pass suppressed);
- the share of free-text words the text pass cut, over its k-anonymous columns;
- per column analysts ask for, the share of released rows that still hold a value, and over six of them
  (employer, title, country, institution, a position's title and organisation) pooled: informative cells;
- per attacker view, the share of its columns' cells that still hold a value.

    python benchmarks/retention.py --sizes 200 1000 5000 20000            # print the curve
    python benchmarks/retention.py --sizes ... --write toolkit/data/retention.json

With `--write`, the curve goes where the card reads it, with the set, the seed, the commit and the date.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.profiles import SCRAPE, generate, write_documents

ROOT = Path(__file__).resolve().parent.parent
SECRET = "a retention benchmark secret, long enough"
ANALYSTS_COLUMNS = (
    "profiles.employer",
    "profiles.title",
    "profiles.country",
    "education.institution",
    "experience.title",
    "skills.skill",
    "skills.score",
)
INFORMATIVE_COLUMNS = (
    "profiles.employer",
    "profiles.title",
    "profiles.country",
    "education.institution",
    "experience.title",
    "experience.organization",
)
"""The six quasi-identifier columns whose cells the issue on utility counts (a value at any step of its
ladder is informative; a withheld one is not)."""


def measure(persons: int, seed: int, folder: Path) -> dict[str, Any]:
    """One size: the job run on a fresh population, and what its release keeps."""
    docs = folder / f"docs-{persons}"
    write_documents(docs, generate(persons, seed, SCRAPE), None, False)
    out = folder / f"release-{persons}"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "run", str(docs), "--out", str(out), "--json"],
        env={**os.environ, "TOOLKIT_SECRET": SECRET},
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{persons} persons: the job exited {done.returncode}: {done.stderr[-500:]}")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return figures(report) | {"seconds": round(seconds, 1)}


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """What a release keeps, read from its report."""
    release = report["release"]
    cells = release["quasi_identifiers"]
    columns = release["columns"]
    kept = cut = 0
    for entry in report["text"].get("columns", {}).values():
        kept += int(entry.get("words_kept", 0))
        cut += int(entry.get("words_cut", 0))
    return {
        "persons": release["tables"]["profiles"],
        "quasi_identifiers_withheld": _share(
            cells["cells_before"] - cells["cells_released"], cells["cells_before"]
        ),
        "words_cut": _share(cut, kept + cut),
        "columns_kept": {
            column: _share(columns[column]["values"], columns[column]["rows"])
            for column in ANALYSTS_COLUMNS
            if column in columns
        },
        "informative": _share(
            sum(columns[column]["values"] for column in INFORMATIVE_COLUMNS if column in columns),
            sum(columns[column]["rows"] for column in INFORMATIVE_COLUMNS if column in columns),
        ),
        "views": {
            name: _share(view["cells_released"], view["cells_before"])
            for name, view in cells.get("views", {}).items()
        },
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--sizes", type=int, nargs="+", default=[200, 1000, 5000])
    options.add_argument("--seed", type=int, default=2026)
    options.add_argument("--write", type=Path, help="write the curve as JSON here (the card reads it)")
    args = options.parse_args(argv)
    points = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            point = measure(size, args.seed, Path(tmp))
            points.append(point)
            kept = ", ".join(f"{column} {share:.0%}" for column, share in point["columns_kept"].items())
            views = ", ".join(f"{name} {share:.0%}" for name, share in point["views"].items())
            print(
                f"{size:>7,} generated -> {point['persons']:>7,} released: quasi-identifier cells withheld "
                f"{point['quasi_identifiers_withheld']:.1%}, free-text words cut {point['words_cut']:.1%}, "
                f"cells of the six columns with a value {point['informative']:.1%}; "
                f"rows with a value: {kept}; cells of each view with a value: {views} "
                f"({point['seconds']:.0f} s)",
                flush=True,
            )
    if args.write:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        curve = {
            "set": "tools/profiles, scrape style (the project's own generator)",
            "seed": args.seed,
            "rules": "the default rules/",
            "command": "python benchmarks/retention.py --sizes "
            + " ".join(map(str, args.sizes))
            + " --write",
            "commit": commit,
            "date": datetime.date.today().isoformat(),
            "points": points,
        }
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(json.dumps(curve, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

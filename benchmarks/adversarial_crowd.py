"""Adversarial cases released in a crowd: which planted values survive the whole job with every pass on.

Run: .venv/bin/python benchmarks/adversarial_crowd.py SUITE [--rules DIR] [--json FILE]

SUITE is a folder with `cases/` (one fictional profile per file), `planted.yaml` (per case the strings
that must not appear in the release) and `crowd/` (ordinary fictional profiles, nothing planted). Every
case and the crowd go through one `toolkit run` as a whole process, with the given rules (default: the
repository's, risk and text passes on); then each planted string is searched, folded as
benchmarks/adversarial_eval.py folds it, in every string cell of the release. A case whose person was
suppressed releases nothing of it: its strings do not survive. Prints the survivors with their case and
where they stand; exit code 0 whatever survives, 2 when the job fails or the suite is malformed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.adversarial_eval import fold, release_cells

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("--rules", type=Path, default=ROOT / "rules")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    manifest = yaml.safe_load((args.suite / "planted.yaml").read_text(encoding="utf-8"))
    cases = [(entry["file"], entry["class"], list(entry["planted"])) for entry in manifest["cases"]]
    missing = [name for name, _, _ in cases if not (args.suite / "cases" / name).is_file()]
    if missing or not (args.suite / "crowd").is_dir():
        print(f"malformed suite: missing {missing[:3] or 'crowd/'}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Path(tmp) / "inputs"
        shutil.copytree(args.suite / "crowd", inputs / "crowd")
        shutil.copytree(args.suite / "cases", inputs / "cases")
        release = Path(tmp) / "release"
        env = {**os.environ, "TOOLKIT_SECRET": "adversarial-crowd-fixed-secret-v1"}
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "run", str(inputs), "--out", str(release), "--rules",
             str(args.rules), "--json"],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode not in (0, 1):
            said = done.stderr.strip()[-2000:]
            try:  # a blocked job's --json report says why
                checked = json.loads(done.stdout)["verification"]
                said += f" verification kept out {checked['persons_suppressed']} persons (budget "
                said += f"{checked['suppression_budget']}), blocked: {checked['blocked']}"
            except (ValueError, KeyError, TypeError):
                pass
            print(f"toolkit run exited {done.returncode} (3: no release written): {said}", file=sys.stderr)
            return 2
        cells = release_cells(release)
        report = json.loads((release / "report.json").read_text(encoding="utf-8"))
    survivors: list[dict[str, Any]] = []
    for name, cls, planted in cases:
        for value in planted:
            where = sorted({column for column, text in cells if fold(value) in text})
            if where:
                survivors.append({"case": name, "class": cls, "string": value, "where": where})
    total = sum(len(planted) for _, _, planted in cases)
    figures = {
        "cases": len(cases),
        "planted": total,
        "survived": len(survivors),
        "persons": report["counts"]["profiles"],
        "suppressed_by_verification": report["verification"]["persons_suppressed"],
        "suppressed_by_risk": report["risk"].get("suppressed", 0),
        "survivors": survivors,
    }
    print(
        f"{len(survivors)} of {total} planted values survive ({len(cases)} cases in a crowd; "
        f"{figures['persons']} persons, {figures['suppressed_by_verification']} suppressed by "
        f"verification, {figures['suppressed_by_risk']} by the risk pass)"
    )
    for found in survivors:
        shown = ", ".join(found["where"])
        print(f"  {found['class']:<16} {found['case']:<48} {found['string']!r} in {shown}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

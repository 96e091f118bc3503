"""What each recognizer of `rules/recognizers.yaml` still adds once the dataset-wide passes hold.

For the whole set and then for each recognizer in turn, a copy of `rules/` without that recognizer:

- **whole job, every pass on** (`benchmarks/adversarial_crowd.py SUITE --rules COPY`): planted values that
  survive the release, and persons kept out by verification (the last line of defence, which does not
  read the scrubber's recognizers);
- **scrubber alone** (`toolkit.scrub_frame` with the copy, scored as `benchmarks/prose_eval.py` scores):
  labelled personal values left in part or whole, skills and tools kept, replacements that touch no
  labelled value (one minus precision), and rows per second.

A recognizer's worth is the difference from the whole set: survivors and personal values it saves, skills
and precision it costs, and time. Each configuration runs once (the machine is noisy: rows per second
differ by several percent between identical runs). The table goes to stdout; `--json` keeps every figure.

    python benchmarks/recognizer_ablation.py                               # tests/adversarial/heldout10
    python benchmarks/recognizer_ablation.py --only phone url --prose benchmarks/data/prose_heldout.jsonl
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.prose_eval import PERSONAL, load, score

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
_KEY = "recognizer ablation key, not a secret"


def recognizer_names(rules: Path) -> list[str]:
    data = yaml.safe_load((rules / "recognizers.yaml").read_text(encoding="utf-8"))
    return [entry["name"] for entry in data["recognizers"]]


def rules_without(rules: Path, name: str | None, into: Path) -> Path:
    target = into / f"rules-without-{name or 'nothing'}"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(rules, target)
    if name is not None:
        path = target / "recognizers.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["recognizers"] = [entry for entry in data["recognizers"] if entry["name"] != name]
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return target


def crowd_figures(suite: Path, rules: Path, into: Path) -> dict[str, Any]:
    out = into / "crowd.json"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "adversarial_crowd.py"), str(suite), "--rules", str(rules),
         "--json", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.startswith("toolkit run exited")]
        return {"error": (said or ["job failed"])[0][:160]}
    figures: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    figures["seconds"] = time.perf_counter() - started
    return figures


def prose_figures(data: list[Path], rules: Path) -> dict[str, Any]:
    import polars as pl

    import toolkit

    records = [record for path in data for record in load(path)]
    frame = pl.DataFrame({"text": [record.text for record in records]})
    toolkit.scrub_frame(pl.DataFrame({"text": ["warm-up for Ada at ada@example.org"]}), "text", rules, _KEY)
    started = time.perf_counter()
    outputs = toolkit.scrub_frame(frame, "text", rules, _KEY)["text"].to_list()
    seconds = time.perf_counter() - started
    result = score("toolkit", records, [text or "" for text in outputs])
    return {
        "personal_left": sum(result.left[kind] for kind in PERSONAL),
        "personal_labelled": sum(result.labelled[kind] for kind in PERSONAL),
        "skills_kept": result.left["SKILL"],
        "skills": result.labelled["SKILL"],
        "replacements": result.replacements,
        "not_personal": result.not_personal,
        "rows_per_second": len(records) / seconds,
    }


_COLUMNS = (("crowd", "survived"), ("crowd", "suppressed_by_verification"), ("prose", "personal_left"),
            ("prose", "skills_kept"), ("prose", "not_personal"))  # fmt: skip


def _row(name: str, figures: dict[str, dict[str, Any]], base: dict[str, dict[str, Any]] | None) -> str:
    """One table row: each count, with its difference from the whole set when there is one."""
    if "error" in figures["crowd"]:
        return f"| {name} | job failed: {figures['crowd']['error']} | | | | | |"
    cells = []
    for source, key in _COLUMNS:
        value = figures[source][key]
        difference = value - base[source][key] if base is not None else 0
        cells.append(f"{value} ({difference:+d})" if difference else str(value))
    cells.append(f"{figures['prose']['rows_per_second']:.1f}")
    return f"| {name} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--suite", type=Path, default=ROOT / "tests" / "adversarial" / "heldout10")
    dev_sets = [DATA / "resumes_dev.jsonl", DATA / "prose_dev.jsonl"]
    options.add_argument("--prose", type=Path, nargs="+", default=dev_sets)
    options.add_argument("--rules", type=Path, default=ROOT / "rules")
    options.add_argument("--only", nargs="*", default=None, help="these recognizers only")
    options.add_argument("--json", type=Path, default=None)
    args = options.parse_args(argv)
    names = args.only if args.only is not None else recognizer_names(args.rules)
    unknown = sorted(set(names) - set(recognizer_names(args.rules)))
    if unknown:
        print(f"no recognizer named {', '.join(unknown)} in {args.rules}/recognizers.yaml", file=sys.stderr)
        return 2
    results: dict[str, dict[str, Any]] = {}
    sets = " + ".join(path.name for path in args.prose)
    print(f"crowd: {args.suite}; scrubber alone: {sets}; each recognizer removed in turn\n")
    print("| without | crowd survivors | kept out by verification | personal values left | skills kept "
          "| replacements not personal | rows/s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in [None, *names]:
            rules = rules_without(args.rules, name, Path(tmp))
            crowd = crowd_figures(args.suite, rules, Path(tmp))
            prose = prose_figures(args.prose, rules)
            label = name or "(all on)"
            survivors = crowd.get("survivors", [])
            crowd["survivors"] = [f"{found['class']}: {found['string']}" for found in survivors]
            results[label] = {"crowd": crowd, "prose": prose}
            print(_row(label, results[label], results.get("(all on)") if name else None), flush=True)
            shutil.rmtree(rules)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

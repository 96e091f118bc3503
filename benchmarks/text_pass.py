"""The k-anonymous text pass at growing sizes: its time against the whole job's, and the job's memory.

For each size, the generated profiles of benchmarks/scale.py (same cache) go through `toolkit run` as whole
processes, alternately with the text pass off (a copy of rules/ with `text: enabled: false`) and on,
`--runs` times each: the pass (its terms in the workers, its levels, merges and cut) costs the difference
of the medians. Peak RSS is the largest sum over the job's process tree, sampled every 0.2 s.

    python benchmarks/text_pass.py                     # 2,000 and 20,000 profiles, 2 workers, 3 runs
    python benchmarks/text_pass.py --sizes 200000 --runs 1
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.scale import SECRET, _generated, _timed

ROOT = Path(__file__).resolve().parent.parent


def rules_without_text(into: Path) -> Path:
    target = into / "rules-no-text"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(ROOT / "rules", target)
    risk = yaml.safe_load((target / "risk.yaml").read_text(encoding="utf-8"))
    risk.setdefault("text", {})["enabled"] = False
    written = yaml.safe_dump(risk, sort_keys=False, allow_unicode=True)
    (target / "risk.yaml").write_text(written, encoding="utf-8")
    return target


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--jobs", type=int, default=2)
    options.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "toolkit-scale")
    args = options.parse_args()
    env = {**os.environ, "TOOLKIT_SECRET": SECRET}
    settings = {"on": ROOT / "rules", "off": rules_without_text(args.cache)}
    for size in args.sizes:
        folder = _generated(args.cache, size)
        inputs = sorted(str(part) for part in folder.iterdir() if part.is_dir())
        seconds: dict[str, list[float]] = {"on": [], "off": []}
        peaks: dict[str, list[float]] = {"on": [], "off": []}
        for _ in range(args.runs):
            for name, rules in settings.items():
                release = args.cache / f"text-release-{size}-{name}"
                command = [sys.executable, "-m", "toolkit", "run", *inputs, "--out", str(release),
                           "--jobs", str(args.jobs), "--rules", str(rules), "--json"]  # fmt: skip
                took, tree, _, code = _timed(command, env)
                if code not in (0, 1):
                    print(f"{size:,} profiles, text pass {name}: exit {code}", file=sys.stderr)
                seconds[name].append(took)
                peaks[name].append(tree)
        on, off = statistics.median(seconds["on"]), statistics.median(seconds["off"])
        print(
            f"{size:>8,} profiles  job {on:7.1f} s with the text pass, {off:7.1f} s without "
            f"(medians of {args.runs}): the pass {on - off:+6.1f} s, {(on - off) / on:+.1%} of the job; "
            f"peak RSS {max(peaks['on']):6.0f} MiB with, {max(peaks['off']):6.0f} MiB without",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""The k-anonymous text pass at growing sizes: its time against the whole job's, and the job's memory.

For each size, the generated profiles of benchmarks/scale.py (same cache) go through `toolkit run` as whole
processes, alternately with the text pass off (a copy of rules/ with `text: enabled: false`) and on,
`--runs` times each: the pass (its terms in the workers, its levels, merges and cut) costs the difference
of the medians. Peak RSS is the largest sum over the job's process tree, sampled every 0.2 s.

The whole job's time varies by several seconds from run to run on this machine (the scrubbing phase
above all), more than the pass costs at 20,000 profiles. So the driver of each run is also profiled
(cProfile; its workers are not), and the pass's own wall time in the driver is printed beside the
difference: the text pass (`passes.text_pass`: its keys and cut run in the workers, the merges here)
and what the `text_terms` view adds to the risk pass (`plan_risk` with the pass, less without). The pass's
share of the workers' scrubbing phase (listing each batch's terms, `term_rows`) is not in that figure.

    python benchmarks/text_pass.py                     # 2,000 and 20,000 profiles, 2 workers, 3 runs
    python benchmarks/text_pass.py --sizes 200000 --runs 1
    python benchmarks/text_pass.py --sizes 200000 --runs 1 --only-on   # one job: its phases and peak
"""

from __future__ import annotations

import argparse
import os
import pstats
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


_PROFILED = (
    "import cProfile, sys\nfrom toolkit.cli import main\ncProfile.run('main(sys.argv[2:])', sys.argv[1])\n"
)
_PHASES = {"text": ("passes.py", "text_pass"), "risk": ("risk/__init__.py", "plan_risk")}


def phase_seconds(profile: Path) -> dict[str, float]:
    """The driver's cumulative wall seconds in each of `_PHASES` (0 where it did not run)."""
    found = dict.fromkeys(_PHASES, 0.0)
    stats = pstats.Stats(str(profile)).stats  # type: ignore[attr-defined]
    for (filename, _, function), (_, _, _, cumulative, _) in stats.items():
        for phase, (file_end, name) in _PHASES.items():
            if function == name and filename.endswith(file_end):
                found[phase] += cumulative
    return found


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--jobs", type=int, default=2)
    options.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "toolkit-scale")
    options.add_argument(
        "--only-on", action="store_true", help="one job with the pass (its time, phases and peak), no pair"
    )
    args = options.parse_args()
    env = {**os.environ, "TOOLKIT_SECRET": SECRET}
    settings = {"on": ROOT / "rules"}
    if not args.only_on:
        settings["off"] = rules_without_text(args.cache)
    for size in args.sizes:
        folder = _generated(args.cache, size)
        inputs = sorted(str(part) for part in folder.iterdir() if part.is_dir())
        seconds: dict[str, list[float]] = {"on": [], "off": []}
        peaks: dict[str, list[float]] = {"on": [], "off": []}
        phases: dict[str, list[dict[str, float]]] = {"on": [], "off": []}
        for _ in range(args.runs):
            for name, rules in settings.items():
                release = args.cache / f"text-release-{size}-{name}"
                profile = args.cache / f"text-release-{size}-{name}.prof"
                flags = ["--out", str(release), "--jobs", str(args.jobs), "--rules", str(rules), "--json"]
                command = [sys.executable, "-c", _PROFILED, str(profile), "run", *inputs, *flags]
                took, tree, _, _, code = _timed(command, env)
                if code not in (0, 1):
                    print(f"{size:,} profiles, text pass {name}: exit {code}", file=sys.stderr)
                seconds[name].append(took)
                peaks[name].append(tree)
                phases[name].append(phase_seconds(profile))
                print(f"    {name}: {took:.1f} s, {tree:.0f} MiB, {phases[name][-1]}", flush=True)
        if args.only_on:
            on, risk = statistics.median(seconds["on"]), statistics.median(p["risk"] for p in phases["on"])
            text = statistics.median(p["text"] for p in phases["on"])
            print(
                f"{size:>8,} profiles  job {on:7.1f} s with the text pass (median of {args.runs}); in the "
                f"driver, the risk pass {risk:.1f} s ({risk / on:.1%}) and the text pass {text:.1f} s "
                f"({text / on:.1%}); peak RSS {max(peaks['on']):6.0f} MiB",
                flush=True,
            )
            continue
        on, off = statistics.median(seconds["on"]), statistics.median(seconds["off"])
        text = statistics.median(p["text"] for p in phases["on"])
        terms_view = statistics.median(p["risk"] for p in phases["on"]) - statistics.median(
            p["risk"] for p in phases["off"]
        )
        print(
            f"{size:>8,} profiles  job {on:7.1f} s with the text pass, {off:7.1f} s without "
            f"(medians of {args.runs}): difference {on - off:+6.1f} s, {(on - off) / on:+.1%} of the job; "
            f"in the driver, the pass {text:.1f} s and its view {terms_view:+.1f} s: "
            f"{(text + terms_view) / on:.1%} of the job; "
            f"peak RSS {max(peaks['on']):6.0f} MiB with, {max(peaks['off']):6.0f} MiB without",
            flush=True,
        )


if __name__ == "__main__":
    main()

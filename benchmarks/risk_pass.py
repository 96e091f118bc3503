"""The re-identification risk pass at growing sizes: its time against the whole job's, and its memory.

For each size, the generated profiles of benchmarks/scale.py (same cache) go through `toolkit run` with the
risk pass off (a copy of rules/ with `enabled: false`), timed as a whole process; then the risk pass alone
runs as a child process over that release, exactly as the driver runs it over the staged parts (plan, then
every table streamed through the plan into a new folder): its wall time, its peak RSS, and its share of
the job (risk / (job without risk + risk)).

    python benchmarks/risk_pass.py                  # 2,000 and 20,000 profiles
    python benchmarks/risk_pass.py --sizes 200000
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.scale import SECRET, _generated, _timed

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("profiles", "education", "skills", "contributions", "experience", "awards")


def plan_and_write(release: Path, out: Path) -> None:
    """The risk pass as the driver runs it; prints its figures as one JSON line."""
    import polars as pl

    from toolkit.risk import plan_risk
    from toolkit.rules import load_risk_rules

    started = time.perf_counter()
    scans = {table: pl.scan_parquet(release / f"{table}.parquet") for table in TABLES}
    plan = plan_risk(scans, load_risk_rules(ROOT / "rules"))
    out.mkdir(parents=True, exist_ok=True)
    for table, rows in scans.items():
        plan.apply(table, rows).sink_parquet(out / f"{table}.parquet")
    figures = plan.to_json()
    print(json.dumps({
        "seconds": time.perf_counter() - started,
        "suppressed": figures["suppressed"],
        "budget": figures["budget"],
        "smallest_k": min(view["after"]["smallest_k"] for view in figures["views"].values()),
        "rows_withheld": sum(view["rows_withheld"] for view in figures["views"].values()),
    }))  # fmt: skip


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    options.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "toolkit-scale")
    options.add_argument("--plan", nargs=2, type=Path, metavar=("RELEASE", "OUT"), help=argparse.SUPPRESS)
    args = options.parse_args()
    if args.plan:
        plan_and_write(*args.plan)
        return
    env = {**os.environ, "TOOLKIT_SECRET": SECRET}
    rules = args.cache / "rules-without-risk"
    shutil.rmtree(rules, ignore_errors=True)
    shutil.copytree(ROOT / "rules", rules)
    risk = rules / "risk.yaml"
    risk.write_text(risk.read_text(encoding="utf-8").replace("enabled: true", "enabled: false"), "utf-8")
    print(f"{'profiles':>10}{'job s (no risk)':>17}{'risk s':>9}{'share':>8}{'risk RSS MiB':>14}"
          f"{'suppressed':>12}{'rows withheld':>15}{'smallest k':>12}")  # fmt: skip
    for size in args.sizes:
        folder = _generated(args.cache, size)
        inputs = sorted(str(part) for part in folder.iterdir() if part.is_dir())
        release = args.cache / f"release-norisk-{size}"
        job = [sys.executable, "-m", "toolkit", "run", *inputs, "--out", str(release), "--rules", str(rules)]
        job_seconds, _, _, code = _timed([*job, "--json"], env)
        if code not in (0, 1):
            print(f"{size:>10,}  the job failed (exit {code})")
            continue
        out = args.cache / f"risk-{size}"
        shutil.rmtree(out, ignore_errors=True)
        child = [sys.executable, str(Path(__file__).resolve()), "--plan", str(release), str(out)]
        started = time.perf_counter()
        import subprocess

        done = subprocess.run(child, env=env, capture_output=True, text=True, check=False)
        if done.returncode:
            print(done.stderr[-2000:], file=sys.stderr)
            continue
        seconds = time.perf_counter() - started
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        _, tree, _, _ = _timed(child, env)  # again, sampled for memory
        share = seconds / (job_seconds + seconds)
        print(f"{size:>10,}{job_seconds:>17.1f}{seconds:>9.1f}{share:>8.1%}{tree:>14.0f}"
              f"{figures['suppressed']:>7} /{figures['budget']:>4}{figures['rows_withheld']:>15,}"
              f"{figures['smallest_k']:>12}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()

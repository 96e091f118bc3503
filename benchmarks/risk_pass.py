"""The re-identification risk pass at growing sizes: its time against the whole job's, and its memory.

For each size, the generated profiles of benchmarks/scale.py (same cache) go through `toolkit run` twice as
whole processes, with the risk pass off (a copy of rules/ with `enabled: false`) and on: the pass costs
the difference (its phrase extraction runs in the workers, its plan and rewrite in the driver). Then the
pass alone runs in a child process over the release written without it, as the driver runs it (phrase
keys, plan, every table streamed through the plan): its seconds per step and its peak RSS.

    python benchmarks/risk_pass.py                          # 2,000 and 20,000 profiles
    python benchmarks/risk_pass.py --alone RELEASE          # the pass alone over an existing release
    python benchmarks/risk_pass.py --alone RELEASE --replicate 10   # ... over ten copies of it

Ten copies of a 20,000-profile release (each person ten times, under ten pseudonyms) are a cheap stand-in
for the pass's memory at 200,000 profiles: the same rows, though fewer distinct values and classes ten
times larger (the search finds its levels sooner there).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.scale import SECRET, _generated, _timed

ROOT = Path(__file__).resolve().parent.parent


def pass_alone(release: Path, out: Path) -> None:
    """The risk pass as the driver runs it, over a release written without it; one JSON line of figures."""
    import polars as pl

    from toolkit.passes import OUTPUT_TABLES
    from toolkit.risk import plan_risk
    from toolkit.risk.phrases import PhraseFinder, phrase_keys
    from toolkit.rules import load_privacy_rules, load_risk_rules

    rules, privacy = load_risk_rules(ROOT / "rules"), load_privacy_rules(ROOT / "rules")
    assert rules.phrases is not None
    finder = PhraseFinder(rules.phrases, privacy)
    scans = {table: pl.scan_parquet(release / f"{table}.parquet") for table in OUTPUT_TABLES}
    ids = scans["profiles"].select("profile_id").collect().get_column("profile_id")
    out.mkdir(parents=True, exist_ok=True)
    parts = out / "phrases"
    parts.mkdir(exist_ok=True)
    extracting = 0.0
    for start in range(0, ids.len(), 500):  # batches of 500 profiles, as the workers see them
        chosen = ids.slice(start, 500).implode()
        batch = {t: scan.filter(pl.col("profile_id").is_in(chosen)).collect() for t, scan in scans.items()}
        began = time.perf_counter()
        phrase_keys(batch, rules.phrases, finder).write_parquet(parts / f"part-{start:09d}.parquet")
        extracting += time.perf_counter() - began
    phrases = pl.scan_parquet(sorted(parts.glob("*.parquet")))
    extracted = time.perf_counter()
    plan = plan_risk(scans, rules, phrases, finder)
    planned = time.perf_counter()
    for table, rows in scans.items():
        plan.apply(table, rows).sink_parquet(out / f"{table}.parquet")
    written = time.perf_counter()
    figures = plan.to_json()
    print(json.dumps({
        "extract": extracting, "plan": planned - extracted, "write": written - planned,
        "suppressed": figures["suppressed"], "budget": figures["budget"],
        "smallest_k": min(view["after"]["smallest_k"] for view in figures["views"].values()),
        "rows_withheld": sum(view["rows_withheld"] for view in figures["views"].values()),
    }))  # fmt: skip


def replicated(release: Path, times: int, cache: Path) -> Path:
    """`release`'s tables `times` over, each copy's `profile_id`s suffixed with its number."""
    import polars as pl

    out = cache / f"{release.name}-x{times}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for table in sorted(release.glob("*.parquet")):
        rows = pl.scan_parquet(table)
        copies = [
            rows.with_columns(pl.col("profile_id") + f"-{copy}")
            if "profile_id" in rows.collect_schema()
            else rows
            for copy in range(times)
        ]
        pl.concat(copies).sink_parquet(out / table.name)
    return out


def _alone(release: Path, cache: Path, env: dict[str, str]) -> None:
    out = cache / f"risk-alone-{release.name}"
    shutil.rmtree(out, ignore_errors=True)
    child = [sys.executable, str(Path(__file__).resolve()), "--child", str(release), str(out)]
    done = subprocess.run(child, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        print(done.stderr[-2000:], file=sys.stderr)
        return
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    _, tree, _, _, _ = _timed(child, env)  # again, sampled for memory
    print(
        f"  the pass alone over {release.name}: phrase keys {figures['extract']:.1f} s (in one process), "
        f"plan {figures['plan']:.1f} s, rewrite and write {figures['write']:.1f} s; peak RSS {tree:.0f} MiB; "
        f"{figures['suppressed']} suppressed (budget {figures['budget']}), {figures['rows_withheld']:,} rows "
        f"withheld, smallest class {figures['smallest_k']}",
        flush=True,
    )


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    options.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "toolkit-scale")
    options.add_argument("--alone", type=Path, help="only the pass alone, over this release")
    options.add_argument("--replicate", type=int, default=1, help="with --alone: over this many copies")
    options.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = options.parse_args()
    if args.child:
        pass_alone(*args.child)
        return
    env = {**os.environ, "TOOLKIT_SECRET": SECRET}
    if args.alone:
        release = args.alone if args.replicate == 1 else replicated(args.alone, args.replicate, args.cache)
        _alone(release, args.cache, env)
        return
    rules_off = args.cache / "rules-without-risk"
    shutil.rmtree(rules_off, ignore_errors=True)
    shutil.copytree(ROOT / "rules", rules_off)
    risk = rules_off / "risk.yaml"
    risk.write_text(risk.read_text(encoding="utf-8").replace("enabled: true", "enabled: false"), "utf-8")
    for size in args.sizes:
        folder = _generated(args.cache, size)
        inputs = sorted(str(part) for part in folder.iterdir() if part.is_dir())
        timings = {}
        for label, rules in (("off", rules_off), ("on", ROOT / "rules")):
            release = args.cache / f"release-risk-{label}-{size}"
            job = [sys.executable, "-m", "toolkit", "run", *inputs, "--out", str(release),
                   "--rules", str(rules), "--json"]  # fmt: skip
            seconds, tree, _, _, code = _timed(job, env)
            timings[label] = (seconds, tree, code)
        (off, off_rss, off_code), (on, on_rss, on_code) = timings["off"], timings["on"]
        print(
            f"{size:>8,} profiles: job {off:.1f} s without the risk pass, {on:.1f} s with it: the pass costs "
            f"{(on - off) / on:.1%} of the job; peak RSS {off_rss:.0f} / {on_rss:.0f} MiB (exits {off_code}, "
            f"{on_code})",
            flush=True,
        )
        _alone(args.cache / f"release-risk-off-{size}", args.cache, env)


if __name__ == "__main__":
    main()

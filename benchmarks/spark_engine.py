"""The Spark engine against the local one: the same release, and what Spark costs, on one input in one run.

Each is a whole process (`toolkit run`), timed by the wall clock, medians of R runs, in turn:
- Spark's start-up alone: a process that starts a session on local[2] and stops it (JVM, Py4J, the session);
- the local engine with 2 worker processes (`--jobs 2`);
- the Spark engine on `local[2]` (`--engine spark --master local[2]`).

Spark's overhead after start-up is (Spark - start-up) / local - 1. Then the two releases are compared: every
table's rows after sorting, and the report without the folder's name.

    python benchmarks/spark_engine.py                    # 20,000 generated profiles (tools.profiles)
    python benchmarks/spark_engine.py --size 2000 --runs 1
    python benchmarks/spark_engine.py --input /tmp/heldout/pop-600
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.scale import SECRET, _generated
from tools.releases import different_tables, without_folders

_START_AND_STOP = (
    "from toolkit.spark import spark_session\n"
    "session, _ = spark_session('local[2]')\n"
    "session.range(1).count()\n"
    "session.stop()\n"
)


def _seconds(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        errors = done.stderr.decode(errors="replace")[-2000:]
        raise SystemExit(f"{' '.join(command[:4])}... exited {done.returncode}: {errors}")
    return seconds


def _differences(local: Path, spark: Path) -> list[str]:
    """What differs between two releases: tables by their sorted rows, reports without folder names."""
    found = different_tables(local, spark)
    reports = [without_folders(json.loads((done / "report.json").read_text())) for done in (local, spark)]
    if reports[0] != reports[1]:
        found += [f"report.json: {key}" for key in reports[0] if reports[0][key] != reports[1].get(key)]
    return found


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--size", type=int, default=20000, help="generated profiles (tools.profiles)")
    options.add_argument("--input", type=Path, help="a folder of profiles instead of generated ones")
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "toolkit-scale")
    args = options.parse_args()
    inputs = args.input or _generated(args.cache, args.size)
    env = {**os.environ, "TOOLKIT_SECRET": SECRET, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    toolkit = [sys.executable, "-m", "toolkit", "run", str(inputs), "--json"]
    times: dict[str, list[float]] = {"start-up": [], "local": [], "spark": []}
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        for _ in range(args.runs):
            times["start-up"].append(_seconds([sys.executable, "-c", _START_AND_STOP], env))
            times["local"].append(_seconds([*toolkit, "--out", str(out / "local"), "--jobs", "2"], env))
            spark = [*toolkit, "--out", str(out / "spark"), "--engine", "spark", "--master", "local[2]"]
            times["spark"].append(_seconds(spark, env))
        differences = _differences(out / "local", out / "spark")
    median = {what: statistics.median(seconds) for what, seconds in times.items()}
    print(f"{inputs}: whole processes, medians of {args.runs} runs")
    for what, seconds in times.items():
        print(f"  {what:9} {median[what]:8.1f} s   ({', '.join(f'{s:.1f}' for s in seconds)})")
    overhead = (median["spark"] - median["start-up"]) / median["local"] - 1
    print(f"  Spark's overhead after start-up: {overhead:+.1%} (target at most +15%)")
    print("  DIFFERENT: " + "; ".join(differences) if differences else "  the same release on both engines")


if __name__ == "__main__":
    main()

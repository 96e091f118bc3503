"""The whole job at growing sizes, as whole processes: profiles/s, peak memory, 1 against 2 workers.

Generated profiles (tools.profiles, planted style: Faker names of many locales, employers that carry
surnames) are written once per size under a cache folder; then `toolkit run` runs on them as a child
process per setting, all in one run of this script. Peak memory is sampled from /proc every 0.2 s: the
largest sum of resident memory over the job's process tree (driver and workers), and the driver's own peak;
and, once a second, the largest sum of proportional memory (PSS: a page that several of the processes map,
such as the code of Polars and spaCy, counted once over the tree), the memory the job takes from the machine.
After each run the release is searched for every planted person's whole name (folded, on word
boundaries): the figure is the number of names found. With --trace, every sample is also written to a CSV
(seconds, processes, tree RSS, driver RSS, in MiB), which shows which phase holds the peak.

    python benchmarks/scale.py        # 2,000 and 20,000 profiles, 1 and 2 workers; 200,000 with 2
    python benchmarks/scale.py --sizes 2000 --jobs 1 2
    python benchmarks/scale.py --sizes 200000 --jobs 2 --trace /tmp/trace.csv
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from toolkit.verify import NameIndex, name_words

SECRET = "a benchmark secret that is long enough"


@dataclass(frozen=True)
class Run:
    size: int
    jobs: int
    seconds: float
    tree_mib: float
    driver_mib: float
    pss_mib: float
    exit_code: int
    names_found: int

    @property
    def rate(self) -> float:
        return self.size / self.seconds


def _proc_kib(pid: int, file: str, field: str) -> int:
    """A KiB figure of /proc/<pid>/<file> (`field` ends with a colon); 0 once the process is gone."""
    try:
        with open(f"/proc/{pid}/{file}", encoding="ascii") as lines:
            for line in lines:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _rss_kib(pid: int) -> int:
    return _proc_kib(pid, "status", "VmRSS:")


def _pss_kib(pid: int) -> int:
    return _proc_kib(pid, "smaps_rollup", "Pss:")


def _tree(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        try:
            with open(f"/proc/{current}/task/{current}/children", encoding="ascii") as children:
                stack.extend(int(child) for child in children.read().split())
        except OSError:
            pass
    return found


def _timed(
    command: list[str], env: dict[str, str], trace: Path | None = None
) -> tuple[float, float, float, float, int]:
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peaks = {"tree": 0, "driver": 0, "pss": 0}
    samples: list[str] = []

    def sample() -> None:
        tick = 0
        while process.poll() is None:
            pids = _tree(process.pid)
            tree, driver = sum(_rss_kib(pid) for pid in pids), _rss_kib(process.pid)
            peaks["tree"] = max(peaks["tree"], tree)
            peaks["driver"] = max(peaks["driver"], driver)
            samples.append(f"{time.perf_counter() - started:.1f},{len(pids)},{tree // 1024},{driver // 1024}")
            if tick % 5 == 0:  # smaps_rollup walks each process's page tables: once a second is enough
                peaks["pss"] = max(peaks["pss"], sum(_pss_kib(pid) for pid in pids))
            tick += 1
            time.sleep(0.2)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, errors = process.communicate()
    seconds = time.perf_counter() - started
    sampler.join()
    if trace is not None:
        trace.write_text("seconds,processes,tree_mib,driver_mib\n" + "\n".join(samples) + "\n")
    if process.returncode not in (0, 1):
        print(errors.decode(errors="replace")[-2000:], file=sys.stderr)
    return seconds, peaks["tree"] / 1024, peaks["driver"] / 1024, peaks["pss"] / 1024, process.returncode


def _generated(cache: Path, size: int) -> Path:
    folder = cache / f"profiles-{size}"
    if not (folder / "done").exists():
        subprocess.run(
            [sys.executable, "-m", "tools.profiles", str(folder), "--count", str(size), "--planted",
             "--seed", "2026", "--truth"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        (folder / "done").write_text("")
    return folder


def _names_found(release: Path, truth: Path) -> int:
    """Planted whole names still in the release (each counted once per text cell)."""
    names = []
    with truth.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            name = record.get("full_name")
            if name:
                names.append(name)
    index = NameIndex.of(names)
    found = 0
    for path in sorted(release.glob("*.parquet")):
        frame = pl.read_parquet(path)
        for column, dtype in frame.schema.items():
            if dtype == pl.List(pl.String):
                values = frame.get_column(column).explode().drop_nulls()
            elif dtype == pl.String and column != "profile_id":
                values = frame.get_column(column).drop_nulls()
            else:
                continue
            found += sum(1 for value in values if index.found_in(name_words(value)))
    return found


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000, 200000])
    options.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    options.add_argument("--one-worker-up-to", type=int, default=20000, help="1 worker only up to this size")
    options.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "toolkit-scale")
    options.add_argument("--trace", type=Path, help="write every memory sample of the last run to this CSV")
    args = options.parse_args()
    env = {**os.environ, "TOOLKIT_SECRET": SECRET}
    runs = []
    for size in args.sizes:
        folder = _generated(args.cache, size)
        inputs = sorted(str(part) for part in folder.iterdir() if part.is_dir())
        for jobs in args.jobs:
            if jobs == 1 and size > args.one_worker_up_to and len(args.jobs) > 1:
                continue
            release = args.cache / f"release-{size}-{jobs}"
            command = [sys.executable, "-m", "toolkit", "run", *inputs, "--out", str(release),
                       "--jobs", str(jobs), "--json"]  # fmt: skip
            seconds, tree, driver, pss, code = _timed(command, env, args.trace)
            found = _names_found(release, folder / "truth.jsonl") if code in (0, 1) else -1
            run = Run(size, jobs, seconds, tree, driver, pss, code, found)
            runs.append(run)
            print(
                f"{size:>8,} profiles  {jobs} worker(s)  {seconds:8.1f} s  {run.rate:7.1f} profiles/s  "
                f"peak RSS {tree:7.0f} MiB (driver {driver:5.0f}, PSS {pss:5.0f})  exit {code}  "
                f"whole names found {found}",
                flush=True,
            )
    print()
    for size in args.sizes:
        by_jobs = {run.jobs: run for run in runs if run.size == size}
        if 1 in by_jobs and 2 in by_jobs:
            print(
                f"{size:>8,} profiles: 2 workers are "
                f"{by_jobs[1].seconds / by_jobs[2].seconds:.2f}x one worker"
            )
    two = [run for run in runs if run.jobs == max(args.jobs)]
    if len(two) >= 2:
        print(
            f"peak RSS {two[-1].size:,} against {two[0].size:,} profiles: "
            f"{two[-1].tree_mib / two[0].tree_mib:.2f}x"
        )


if __name__ == "__main__":
    main()

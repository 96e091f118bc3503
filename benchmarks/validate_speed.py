"""Validation speed: the quality rules over 1,000,000 rows of the skills table.

Run: make bench   (or: .venv/bin/python benchmarks/validate_speed.py [--rows N] [--runs R])

Prints medians of several runs of `validate_tables` (all shipped rules: contract dtypes, pandera checks,
cross-table checks, findings, quarantine split) beside the same rule expressions evaluated by plain Polars
with no pandera, to show what pandera's bookkeeping costs. Target: well under 2 s for 1,000,000 skill rows.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolkit.model import ProfileSet, empty_frame
from toolkit.quality import validate_tables
from toolkit.quality.checks import plan
from toolkit.rules import load_quality_rules
from tools.profiles import SKILLS

SKILLS_PER_PROFILE = 20


def tables(rows: int) -> ProfileSet:
    """`rows` skill rows over rows/20 profiles; 0.1% of scores out of range so findings are real."""
    ids = pl.Series([f"p{i:016x}" for i in range(rows // SKILLS_PER_PROFILE)])
    contract = empty_frame("profiles").schema
    given = {"profile_id": ids, "source": "bench.txt", "layout": "talent_page", "name": "Bench Person"}
    profiles = pl.DataFrame(given).with_columns(
        pl.lit(None, dtype=dtype).alias(column) for column, dtype in contract.items() if column not in given
    )
    skills = (
        pl.DataFrame({"row": pl.int_range(rows, eager=True)})
        .with_columns(
            profile_id=ids.gather(pl.Series(range(rows)) // SKILLS_PER_PROFILE),
            kind=pl.when(pl.col("row") % 2 == 0)
            .then(pl.lit("github_skill"))
            .otherwise(pl.lit("programming_language")),
            skill=pl.lit(SKILLS).list.get(pl.col("row") % len(SKILLS))
            + "-"
            + (pl.col("row") % SKILLS_PER_PROFILE).cast(pl.String),
            score=pl.when(pl.col("row") % 1000 == 0).then(11).otherwise(pl.col("row") % 11).cast(pl.Int32),
        )
        .select("profile_id", "kind", "skill", "score")
    )
    return ProfileSet.from_frames(
        {"profiles": profiles.select(list(contract)).cast(contract), "skills": skills}
    )


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rows", type=int, default=1_000_000)
    options.add_argument("--runs", type=int, default=5)
    args = options.parse_args()
    rules = load_quality_rules()
    data = tables(args.rows)
    frames = dict(data.tables())

    full, plain = [], []
    for _ in range(args.runs):
        started = time.perf_counter()
        result = validate_tables(data, rules)
        full.append(time.perf_counter() - started)
        started = time.perf_counter()
        for rule in rules.rules:
            frames[rule.table].select(plan(rule, frames).passes.not_().sum())
        plain.append(time.perf_counter() - started)

    findings = {finding.rule: finding.rows for finding in result.findings}
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{data.skills.height:,} skill rows, {data.profiles.height:,} profiles, {len(rules.rules)} rules; "
        f"medians of {args.runs} runs"
    )
    print(f"findings: {findings}")
    print(f"{'':<48}{'seconds':>9}{'rows/s':>14}{'ratio':>8}")
    for label, times in (
        ("validate_tables (pandera, all rules, split)", full),
        ("same checks, plain Polars", plain),
    ):
        median = statistics.median(times)
        ratio = median / statistics.median(plain)
        print(f"{label:<48}{median:>9.3f}{data.skills.height / median:>14,.0f}{ratio:>7.1f}x")
    print(f"target: under 2 s for 1,000,000 skill rows; peak RSS {peak_mib:,.0f} MiB")
    print(f"runs, validate_tables: {', '.join(f'{t:.3f}' for t in full)}")


if __name__ == "__main__":
    main()

"""An independent scorer of a release's re-identification risk: per attacker view of `rules/risk.yaml`,
each released person's class size, computed in plain Python from the released Parquet tables.

It shares no code with `toolkit.risk` (it reads risk.yaml with PyYAML and the tables with Polars, then
counts with dicts and sets), so that it can check the figures of the risk pass's report.

    python -m tools.kanon RELEASE [--rules rules] [--whole-lists]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Hashable
from itertools import combinations
from pathlib import Path
from typing import Any

import polars as pl
import yaml


def load_views(rules: Path) -> tuple[int, dict[str, dict[str, Any]]]:
    raw = yaml.safe_load((rules / "risk.yaml").read_text(encoding="utf-8"))
    return int(raw.get("k", 5)), dict(raw["views"])


def class_sizes(release: Path, view: dict[str, Any]) -> dict[str, int]:
    """Released profile_id -> the number of persons that look the same in `view`."""
    persons = pl.read_parquet(release / "profiles.parquet", columns=["profile_id"])["profile_id"].to_list()
    by_table: dict[str, list[str]] = defaultdict(list)
    for column in view["columns"]:
        table, _, name = column.partition(".")
        by_table[table].append(name)
    if view["kind"] == "items":
        ((table, names),) = by_table.items()
        items: dict[str, set[Hashable]] = defaultdict(set)
        for row in pl.read_parquet(release / f"{table}.parquet").iter_rows(named=True):
            items[row["profile_id"]].add(tuple(row[name] for name in names))
        m = int(view.get("m", 1))
        support: Counter[Hashable] = Counter()
        for person in persons:
            for size in range(1, m + 1):
                support.update(combinations(sorted(items[person], key=repr), size))
        sizes = {}
        for person in persons:
            subsets = [
                s for size in range(1, m + 1) for s in combinations(sorted(items[person], key=repr), size)
            ]
            sizes[person] = min((support[s] for s in subsets), default=len(persons))
        return sizes
    signature: dict[str, list[Hashable]] = {person: [] for person in persons}
    for table, names in by_table.items():
        rows: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        frame = pl.read_parquet(release / f"{table}.parquet")
        if view["kind"] == "sequence":
            order = view["order"].partition(".")[2]
            frame = frame.with_row_index("_row").sort("profile_id", order, "_row")
        for row in frame.iter_rows(named=True):
            rows[row["profile_id"]].append(tuple(row[name] for name in names))
        for person in persons:
            seen = rows.get(person, [])
            key = tuple(seen) if view["kind"] == "sequence" else frozenset(seen)
            signature[person].append(key)
    counts = Counter(tuple(parts) for parts in signature.values())
    return {person: counts[tuple(parts)] for person, parts in signature.items()}


def score(release: Path, rules: Path, whole_lists: bool = False) -> dict[str, dict[str, float]]:
    """Per view, its figures; with `whole_lists`, only the items views, each counted as the set of a
    person's rows (an attacker who sees the whole list at once)."""
    default_k, views = load_views(rules)
    scored = {}
    for name, view in views.items():
        if whole_lists and view["kind"] != "items":
            continue
        k = int(view.get("k") or default_k)
        counted = {**view, "kind": "set"} if whole_lists else view
        sizes = list(class_sizes(release, counted).values())
        count = max(len(sizes), 1)
        scored[name] = {
            "persons": len(sizes),
            "smallest_k": min(sizes, default=0),
            "below_target": round(sum(size < k for size in sizes) / count, 4),
            "unique": round(sum(size == 1 for size in sizes) / count, 4),
            # summed as sizes and counts, exactly: the same figure whatever the order of the persons
            "prosecutor_risk": round(math.fsum(n / size for size, n in Counter(sizes).items()) / count, 4),
        }
    return scored


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("release", type=Path)
    options.add_argument("--rules", type=Path, default=Path(__file__).resolve().parent.parent / "rules")
    options.add_argument(
        "--whole-lists", action="store_true", help="the items views, each list counted as one set"
    )
    args = options.parse_args(argv)
    json.dump(score(args.release, args.rules, args.whole_lists), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

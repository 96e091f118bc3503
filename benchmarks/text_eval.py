"""Score a release made from a tools.textpop population: verbatim runs and technical-term retention.

    python benchmarks/text_eval.py --docs DIR --release DIR [--k 5] [--json OUT.json]

DIR (docs) is what `python -m tools.textpop DIR` wrote (its truth.jsonl is read); the release is the
toolkit's output folder (<table>.parquet). A release row cannot be mapped back to a document, so
persons are counted by `profile_id` and terms in aggregate.

(a) verbatim runs: every String and List(String) cell of every released table (but profile_id) is
    lower-cased and split into words on whitespace and punctuation; placeholders like `<...>` and the
    ellipsis `…` are breaks, and so are cell and list-item edges: no n-gram spans them. For n = 8 and
    n = 6: the persons (distinct profile_id) holding at least one n-gram that fewer than k released
    persons hold, and how many such n-grams there are.
(b) term retention: per technical term, before = documents whose truth lists it, after = released
    persons whose text cells (any column) contain it (case-folded, on word boundaries);
    retention = sum(min(after, before)) / sum(before).
(c) persons released: distinct profile_id in profiles.parquet.

No import from the toolkit.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl

BREAK = re.compile(r"<[^<>\n]{0,80}>|\u2026|\.\.\.")
WORD = re.compile(r"[^\W_]+")


def term_re(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![0-9a-z])" + re.escape(term) + r"(?![0-9a-z+#])")


def text_columns(df: pl.DataFrame) -> list[str]:
    cols = []
    for name, dt in df.schema.items():
        if name == "profile_id":
            continue
        if dt == pl.String or (isinstance(dt, pl.List) and dt.inner == pl.String):
            cols.append(name)
    return cols


def iter_cells(release: Path) -> Iterator[tuple[str, str, list[str]]]:
    """Yields (table, profile_id, list of text pieces) for every row's text cells."""
    for path in sorted(release.glob("*.parquet")):
        df = pl.read_parquet(path)
        if "profile_id" not in df.columns:
            print(f"note: {path.name} has no profile_id; skipped", file=sys.stderr)
            continue
        cols = text_columns(df)
        if not cols:
            continue
        for row in df.select(["profile_id", *cols]).iter_rows():
            pid, vals = row[0], row[1:]
            pieces: list[str] = []
            for v in vals:
                if v is None:
                    continue
                if isinstance(v, list):
                    pieces.extend(x for x in v if isinstance(x, str) and x)
                elif isinstance(v, str) and v:
                    pieces.append(v)
            yield path.stem, str(pid), pieces


def ngrams_of(piece: str, n: int) -> Iterator[str]:
    for seg in BREAK.split(piece.lower()):
        toks = WORD.findall(seg)
        for i in range(len(toks) - n + 1):
            yield " ".join(toks[i : i + n])


def score(docs: Path, release: Path, k: int) -> dict[str, Any]:
    holders: dict[int, dict[str, set[str]]] = {
        8: collections.defaultdict(set),
        6: collections.defaultdict(set),
    }
    blobs: dict[str, list[str]] = collections.defaultdict(list)
    tables: collections.Counter[str] = collections.Counter()
    for table, pid, pieces in iter_cells(release):
        tables[table] += 1
        for piece in pieces:
            blobs[pid].append(piece)
            for n in (8, 6):
                for g in ngrams_of(piece, n):
                    holders[n][g].add(pid)
    out: dict[str, Any] = {"k": k, "release": str(release), "docs": str(docs), "rows_with_text": dict(tables)}
    for n in (8, 6):
        rare = {g: h for g, h in holders[n].items() if len(h) < k}
        persons = set().union(*rare.values()) if rare else set()
        out[f"n{n}"] = {
            "persons_with_rare_ngram": len(persons),
            "rare_ngrams": len(rare),
            "distinct_ngrams": len(holders[n]),
        }
    # (b) term retention
    before: collections.Counter[str] = collections.Counter()
    ndocs = 0
    with open(docs / "truth.jsonl", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            ndocs += 1
            for t in {t for t, _ in rec["terms"]}:
                before[t] += 1
    folded = {pid: "\n".join(p).casefold() for pid, p in blobs.items()}
    after: dict[str, int] = {}
    for t in before:
        pat = term_re(t)
        after[t] = sum(1 for txt in folded.values() if pat.search(txt))
    sb = sum(before.values())
    kept = sum(min(after[t], before[t]) for t in before)
    out["terms"] = {
        "documents": ndocs,
        "distinct_terms": len(before),
        "sum_before": sb,
        "sum_kept": kept,
        "retention": round(kept / sb, 4) if sb else None,
        "per_term": {t: [before[t], after[t]] for t, _ in before.most_common()},
    }
    # (c) persons released
    prof = release / "profiles.parquet"
    out["persons_released"] = (
        pl.read_parquet(prof, columns=["profile_id"])["profile_id"].n_unique() if prof.exists() else 0
    )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", required=True, type=Path)
    ap.add_argument("--release", required=True, type=Path)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--json", type=Path, help="also write the full result here")
    a = ap.parse_args()
    res = score(a.docs, a.release, a.k)
    if a.json:
        a.json.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    t = res["terms"]
    print(f"documents (truth): {t['documents']}   persons released: {res['persons_released']}")
    for n in (8, 6):
        r = res[f"n{n}"]
        print(
            f"(a) n={n}: persons holding an n-gram held by < {a.k} persons: {r['persons_with_rare_ngram']}"
            f"   such n-grams: {r['rare_ngrams']}   (distinct n-grams: {r['distinct_ngrams']})"
        )
    print(
        f"(b) term retention: {t['sum_kept']}/{t['sum_before']} = {t['retention']}"
        f"   ({t['distinct_terms']} terms)"
    )
    top = list(t["per_term"].items())[:15]
    print("    top terms before/after: " + ", ".join(f"{k} {b}/{af}" for k, (b, af) in top))
    print(f"(c) persons released: {res['persons_released']}")


if __name__ == "__main__":
    main()

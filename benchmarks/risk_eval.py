"""Re-identification risk, before and after the risk pass, scored from outside the toolkit.

A population written by tools/profiles in its scrape style (skewed employers, titles, places, schools and
skills; a long tail of small firms named after people; per person a rare project, a lab named after
someone, a rare award) goes through `toolkit run` three times as whole processes: with the risk pass
off (a copy of rules/ with `enabled: false`: the release as scrubbing alone leaves it), with global
recoding only, and as shipped. Then, on the tables as written:
- per attacker view of rules/risk.yaml, the share of persons in a class smaller than k, the share unique,
  the mean prosecutor risk and the smallest class, by tools/kanon.py (plain Python, no toolkit code), and
  whether the release's report says the same; for the items views, the same for the list seen whole;
- the planted rare phrases still found (folded, on word boundaries) in any text cell;
- the planted direct identifiers and other people's names still found, and the technical words kept in
  the free text (benchmarks/privacy_eval.py's scoring);
- the share of persons released;
- per quasi-identifier, the values the release still shows (and how many distinct), with no risk pass,
  with global recoding alone (a copy of rules/ with `recoding: global`) and with local recoding.

    python benchmarks/risk_eval.py [--docs 1000] [--seed 2026]
    python benchmarks/risk_eval.py --population DIR [--truth FILE]   # a population written elsewhere

Figures come from the project's own generator unless `--population` names one written apart from the code
(benchmarks/heldout_population/): say which wherever they are quoted. With `--population`, the planted
rare phrases and direct identifiers come from the truth file (one JSON object a person: `rare_phrases`,
and the identifiers under `full_name`, `emails`, `phones`, `handles` and `urls`).
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

import polars as pl

from benchmarks.privacy_eval import evaluate
from tools import kanon
from tools.profiles import SCRAPE, generate, with_formats, write_documents
from tools.profiles.text import fold, string_cells, word_pattern

ROOT = Path(__file__).resolve().parent.parent
SECRET = "a risk evaluation secret, long enough"


def _run(inputs: Path, out: Path, rules: Path) -> tuple[int, float]:
    env = {**os.environ, "TOOLKIT_SECRET": SECRET}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "run", str(inputs), "--out", str(out), "--rules", str(rules),
         "--json"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode not in (0, 1):
        print(done.stderr[-2000:], file=sys.stderr)
    return done.returncode, time.perf_counter() - started


def rare_phrases_found(release: Path, phrases: list[str]) -> list[str]:
    text = fold("\n|\n".join(cell for path in sorted(release.glob("*.parquet"))
                             for cell in string_cells(pl.read_parquet(path))))  # fmt: skip
    return [phrase for phrase in phrases if word_pattern(phrase).search(text)]


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--docs", type=int, default=1000)
    options.add_argument("--seed", type=int, default=2026)
    options.add_argument(
        "--structured",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="re-write about this share of the profiles as JSON Resume, GitHub API users and zipped "
        "LinkedIn exports (tools/profiles/structured.py)",
    )
    options.add_argument("--population", type=Path, help="score this folder of profiles instead")
    options.add_argument("--truth", type=Path, help="with --population: its truth file (JSON lines)")
    args = options.parse_args(argv)
    docs = (
        []
        if args.population
        else list(with_formats(generate(args.docs, args.seed, SCRAPE), args.structured, args.seed))
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        inputs = args.population or folder / "docs"
        if not args.population:
            write_documents(inputs, iter(docs), None, False)
        rules_off = folder / "rules-off"
        shutil.copytree(ROOT / "rules", rules_off)
        risk = rules_off / "risk.yaml"
        risk.write_text(risk.read_text(encoding="utf-8").replace("enabled: true", "enabled: false"), "utf-8")
        rules_global = folder / "rules-global"
        shutil.copytree(ROOT / "rules", rules_global)
        risk = rules_global / "risk.yaml"
        risk.write_text(
            risk.read_text(encoding="utf-8").replace("recoding: local", "recoding: global"), "utf-8"
        )
        runs = {}
        for label, rules in (("before", rules_off), ("global", rules_global), ("after", ROOT / "rules")):
            code, seconds = _run(inputs, folder / label, rules)
            if code not in (0, 1):
                print(f"{label}: the job exited {code}; no release to score")
                return 1
            runs[label] = (folder / label, seconds)
        scored = {label: kanon.score(release, ROOT / "rules") for label, (release, _) in runs.items()}
        whole = {label: kanon.score(release, ROOT / "rules", whole_lists=True)
                 for label, (release, _) in runs.items()}  # fmt: skip
        report = json.loads((runs["after"][0] / "report.json").read_text(encoding="utf-8"))
        truth = _truth(args.truth) if args.truth else []
        phrases = [phrase for doc in docs for phrase in doc.rare_phrases]
        phrases += [phrase for person in truth for phrase in _strings(person.get("rare_phrases"))]
        found = {label: rare_phrases_found(release, phrases) for label, (release, _) in runs.items()}
        privacy = evaluate(runs["after"][0], docs) if docs else None
        identifiers = [value for person in truth for value in _identifiers(person)]
        identifiers_found = rare_phrases_found(runs["after"][0], identifiers) if truth else []
        persons = pl.scan_parquet(runs["after"][0] / "profiles.parquet").select(pl.len()).collect().item()
        kept = {column: {label: _kept(release, column) for label, (release, _) in runs.items()}
                for column in report["risk"]["columns"]}  # fmt: skip
        parsed = report["counts"]["profiles"]
    if args.population:
        print(f"{args.population}: a population written apart from the code")
    else:
        print(f"{args.docs} scrape-style documents (tools/profiles, seed {args.seed}): the project's own "
              "generator")  # fmt: skip
    header = f"{'view':<22}{'k':>3}  {'below k':>15}  {'unique':>15}  {'prosecutor risk':>17}"
    print(f"{header}  {'smallest':>10}  report")
    for view, after in scored["after"].items():
        before = scored["before"][view]
        k = report["risk"]["views"][view]["k"]
        agrees = "agrees" if report["risk"]["views"][view]["after"] == after else "DIFFERS"
        print(
            f"{view:<22}{k:>3}  {before['below_target']:>6.1%} -> {after['below_target']:>5.1%}"
            f"  {before['unique']:>6.1%} -> {after['unique']:>5.1%}"
            f"  {before['prosecutor_risk']:>7.3f} -> {after['prosecutor_risk']:>5.3f}"
            f"  {before['smallest_k']:>3} -> {after['smallest_k']:>3}  {agrees}"
        )
    for view, after in whole["after"].items():
        before = whole["before"][view]
        agrees = "agrees" if report["risk"]["views"][view].get("whole_list") == after else "DIFFERS"
        print(
            f"{view + ', whole list':<25}{before['below_target']:>6.1%} -> {after['below_target']:>5.1%}"
            f"  {before['unique']:>6.1%} -> {after['unique']:>5.1%}  (not guarded: residual)  {agrees}"
        )
    examples = f" (e.g. {found['after'][:3]})" if found["after"] else ""
    print(f"rare phrases planted: {len(phrases)}; found before {len(found['before'])}, "
          f"after {len(found['after'])}{examples}")  # fmt: skip
    if privacy is not None:
        print(f"direct identifiers surviving: {len(privacy.identifiers_surviving)} of {privacy.identifiers}; "
              f"other people's names: {privacy.others_rate:.2%} left; technical words kept in free text: "
              f"{privacy.technical_rate:.1%}")  # fmt: skip
    if truth:
        examples = f" (e.g. {identifiers_found[:3]})" if identifiers_found else ""
        print(f"planted identifiers of the truth file found in the release: {len(identifiers_found)} of "
              f"{len(identifiers)}{examples}")  # fmt: skip
    print(f"persons released: {persons} of {parsed} ({persons / max(parsed, 1):.1%}); risk-suppressed "
          f"{report['risk']['suppressed']} (budget {report['risk']['budget']}); verification-suppressed "
          f"{report['verification']['persons_suppressed']}")  # fmt: skip
    print(f"job seconds: {runs['before'][1]:.1f} without the risk pass, {runs['global'][1]:.1f} with it "
          f"(global recoding), {runs['after'][1]:.1f} (local)")  # fmt: skip
    print("\nquasi-identifiers, counted on the tables as written: values shown (distinct)")
    print(f"{'column':<32}{'no risk pass':>16}{'global recoding':>18}{'local recoding':>18}  step")
    for column, counts in kept.items():
        shown = "".join(
            f"{f'{n:,} ({d:,})':>{w}}" for (n, d), w in zip(counts.values(), (16, 18, 18), strict=True)
        )
        print(f"{column:<32}{shown}  {report['risk']['columns'][column]['step']}")
    return 0


def _truth(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


_IDENTIFIERS = ("full_name", "emails", "phones", "handles", "urls")


def _identifiers(person: dict[str, object]) -> list[str]:
    """A truth line's planted direct identifiers (of four characters or more)."""
    return [item for key in _IDENTIFIERS for item in _strings(person.get(key)) if len(item) >= 4]


def _strings(value: object) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, str)]


def _kept(release: Path, column: str) -> tuple[int, int]:
    """(non-null values, distinct values) of `table.column` in a release."""
    table, _, name = column.partition(".")
    values = pl.read_parquet(release / f"{table}.parquet", columns=[name]).get_column(name).drop_nulls()
    return values.len(), values.n_unique()


if __name__ == "__main__":
    raise SystemExit(main())

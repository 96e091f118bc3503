"""Adversarial evaluation: which planted identifiers survive into the release, one case at a time.

Run: .venv/bin/python benchmarks/adversarial_eval.py [--cases DIR] [--manifest FILE] [--rules DIR]
                                                      [--json FILE]

The suite is `tests/adversarial/`: one fictional profile per file in `cases/` (talent pages and résumés,
named `<class>__<slug>.txt`; another suite's cases may be JSON files, or folders and zips of an export),
and `planted.yaml` beside that folder listing, per case, the strings that must not appear in its release.
For another cases folder the manifest is `<dir>/../planted.yaml` unless `--manifest FILE` names it.

Each case runs the whole job alone, as a user would: `toolkit.cli.main(["run", CASE, "--out", TMP, "--jobs",
"1", "--rules", RULES])` with a fixed TOOLKIT_SECRET, where RULES is a temporary copy of `rules/` (or of
`--rules DIR`) with the re-identification risk pass switched off (`enabled: false` in risk.yaml: it needs
k >= 5 persons and would suppress a lone person; this suite is about direct identifiers). Then every string
cell of every `*.parquet` table of the release (lists and nested values included) is folded (NFKC, case
folded, accents stripped, letters such as ł and ø to their base, invisible characters dropped, dashes to
"-", white space folded) and a planted string survives when its folded form is a substring of one cell's
folded text. Outcomes per case: exit 0 or 1 (done: the release is searched), 3 (blocked: no release, its
planted strings count as blocked, not survived), 2 (a configuration error) or an exception (a traceback):
both are errors.

This scorer is independent of the toolkit's scrubbing code: it only calls the command line entry point.
It prints a table per class and the surviving strings with their case and where they were found (a dev
tool: printing them is fine; every person in the suite is fictional). Exit code 0, whatever survives;
2 when the suite itself is malformed (a missing file, a planted string not in its case, an unknown class).

`score(cases_dir, rules_dir=None)` returns the same figures as a dict, for tests and notebooks.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
import traceback
import unicodedata
import zipfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import yaml

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DEFAULT_CASES = REPO / "tests" / "adversarial" / "cases"
DEFAULT_RULES = REPO / "rules"
SECRET = "adversarial-suite-fixed-test-secret-v1"
CLASSES = ("kept_column", "derived_handle", "script", "contact", "other_person", "resume_header")
EXIT_OK, EXIT_MALFORMED = 0, 2
_DONE, _CONFIG_ERROR, _BLOCKED = (0, 1), 2, 3

# Letters that NFKD leaves whole (no combining mark to drop), written as their base letters.
_UNMARKED = str.maketrans(
    {
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ħ": "h",
        "ŧ": "t",
        "\u0131": "i",  # dotless i
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
        "ð": "d",
    }
)
# Invisible characters outside the format (Cf) and combining categories: Hangul fillers, Mongolian and
# Khmer vowel separators/inherent vowels.
_INVISIBLE = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u3164\uffa0")
_WHITESPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """The comparison form: NFKC, case folded, accents stripped (NFKD minus combining marks), invisible
    characters dropped, every dash "-", white space folded to single spaces."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(_UNMARKED)
    kept = []
    for char in unicodedata.normalize("NFKD", text):
        category = unicodedata.category(char)
        if unicodedata.combining(char) or category in ("Mn", "Me", "Cf") or char in _INVISIBLE:
            continue
        kept.append("-" if category == "Pd" else char)
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFC", "".join(kept))).strip()


@dataclass(frozen=True)
class Case:
    file: str
    cls: str
    planted: tuple[str, ...]


@dataclass
class CaseResult:
    file: str
    cls: str
    planted: int
    outcome: str  # "done", "blocked", "config_error", "exit_<n>", "traceback", "no_release"
    exit_code: int | None
    seconds: float
    survived: list[dict[str, Any]] = field(default_factory=list)  # {"string", "where": [table.column]}
    detail: str = ""


class MalformedSuite(Exception):
    """The manifest or the cases folder does not describe a usable suite."""


def manifest_for(cases_dir: Path) -> Path:
    return cases_dir.parent / "planted.yaml"


def load_suite(cases_dir: Path, manifest: Path | None = None) -> list[Case]:
    """The manifest's cases, checked against the folder: every problem found is raised at once."""
    manifest = manifest or manifest_for(cases_dir)
    if not manifest.is_file():
        raise MalformedSuite(f"no manifest at {manifest}")
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise MalformedSuite(f"{manifest}: expected a mapping with a `cases` list")
    problems: list[str] = []
    cases: list[Case] = []
    for index, entry in enumerate(data["cases"]):
        if not isinstance(entry, dict) or set(entry) != {"file", "class", "planted"}:
            problems.append(f"case {index}: expected exactly file, class, planted")
            continue
        name, cls, planted = entry["file"], entry["class"], entry["planted"]
        if cls not in CLASSES:
            problems.append(f"{name}: unknown class {cls!r}")
        if not isinstance(planted, list) or not planted or not all(isinstance(p, str) and p for p in planted):
            problems.append(f"{name}: planted must be a non-empty list of strings")
            continue
        path = cases_dir / str(name)
        if not (path.is_file() or path.is_dir()):
            problems.append(f"{name}: listed but missing from {cases_dir}")
            continue
        text = case_text(path)
        problems += [f"{name}: planted {p!r} is not in the file" for p in planted if p not in text]
        cases.append(Case(str(name), str(cls), tuple(planted)))
    listed = [case.file for case in cases]
    problems += [f"{name}: listed twice" for name in sorted({n for n in listed if listed.count(n) > 1})]
    problems += [
        f"{path.name}: in {cases_dir} but not in the manifest"
        for path in sorted(cases_dir.iterdir())
        if not path.name.startswith(".") and path.name not in listed
    ]
    if problems:
        raise MalformedSuite("\n".join(problems))
    return cases


def case_text(path: Path) -> str:
    """The text of a case: a file, every file of a folder (an export), or every member of a zip archive."""
    if path.is_dir():
        return "\n".join(case_text(inner) for inner in sorted(path.rglob("*")) if inner.is_file())
    data = path.read_bytes()
    if data.startswith(b"PK\x03\x04"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "\n".join(
                archive.read(member).decode("utf-8-sig", "replace") for member in archive.namelist()
            )
    return data.decode("utf-8-sig", "replace")


def rules_without_risk(source: Path, into: Path) -> Path:
    """A copy of the rules folder with the risk and text passes off (`enabled: false` in its risk.yaml)."""
    target = into / "rules"
    shutil.copytree(source, target)
    risk = target / "risk.yaml"
    if not risk.is_file():
        raise MalformedSuite(f"{source}: no risk.yaml")
    text = risk.read_text(encoding="utf-8")
    edited, count = re.subn(r"(?m)^enabled:.*$", "enabled: false", text)
    if count == 0:
        edited = "enabled: false\n" + text
    data = yaml.safe_load(edited)
    if not isinstance(data, dict) or data.get("enabled") is not False:  # a flow mapping or the like
        data = yaml.safe_load(text)
        data["enabled"] = False
    # The text pass too: alone, a case's person shares no run with k persons, and all text would go.
    data.setdefault("text", {})["enabled"] = False
    edited = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    risk.write_text(edited, encoding="utf-8")
    return target


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def release_cells(release: Path) -> list[tuple[str, str]]:
    """(table.column, folded text) for every string cell of every table of the release."""
    cells: list[tuple[str, str]] = []
    for table in sorted(release.rglob("*.parquet")):
        frame = pl.read_parquet(table)
        for column in frame.columns:
            where = f"{table.stem}.{column}"
            cells += [(where, fold(text)) for text in _strings(frame[column].to_list()) if text]
    return cells


def run_case(case: Case, cases_dir: Path, rules: Path, work: Path) -> CaseResult:
    from toolkit.cli import main  # imported here: loading the suite does not need the toolkit

    out = work / Path(case.file).stem / "release"
    out.parent.mkdir(parents=True)
    argv = ["run", str(cases_dir / case.file), "--out", str(out), "--jobs", "1", "--rules", str(rules)]
    captured = io.StringIO()
    started = time.perf_counter()
    previous = os.environ.get("TOOLKIT_SECRET")
    os.environ["TOOLKIT_SECRET"] = SECRET
    code: int | None = None
    detail = ""
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            code = main(argv)
    except SystemExit as exc:  # argparse and the like
        code = exc.code if isinstance(exc.code, int) else EXIT_MALFORMED
    except Exception:
        detail = traceback.format_exc()
    finally:
        if previous is None:
            os.environ.pop("TOOLKIT_SECRET", None)
        else:
            os.environ["TOOLKIT_SECRET"] = previous
    seconds = time.perf_counter() - started
    result = CaseResult(case.file, case.cls, len(case.planted), "traceback", code, seconds, detail=detail)
    if code is None:
        return result
    last_lines = "\n".join(captured.getvalue().strip().splitlines()[-3:])
    if code == _BLOCKED:
        result.outcome, result.detail = "blocked", last_lines
        return result
    if code not in _DONE:
        result.outcome = "config_error" if code == _CONFIG_ERROR else f"exit_{code}"
        result.detail = last_lines
        return result
    cells = release_cells(out) if out.is_dir() else []
    if not cells and not any(out.glob("*.parquet")):
        result.outcome, result.detail = "no_release", last_lines
        return result
    result.outcome = "done"
    for planted in case.planted:
        target = fold(planted)
        where = sorted({column for column, text in cells if target in text})
        if where:
            result.survived.append({"string": planted, "where": where})
    return result


def _summarize(results: list[CaseResult]) -> dict[str, dict[str, int]]:
    rows: dict[str, dict[str, int]] = {}
    for cls in (*CLASSES, "total"):
        mine = [r for r in results if cls in ("total", r.cls)]
        rows[cls] = {
            "cases": len(mine),
            "planted": sum(r.planted for r in mine),
            "survived": sum(len(r.survived) for r in mine),
            "blocked_cases": sum(r.outcome == "blocked" for r in mine),
            "blocked_strings": sum(r.planted for r in mine if r.outcome == "blocked"),
            "errors": sum(r.outcome not in ("done", "blocked") for r in mine),
        }
    return rows


def score(
    cases_dir: Path, rules_dir: Path | None = None, manifest: Path | None = None, progress: bool = False
) -> dict[str, Any]:
    """Run every case alone and count what survives; raises MalformedSuite for a broken suite."""
    cases = load_suite(cases_dir, manifest)
    started = time.perf_counter()
    results: list[CaseResult] = []
    with tempfile.TemporaryDirectory(prefix="adversarial-") as tmp:
        work = Path(tmp)
        rules = rules_without_risk(rules_dir or DEFAULT_RULES, work)
        for number, case in enumerate(cases, start=1):
            result = run_case(case, cases_dir, rules, work / "runs")
            results.append(result)
            shutil.rmtree(work / "runs" / Path(case.file).stem, ignore_errors=True)
            if progress:
                print(
                    f"[{number}/{len(cases)}] {case.file}: {result.outcome} (exit {result.exit_code}), "
                    f"{len(result.survived)}/{result.planted} survived, {result.seconds:.1f}s",
                    file=sys.stderr,
                )
    return {
        "cases_dir": str(cases_dir),
        "seconds": round(time.perf_counter() - started, 1),
        "classes": _summarize(results),
        "cases": [asdict(result) for result in results],
        "survivors": [
            {"case": r.file, "class": r.cls, "string": s["string"], "where": s["where"]}
            for r in results
            for s in r.survived
        ],
    }


def report_lines(scored: dict[str, Any]) -> list[str]:
    header = f"{'class':<16}{'cases':>7}{'planted':>9}{'survived':>10}{'blocked cases':>15}{'errors':>8}"
    lines = [header, "-" * len(header)]
    for cls, row in scored["classes"].items():
        if cls == "total":
            lines.append("-" * len(header))
        lines.append(
            f"{cls:<16}{row['cases']:>7}{row['planted']:>9}{row['survived']:>10}"
            f"{row['blocked_cases']:>15}{row['errors']:>8}"
        )
    total = scored["classes"]["total"]
    searched = total["planted"] - total["blocked_strings"]
    lines.append(
        f"survived {total['survived']} of {total['planted']} planted strings "
        f"({searched} searched in releases, {total['blocked_strings']} in blocked cases); "
        f"{scored['seconds']}s"
    )
    blocked = [c for c in scored["cases"] if c["outcome"] == "blocked"]
    errors = [c for c in scored["cases"] if c["outcome"] not in ("done", "blocked")]
    if blocked:
        lines += ["", f"blocked cases ({len(blocked)}):"] + [f"  {c['file']}" for c in blocked]
    if errors:
        lines += ["", f"errors ({len(errors)}):"]
        for c in errors:
            lines.append(f"  {c['file']}: {c['outcome']} (exit {c['exit_code']})")
            lines += [f"    {line}" for line in c["detail"].splitlines()]
    if scored["survivors"]:
        lines += ["", f"survivors ({len(scored['survivors'])}):"]
        lines += [f"  {s['case']}: {s['string']!r} in {', '.join(s['where'])}" for s in scored["survivors"]]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, metavar="DIR")
    parser.add_argument("--manifest", type=Path, default=None, metavar="FILE",
                        help="default: planted.yaml in the cases folder's parent")  # fmt: skip
    parser.add_argument("--rules", type=Path, default=None, metavar="DIR", help="default: the repository's")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the figures here")
    args = parser.parse_args(argv)
    try:
        scored = score(args.cases, args.rules, args.manifest, progress=True)
    except MalformedSuite as exc:
        print(f"adversarial_eval: malformed suite:\n{exc}", file=sys.stderr)
        return EXIT_MALFORMED
    for line in report_lines(scored):
        print(line)
    if args.json is not None:
        args.json.write_text(json.dumps(scored, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())

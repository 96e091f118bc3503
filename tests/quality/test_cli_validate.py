"""`toolkit validate`: raw inputs or a parsed folder in; findings, report.json and quarantine out."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from toolkit.cli import main

REPO = Path(__file__).parent.parent.parent
FIXTURES = REPO / "tests" / "fixtures"
SAMPLE = REPO / "sample_data"


def _parsed_folder(tmp_path: Path, *inputs: Path) -> Path:
    folder = tmp_path / "parsed"
    assert main(["parse", *map(str, inputs), "--out", str(folder)]) == 0
    return folder


def test_the_seed_lookalikes_report_their_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report_path = tmp_path / "report.json"
    assert main(["validate", str(FIXTURES), "--report", str(report_path)]) == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["report_version"] == 1
    assert report["command"] == "validate"
    assert report["inputs"] == [str(FIXTURES)]
    assert report["counts"]["profiles"] == 2
    assert report["quality"]["passed"] is True
    findings = {(f["rule"], f["severity"], f["rows"]) for f in report["quality"]["findings"]}
    assert findings == {
        ("profiles.declared_skills.agrees", "warning", 1),
        ("profiles.declared_programming_languages.agrees", "warning", 1),
        ("profiles.declared_contributions.agrees", "warning", 1),
        ("education.degree.written_once", "warning", 1),
    }
    assert set(report["quality"]["findings"][0]) == {
        "rule", "table", "column", "severity", "description", "rows", "tolerated", "beyond_threshold", "examples",
    }  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("validated 2 profiles against")
    assert len(out) == 5


def test_a_parsed_folder_is_validated_as_it_is(tmp_path: Path) -> None:
    folder = _parsed_folder(tmp_path, SAMPLE)
    assert main(["validate", str(folder), "--report", str(tmp_path / "r.json")]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["counts"]["profiles"] == 39


def test_an_error_rule_exits_1_and_quarantines_privately(tmp_path: Path) -> None:
    folder = _parsed_folder(tmp_path, FIXTURES)
    skills = pl.read_parquet(folder / "skills.parquet")
    skills.with_columns(
        pl.when(pl.int_range(pl.len()) == 0).then(42).otherwise(pl.col("score")).alias("score")
    ).write_parquet(folder / "skills.parquet")
    quarantine = tmp_path / "private" / "quarantine"
    code = main(
        ["validate", str(folder), "--report", str(tmp_path / "r.json"), "--quarantine", str(quarantine)]
    )
    assert code == 1
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["quality"]["passed"] is False
    assert report["counts"]["quarantined"]["skills"] == 1
    (errors,) = [f for f in report["quality"]["findings"] if f["severity"] == "error"]
    assert (errors["rule"], errors["examples"]) == ("skills.score.range", [{"row": 1, "score": 42}])
    quarantined = pl.read_parquet(quarantine / "skills.parquet")
    assert quarantined.select("score", "failed_rules").rows() == [(42, ["skills.score.range"])]
    tables = ("profiles", "education", "skills", "contributions", "experience", "awards")
    written = sorted(path.name for path in quarantine.iterdir())
    assert written == [".toolkit-output", *sorted(f"{table}.parquet" for table in tables)]


def test_rejected_inputs_are_findings(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    assert main(["validate", str(tmp_path / "empty.txt"), "--report", str(tmp_path / "r.json")]) == 1
    assert json.loads((tmp_path / "r.json").read_text())["rejects"] == [
        {"source": str(tmp_path / "empty.txt"), "reason": "empty", "detail": "the file holds no text"}
    ]


def test_a_parsed_folder_mixed_with_raw_inputs_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _parsed_folder(tmp_path, FIXTURES)
    assert main(["validate", str(folder), str(FIXTURES)]) == 2
    assert (
        capsys.readouterr().err == "toolkit: error: give either one parsed folder or raw inputs, not both\n"
    )


def test_an_unreadable_parquet_table_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _parsed_folder(tmp_path, FIXTURES)
    (folder / "skills.parquet").write_bytes(b"not parquet")
    assert main(["validate", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"toolkit: error: {folder / 'skills.parquet'}: not a readable Parquet table")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (lambda text: text.replace("check: in_range", "check: in_rnage", 1), "rules.15.check"),
        (lambda text: text.replace("columns: [score]", "columns: [scor]", 1), "rules.15.columns"),
        (lambda text: text.replace("params: {min: 0, max: 10}", "params: {min: 10, max: 0}", 1), "rules.15.params"),
        (lambda text: text.replace("severity: warning", "severity: fatal", 1), "rules.24.severity"),
        (lambda text: text + "  - id: skills.score.range\n    table: skills\n    columns: [score]\n    check: unique\n"
         "    severity: error\n    description: twice\n", "rules"),
        (lambda text: text.replace('pattern: "^[A-Za-z0-9]', 'pattern: "(?<=x)[A-Za-z0-9]', 1), "rules.19.params.pattern"),
    ],
)  # fmt: skip
def test_a_broken_quality_rule_is_one_line_naming_file_and_key(
    edit: object, key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    quality = rules / "quality.yaml"
    quality.write_text(edit(quality.read_text()))  # type: ignore[operator]
    assert main(["validate", str(FIXTURES), "--rules", str(rules)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"toolkit: error: {quality}: {key}:")
    if key != "rules":
        assert err.rstrip().endswith(")")  # names the rule: "(rule skills.score.range)"

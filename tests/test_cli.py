"""The `toolkit parse` command on the committed sample data, and its one-line errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from toolkit.cli import main
from tools import make_format_samples
from tools.make_sample_data import COUNT, SEED
from tools.profiles import profiles

REPO = Path(__file__).parent.parent
SAMPLE = REPO / "sample_data"
SAMPLE_COUNTS = {
    "profiles": 39,
    "education": 19,
    "skills": 174,
    "contributions": 44,
    "experience": 55,
    "awards": 18,
    "rejects": 0,
}


def test_sample_data_is_the_generators_output() -> None:
    committed = sorted(SAMPLE.rglob("*.txt"), key=lambda path: path.name)
    generated = profiles(COUNT, seed=SEED)
    assert [path.read_text(encoding="utf-8") for path in committed] == [doc.text for doc in generated]


def test_parse_sample_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(SAMPLE), "--out", str(tmp_path)]) == 0
    counts = {table: pl.read_parquet(tmp_path / f"{table}.parquet").height for table in SAMPLE_COUNTS}
    assert counts == SAMPLE_COUNTS
    layouts = pl.read_parquet(tmp_path / "profiles.parquet")["layout"].value_counts().sort("layout").rows()
    assert layouts == [
        ("github_api", 5),
        ("json_resume", 5),
        ("linkedin_export", 5),
        ("resume", 10),
        ("talent_page", 14),
    ]
    assert (
        capsys.readouterr().out
        == f"parsed 39 inputs: 39 profiles, 0 rejected; tables written to {tmp_path}\n"
    )


def test_the_structured_samples_are_the_generators_output(tmp_path: Path) -> None:
    make_format_samples.main(tmp_path)
    for folder in ("json_resume", "github", "linkedin"):
        made = {
            p.relative_to(tmp_path): p.read_bytes() for p in (tmp_path / folder).rglob("*") if p.is_file()
        }
        kept = {p.relative_to(SAMPLE): p.read_bytes() for p in (SAMPLE / folder).rglob("*") if p.is_file()}
        assert made == kept


def test_sources_are_paths_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert main(["parse", "sample_data/resumes", "--out", str(tmp_path)]) == 0
    sources = pl.read_parquet(tmp_path / "profiles.parquet")["source"].to_list()
    assert sources == sorted(sources)
    assert all(source.startswith("sample_data/resumes/profile_") for source in sources)


def test_a_broken_rules_file_is_one_line_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    (rules / "parsing.yaml").write_text(
        "site_footers: []\nbadges: [ok]\naward_keywords: [prize]\nmax_input_bytes: -1\n"
    )
    assert main(["parse", str(SAMPLE), "--out", str(tmp_path / "out"), "--rules", str(rules)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "parsing.yaml: max_input_bytes:" in err


def test_an_output_path_that_is_a_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("")
    assert main(["parse", str(SAMPLE), "--out", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolkit: error:")
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv", [[], ["parse"], ["parse", "x"], ["frobnicate"]])
def test_usage_errors_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2


def test_python_dash_m_runs_the_same_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "parse", str(SAMPLE / "resumes"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("parsed 10 inputs: 10 profiles, 0 rejected")


def test_validating_writes_no_library_warning() -> None:
    """pandera's import loads PySpark's pandas API where PySpark is installed, which warns about the pandas
    version: the command's standard error holds its own lines only."""
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "validate", str(SAMPLE / "resumes")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1)
    assert "Warning" not in done.stderr


def test_the_command_exits_with_mains_code_and_its_whole_output(tmp_path: Path) -> None:
    """`python -m toolkit` (like the `toolkit` script) skips the interpreter's teardown: the exit code and
    every line written must still come through."""
    rows = [f"row {n},person{n}@example.org" for n in range(2000)]
    data = tmp_path / "people.csv"
    data.write_text("note,contact\n" + "\n".join(rows) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "check", str(data), "--baseline", str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert done.stdout.count("EMAIL_ADDRESS") == 2000
    assert done.stdout.endswith(":2000:contact: EMAIL_ADDRESS (xxxxxx9999@xxxxxxx.xxx)\n")
    assert done.stderr.startswith("personal data found: 2000 findings in 1 file\nnext: ")

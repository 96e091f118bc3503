"""`toolkit run`: the release is scrubbed per policy, verified before it is written, and reproducible."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import toolkit
from tests.conftest import pseudonymizing_rules
from toolkit.cli import main
from toolkit.rules import PrivacyRules
from toolkit.text import fold
from toolkit.verify import verify

REPO = Path(__file__).parent.parent.parent
FIXTURES = REPO / "tests" / "fixtures"
SAMPLE = REPO / "sample_data"
SECRET = "a release secret that is long enough"


@pytest.fixture
def secret(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TOOLKIT_SECRET", SECRET)
    return SECRET


def _release_text(folder: Path) -> str:
    cells = []
    for path in sorted(folder.glob("*.parquet")):
        frame = pl.read_parquet(path)
        for column, dtype in frame.schema.items():
            if dtype == pl.String:
                cells += frame.get_column(column).drop_nulls().to_list()
            elif dtype == pl.List(pl.String):
                cells += frame.get_column(column).explode().drop_nulls().to_list()
    return fold(" \n ".join(cells))


@pytest.mark.slow
def test_a_release_holds_no_direct_identifier_of_the_sources(tmp_path: Path, secret: str) -> None:
    out = tmp_path / "release"
    assert main(["run", str(SAMPLE), str(FIXTURES), "--out", str(out)]) == 0
    text = _release_text(out)
    source = toolkit.parse([SAMPLE, FIXTURES])
    for name in [*source.profiles["name"].drop_nulls(), *source.experience["supervisor"].drop_nulls()]:
        assert fold(name.removeprefix("Dr. ")) not in text, name
    assert secret not in text
    assert "source" not in pl.read_parquet(out / "profiles.parquet").columns


@pytest.mark.usefixtures("pseudonymize_only")
def test_the_release_follows_the_policy(tmp_path: Path, secret: str) -> None:
    out = tmp_path / "release"
    assert main(["run", str(FIXTURES), "--out", str(out)]) == 0
    profiles = pl.read_parquet(out / "profiles.parquet")
    assert {"name", "source", "headline", "city", "location", "region", "unparsed_lines"}.isdisjoint(
        profiles.columns
    )
    assert profiles.schema["coding_years"] == pl.String
    assert sorted(profiles["coding_years"].drop_nulls()) == ["10-14"]
    contributions = pl.read_parquet(out / "contributions.parquet")
    assert contributions.schema["start"] == pl.Int32
    assert not any("/" in repository for repository in contributions["repository"])
    experience = pl.read_parquet(out / "experience.parquet")
    assert "supervisor" not in experience.columns
    ids = {
        frame: set(pl.read_parquet(out / f"{frame}.parquet")["profile_id"])
        for frame in ("profiles", "experience")
    }
    assert ids["experience"] <= ids["profiles"]
    report = json.loads((out / "report.json").read_text())
    assert report["release"]["written"] is True
    assert report["verification"]["persons_suppressed"] == 0
    assert report["verification"]["persons_checked"] == 2
    assert report["privacy"]["key"] == {"source": "TOOLKIT_SECRET", "linkable_across_runs": True}
    actions = {(c["table"], c["column"]): c["action"] for c in report["privacy"]["columns"]}
    assert actions[("profiles", "name")] == "drop"
    assert actions[("profiles", "summary")] == "scrub"
    assert report["privacy"]["entities_replaced"]["PERSON"] > 0
    assert not (out / "quarantine").exists()
    assert (tmp_path / "release.private" / "quarantine" / "profiles.parquet").exists()


@pytest.mark.slow
def test_same_input_and_key_give_a_byte_identical_release(tmp_path: Path, secret: str) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert main(["run", str(SAMPLE), "--out", str(first)]) == 0
    assert main(["run", str(SAMPLE), "--out", str(second)]) == 0
    for path in sorted(first.iterdir()):
        if path.name == "report.json":
            a, b = json.loads(path.read_text()), json.loads((second / path.name).read_text())
            a["release"]["folder"] = b["release"]["folder"] = "-"
            assert a == b
        else:
            assert path.read_bytes() == (second / path.name).read_bytes(), path.name


@pytest.mark.usefixtures("pseudonymize_only")
def test_pseudonyms_link_across_runs_only_with_the_same_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = []
    for run, key in enumerate(
        ["key number one, long enough", "key number one, long enough", "another key, long enough"]
    ):
        monkeypatch.setenv("TOOLKIT_SECRET", key)
        assert main(["run", str(FIXTURES), "--out", str(tmp_path / str(run))]) == 0
        ids.append(sorted(pl.read_parquet(tmp_path / str(run) / "profiles.parquet")["profile_id"]))
    assert ids[0] == ids[1] != ids[2]


@pytest.mark.usefixtures("pseudonymize_only")
def test_without_a_secret_the_report_says_pseudonyms_do_not_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TOOLKIT_SECRET", raising=False)
    assert main(["run", str(FIXTURES), "--out", str(tmp_path / "r")]) == 0
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert report["privacy"]["key"] == {"source": "random per run", "linkable_across_runs": False}
    assert "do not link across runs" in capsys.readouterr().out


@pytest.mark.usefixtures("pseudonymize_only")
def test_too_many_suppressed_persons_block_the_release_and_keep_the_earlier_one(
    tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "release"
    assert main(["run", str(FIXTURES), "--out", str(out)]) == 0
    earlier = {path.name: path.read_bytes() for path in out.iterdir()}
    rules = pseudonymizing_rules(tmp_path / "rules")
    policy = rules / "privacy.yaml"
    policy.write_text(policy.read_text().replace("    name: drop ", "    name: keep "))
    assert main(["run", str(FIXTURES), "--out", str(out), "--rules", str(rules)]) == 3
    assert {path.name: path.read_bytes() for path in out.iterdir()} == earlier
    private = tmp_path / "release.private"
    report = json.loads((private / "report.json").read_text())
    assert report["release"]["written"] is False
    assert report["verification"]["persons_suppressed"] == 1  # the résumé has no name line
    assert report["verification"]["blocked"] is True
    hits = report["verification"]["hits"]
    assert {"table": "profiles", "column": "name", "kind": "own_identifier", "values": 1} in hits
    assert "Maribel" not in (private / "report.json").read_text()
    assert pl.read_parquet(private / "suppressed" / "profiles.parquet").height == 1
    assert "release BLOCKED" in capsys.readouterr().out


def test_the_private_folder_must_be_outside_the_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "release"
    assert main(["run", str(FIXTURES), "--out", str(out), "--private", str(out / "private")]) == 2
    assert "must be outside the release folder" in capsys.readouterr().err


def test_a_short_secret_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLKIT_SECRET", "short")
    assert main(["run", str(FIXTURES), "--out", str(tmp_path / "r")]) == 2


@pytest.mark.usefixtures("pseudonymize_only")
def test_json_summary(tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key"
    key.write_text("a key file secret, long enough\n")
    assert main(["run", str(FIXTURES), "--out", str(tmp_path / "r"), "--json", "--key-file", str(key)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["command"] == "run"
    assert summary["privacy"]["key"]["source"] == "key file"


@pytest.mark.slow
def test_the_release_is_byte_identical_across_processes_and_hash_seeds(tmp_path: Path) -> None:
    tables = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        env = {**os.environ, "TOOLKIT_SECRET": SECRET, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-m", "toolkit", "run", str(SAMPLE), "--out", str(out)],
            env=env,
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        tables.append({path.name: path.read_bytes() for path in sorted(out.glob("*.parquet"))})
    assert tables[0] == tables[1]
    assert len(tables[0]) == 7  # the six tables of the contract and the text pass's terms


def test_verification_ignores_pseudonyms_but_not_kept_columns(privacy_rules: PrivacyRules) -> None:
    source = toolkit.parse([FIXTURES])
    person = source.profiles["profile_id"][0]
    iban_like = "GB82WEST12345698765432"
    release = {"profiles": pl.DataFrame({"profile_id": [iban_like], "employer": ["Kestrel"]})}
    assert not verify(release, source, privacy_rules, {iban_like: person}).suppressed
    release = {"profiles": pl.DataFrame({"profile_id": ["abc"], "employer": [iban_like]})}
    assert verify(release, source, privacy_rules, {"abc": person}).suppressed == {person: "contact"}

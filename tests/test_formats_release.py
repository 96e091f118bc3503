"""The structured formats through the whole job: a folder mixing the five layouts runs into one release,
and no identifier a structured file states (names, contacts, usernames, referees) survives in it, even
with the risk and text passes off (the scrubber and verification alone must hold)."""

from __future__ import annotations

import json
import shutil
import unicodedata
import zipfile
from pathlib import Path

import polars as pl
import pytest

from toolkit.cli import main

pytestmark = pytest.mark.slow

REPO = Path(__file__).parent.parent
FORMATS = REPO / "tests" / "parse" / "formats"
STATED = [
    # the persons' names and surnames
    "Tove Marchetti-Lund", "Marchetti", "Emeka Ofori-Atta", "Ofori-Atta", "Wen Jiahui", "Jiahui",
    "Sione Tuilagi", "Tuilagi", "Marisol Quintana", "Quintana", "Kwabena Asante", "Asante",
    "Liesl van Rensburg", "Rensburg", "Farida Haddad", "Haddad", "Jürgen Pohlmann", "Pohlmann",
    # other people: referees, recommenders, a maiden name, a colleague in a highlight
    "Rasmus Ekdahl", "Ekdahl", "Baptiste Morel", "Nasser", "Lucien Ferrand", "Ferrand",
    # contacts and usernames
    "tove.ml@example.org", "555 012 34", "tovelund", "Storgatan", "ofori-atta.example.net",
    "marisol-dev", "marisol.q@example.cl", "marisolq", "kwabena-a", "ghost-4821", "liesl-v",
    "farida.haddad@example.fr", "fhaddad", "78 00 12 34", "Tanneurs", "TF-99102", "juergen.pohlmann",
]  # fmt: skip


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _released_text(release: Path) -> str:
    cells: list[str] = []
    for table in sorted(release.glob("*.parquet")):
        frame = pl.read_parquet(table)
        for column, dtype in frame.schema.items():
            if dtype == pl.String:
                cells += frame.get_column(column).drop_nulls().to_list()
            elif dtype == pl.List(pl.String):
                cells += [item for items in frame.get_column(column).drop_nulls().to_list() for item in items]
    return _folded("\n".join(cells))


def _inputs(tmp_path: Path) -> Path:
    inputs = tmp_path / "inputs"
    for folder in ("json_resume", "github", "linkedin"):
        shutil.copytree(FORMATS / folder, inputs / folder)
    german = inputs / "linkedin" / "de_export"
    with zipfile.ZipFile(inputs / "linkedin" / "de_export.zip", "w") as archive:
        for path in sorted(german.rglob("*.csv")):
            archive.write(path, path.relative_to(german).as_posix())
    shutil.rmtree(german)
    return inputs


def test_no_identifier_a_structured_file_states_survives(
    tmp_path: Path, pseudonymize_only: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLKIT_SECRET", "formats-release-test-secret")
    out = tmp_path / "release"
    assert main(["run", str(_inputs(tmp_path)), "--out", str(out), "--jobs", "1"]) == 0
    released = _released_text(out)
    assert [value for value in STATED if _folded(value) in released] == []
    profiles = pl.read_parquet(out / "profiles.parquet")
    assert sorted(profiles.get_column("layout").value_counts().rows()) == [
        ("github_api", 4),
        ("json_resume", 4),
        ("linkedin_export", 2),
    ]
    assert set(profiles.columns).isdisjoint({"contacts", "other_people", "skipped_files", "unparsed_lines"})
    report = json.loads((out / "report.json").read_text())
    assert report["counts"]["export_files_not_read"] == {
        "not a kind this toolkit reads": 1,
        "other people's contacts": 1,
        "private messages": 1,
    }
    assert report["verification"]["persons_suppressed"] == 0


def test_the_sample_data_releases_all_five_layouts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLKIT_SECRET", "formats-release-test-secret")
    out = tmp_path / "release"
    assert main(["run", str(REPO / "sample_data"), "--out", str(out)]) == 0
    layouts = pl.read_parquet(out / "profiles.parquet").get_column("layout").unique().sort().to_list()
    assert layouts == ["github_api", "json_resume", "linkedin_export", "resume", "talent_page"]
    report = json.loads((out / "report.json").read_text())
    assert report["counts"]["export_files_not_read"] == {"other people's contacts": 5, "private messages": 5}
    assert report["anonymized"] is True

"""The public Python API: what `import toolkit` offers is pinned here, so changes to it are deliberate."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import toolkit

SAMPLE = Path(__file__).parent.parent / "sample_data"


def test_public_names_are_pinned() -> None:
    assert sorted(toolkit.__all__) == [
        "JobFault",
        "ProfileSet",
        "RejectReason",
        "Release",
        "RulesError",
        "TABLE_SCHEMAS",
        "ToolkitError",
        "UsageError",
        "__version__",
        "anonymize",
        "parse",
        "run",
        "scrub_frame",
        "validate",
    ]
    for name in toolkit.__all__:
        assert hasattr(toolkit, name), name


def test_parse_returns_every_contract_table_with_its_schema(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    tables = toolkit.parse([SAMPLE / "resumes", missing])
    assert [name for name, _ in tables.tables()] == list(toolkit.TABLE_SCHEMAS)
    for name, frame in tables.tables():
        assert dict(frame.schema) == dict(toolkit.TABLE_SCHEMAS[name]), name
    assert tables.profiles.height == 10
    assert tables.rejects.rows() == [
        (str(missing), toolkit.RejectReason.UNREADABLE, "no such file or folder")
    ]


def test_errors_share_one_root() -> None:
    assert issubclass(toolkit.RulesError, toolkit.ToolkitError)
    assert issubclass(toolkit.UsageError, toolkit.ToolkitError)


SECRET = "an api test secret, long enough"


def test_validate_anonymize_and_write_a_release(tmp_path: Path) -> None:
    tables = toolkit.parse([SAMPLE])
    result = toolkit.validate(tables)
    assert not result.failed
    release = toolkit.anonymize(result.valid, key=SECRET)
    assert release.safe
    assert release.risk is not None
    assert release.risk["target_met"] is True
    assert "name" not in release.tables["profiles"].columns
    release.write(tmp_path / "release")
    assert (tmp_path / "release" / "profiles.parquet").exists()
    again = toolkit.anonymize(result.valid, key=SECRET)
    assert (
        again.tables["profiles"]["profile_id"].to_list() == release.tables["profiles"]["profile_id"].to_list()
    )


def test_an_unsafe_release_refuses_to_be_written(tmp_path: Path) -> None:
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(Path(__file__).parent.parent / "rules", rules)
    policy = rules / "privacy.yaml"
    policy.write_text(policy.read_text().replace("    name: drop ", "    name: keep "))
    release = toolkit.anonymize(toolkit.parse([SAMPLE / "talent_pages"]), rules_dir=rules, key=SECRET)
    assert not release.safe
    with pytest.raises(toolkit.ToolkitError, match="blocked"):
        release.write(tmp_path / "release")
    assert not (tmp_path / "release").exists()


def test_a_release_too_small_for_k_refuses_to_be_written(tmp_path: Path) -> None:
    release = toolkit.anonymize(toolkit.parse([SAMPLE / "talent_pages" / "profile_002.txt"]), key=SECRET)
    assert release.risk is not None
    assert not release.safe
    with pytest.raises(toolkit.ToolkitError, match="blocked"):
        release.write(tmp_path / "release")


def test_scrub_frame_and_key_errors() -> None:
    frame = pl.DataFrame({"id": [1, 2], "text": ["Mail ada.byron@example.org", None]})
    scrubbed = toolkit.scrub_frame(frame, ["text"], key=SECRET)
    assert scrubbed["id"].to_list() == [1, 2]
    assert scrubbed["text"][1] is None
    assert "ada.byron" not in scrubbed["text"][0]
    with pytest.raises(toolkit.UsageError):
        toolkit.scrub_frame(frame, ["body"], key=SECRET)
    with pytest.raises(toolkit.UsageError, match="at least 16 bytes"):
        toolkit.scrub_frame(frame, ["text"], key="short")


def test_run_returns_the_report(tmp_path: Path) -> None:
    report = toolkit.run([SAMPLE], tmp_path / "release", key=SECRET)
    assert report["exit_code"] == 0
    assert report["release"]["written"] is True
    assert "inputs" not in report

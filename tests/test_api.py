"""The public Python API: what `import toolkit` offers is pinned here, so changes to it are deliberate."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

import toolkit

REPO = Path(__file__).parent.parent
SAMPLE = REPO / "sample_data"


def test_public_names_are_pinned() -> None:
    assert sorted(toolkit.__all__) == [
        "JobFault",
        "ProfileSet",
        "RandomKeyWarning",
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


@pytest.mark.slow
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
    written = {path.name for path in (tmp_path / "release").iterdir()}
    assert {"profiles.parquet", "terms.parquet", "report.json", "README.md", "report.html"} <= written
    report = json.loads((tmp_path / "release" / "report.json").read_text(encoding="utf-8"))
    assert report == release.report() | {"release": report["release"]}
    assert report["command"] == "anonymize"
    assert report["release"]["folder"] == "release"
    assert report["release"]["columns"]["profiles.profile_id"]["rows"] == release.tables["profiles"].height
    card = (tmp_path / "release" / "README.md").read_text(encoding="utf-8")
    assert f"Anonymized release of {release.tables['profiles'].height} persons" in card
    assert "No quality rule was run with this release" in card
    assert str(tmp_path) not in card + json.dumps(report)
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


@pytest.mark.slow
def test_run_returns_the_report(tmp_path: Path) -> None:
    report = toolkit.run([SAMPLE], tmp_path / "release", key=SECRET)
    assert report["exit_code"] == 0
    assert report["release"]["written"] is True
    assert "inputs" not in report


def test_a_single_path_or_column_name_is_one_not_its_letters(tmp_path: Path) -> None:
    as_str = toolkit.parse(str(SAMPLE / "talent_pages"))
    assert as_str.rejects.is_empty()
    assert as_str.profiles.height == toolkit.parse(SAMPLE / "talent_pages").profiles.height == 14
    assert toolkit.parse([str(SAMPLE / "resumes")], rules_dir=str(REPO / "rules")).profiles.height == 10
    frame = pl.DataFrame({"text": ["Mail ada.byron@example.org"]})
    scrubbed = toolkit.scrub_frame(frame, "text", rules_dir=str(REPO / "rules"), key=SECRET)
    assert "ada.byron" not in scrubbed["text"][0]


def _pandas_frame() -> object:
    pandas = pytest.importorskip("pandas")
    return pandas.DataFrame({"text": ["x"]})


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: toolkit.scrub_frame(pl.DataFrame({"text": ["x"]}).lazy(), "text"), r"\.collect\(\)"),  # type: ignore[arg-type]
        (lambda: toolkit.scrub_frame(_pandas_frame(), "text"), "polars.from_pandas"),  # type: ignore[arg-type]
        (lambda: toolkit.scrub_frame({"text": ["x"]}, "text"), "polars DataFrame, not a dict"),  # type: ignore[arg-type]
        (lambda: toolkit.scrub_frame(pl.DataFrame({"n": [1]}), "n"), "holds Int64, not text"),
        (lambda: toolkit.scrub_frame(pl.DataFrame({"t": ["x"]}), []), "a column name or a non-empty list"),
        (lambda: toolkit.scrub_frame(pl.DataFrame({"t": ["x"]}), "text"), "no column 'text'"),
        (lambda: toolkit.parse(42), "a path .* or a list of them, not a int"),  # type: ignore[arg-type]
        (lambda: toolkit.parse([SAMPLE, 42]), "42 is not a path"),  # type: ignore[list-item]
        (lambda: toolkit.parse(SAMPLE, rules_dir=3), "rules_dir: pass a folder"),  # type: ignore[arg-type]
        (lambda: toolkit.parse(SAMPLE, rules_dir="/no/such/rules"), "/no/such/rules"),
        (lambda: toolkit.validate(SAMPLE), "pass the ProfileSet that toolkit.parse returns"),  # type: ignore[arg-type]
        (lambda: toolkit.anonymize("tables"), "pass the ProfileSet"),  # type: ignore[arg-type]
        (lambda: toolkit.run(SAMPLE / "nope", "/tmp/toolkit-api-out"), "no such file or folder"),
        (lambda: toolkit.scrub_frame(pl.DataFrame({"t": ["x"]}), "t", key=12345678901234567890), "key: pass"),  # type: ignore[arg-type]
        (lambda: toolkit.run(SAMPLE, "/tmp/toolkit-api-out", jobs="2"), "jobs: pass a whole number"),  # type: ignore[arg-type]
        (lambda: toolkit.run(SAMPLE, "/tmp/toolkit-api-out", jobs=-1), "jobs: pass a whole number"),
        (lambda: toolkit.run(SAMPLE, "/tmp/toolkit-api-out", batch_size=-5), "batch_size: pass"),
        (lambda: toolkit.parse({"a": 1}), "not a dict"),
        (lambda: toolkit.scrub_frame(pl.DataFrame({"t": ["x"]}), {"t": 1}), "a column name or"),  # type: ignore[arg-type]
    ],
)
def test_every_error_of_the_api_is_a_toolkit_error_that_says_what_to_pass(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(toolkit.ToolkitError, match=message):
        call()


@pytest.mark.slow
def test_a_file_system_error_becomes_a_usage_error(tmp_path: Path) -> None:
    release = toolkit.anonymize(toolkit.parse(SAMPLE), key=SECRET)
    with pytest.raises(toolkit.UsageError, match="pass the release folder"):
        release.write(None)  # type: ignore[arg-type]
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(toolkit.UsageError):
        release.write(blocker / "release")

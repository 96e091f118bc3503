"""The public Python API: what `import toolkit` offers is pinned here, so changes to it are deliberate."""

from __future__ import annotations

from pathlib import Path

import toolkit

SAMPLE = Path(__file__).parent.parent / "sample_data"


def test_public_names_are_pinned() -> None:
    assert sorted(toolkit.__all__) == [
        "ProfileSet",
        "RejectReason",
        "RulesError",
        "TABLE_SCHEMAS",
        "ToolkitError",
        "UsageError",
        "__version__",
        "parse",
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

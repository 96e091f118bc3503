"""Bad input never raises: each bad file becomes one `rejects` row with a stable reason, and the good files
of the same batch are still parsed. Awkward but valid encodings are decoded and recorded, not rejected."""

from __future__ import annotations

import codecs
import contextlib
import os
import random
import threading
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from tests.parse.helpers import PROFILE_KEYS, parse_text
from toolkit.cli import main
from toolkit.errors import RejectReason
from toolkit.io import discover
from toolkit.model import TABLE_SCHEMAS, ProfileSet
from toolkit.parse import parse_bytes, parse_inputs, parse_paths
from toolkit.parse.document import Reject
from toolkit.rules import ParsingRules
from tools.profiles import Generated, profiles

GENERATED = profiles(12, seed=5)
PAGES = [doc for doc in GENERATED if doc.layout == "talent_page"]
RESUMES = [doc for doc in GENERATED if doc.layout == "resume"]
GOOD = [PAGES[0], RESUMES[0], PAGES[1]]

RUNNING_AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

# A complete talent page written only with characters cp1252 has (no emoji badges), accents in the name,
# and cp1252-only punctuation (en dash 0x96, right quote 0x92) in the bio.
ACCENTED_NAME = "Zoë Brontë-Ferreira"
CP1252_PAGE = "\r\n".join(
    [
        ACCENTED_NAME,
        "Staff Engineer at Northwind Labs",
        "Lisbon, Portugal",
        "Summary",
        "Senior",
        f"{ACCENTED_NAME} is a Staff Engineer in Lisbon \u2013 she\u2019s into compilers and café culture.",
        "12 years of coding experience",
        "8 years of employment as a software developer",
        "Bachelor of Science (B.Sc.), Computer Science at Universidade Nova de Lisboa",
        "English, Portuguese",
        "Github Skills (2)",
        "python9",
        "rust8",
        "",
    ]
)

VALID_RESUME = "Experience\n\nSoftware Engineer\n- Built the thing.\n\nNorthwind Labs\n"
TRUNCATED_PAGE = (
    "Summary\n\U0001f464Senior\U0001f393\nTop SchoolAda is a compiler engineer.\n"
    "7 years of coding experience\nGithub Skills (3)\npython9\n"
)


def _random_binary() -> bytes:
    noise = bytearray(random.Random(1234).randbytes(4096))
    noise[100:104] = b"\x00\x00\x00\x00"
    return bytes(noise)


def _page_without_header(doc: Generated) -> bytes:
    """A generated page cut just before its "Summary" line: the name, headline and location are gone."""
    lines = doc.text.splitlines()
    return "\n".join(lines[lines.index("Summary") :]).encode("utf-8")


# (id, bytes, expected reason, max_input_bytes override or None). Builders are called inside the test.
REJECT_CASES: list[tuple[str, Callable[[], bytes], RejectReason, int | None]] = [
    ("empty-file", lambda: b"", RejectReason.EMPTY, None),
    ("whitespace-only", lambda: b" \t\r\n   \n\x0b\x0c\n", RejectReason.EMPTY, None),
    ("utf8-bom-only", lambda: codecs.BOM_UTF8, RejectReason.EMPTY, None),
    ("utf16-bom-whitespace-only", lambda: " \n\t\n".encode("utf-16"), RejectReason.EMPTY, None),
    ("random-binary-with-nuls", _random_binary, RejectReason.BINARY, None),
    (
        "png-header",
        lambda: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00",
        RejectReason.BINARY,
        None,
    ),
    (
        "one-nul-in-a-valid-resume",
        lambda: VALID_RESUME.encode().replace(b"\n\n", b"\n\x00\n", 1),
        RejectReason.BINARY,
        None,
    ),
    ("control-bytes-without-nul", lambda: b"\x01\x02\x03\x04\x05\x06 hello " * 50, RejectReason.BINARY, None),
    ("utf16-without-bom", lambda: CP1252_PAGE.encode("utf-16-le"), RejectReason.BINARY, None),
    (
        "invalid-utf8-and-invalid-cp1252",
        lambda: VALID_RESUME.replace("Built", "Built \x81\x8d").encode("latin-1"),
        RejectReason.NOT_TEXT_ENCODING,
        None,
    ),
    (
        "utf8-bom-then-invalid-utf8",
        lambda: codecs.BOM_UTF8 + b"Experience\n\xff\xfe\xfd\n",
        RejectReason.NOT_TEXT_ENCODING,
        None,
    ),
    (
        "utf16-bom-odd-length",
        lambda: codecs.BOM_UTF16_LE + "Experience".encode("utf-16-le") + b"x",
        RejectReason.NOT_TEXT_ENCODING,
        None,
    ),
    (
        "utf32-bom-code-point-out-of-range",
        lambda: codecs.BOM_UTF32_LE + b"\x00\x00\x11\x00",
        RejectReason.NOT_TEXT_ENCODING,
        None,
    ),
    (
        "plain-prose",
        lambda: b"Dear hiring manager,\nplease find my CV attached.\n",
        RejectReason.UNKNOWN_LAYOUT,
        None,
    ),
    (
        "5mb-single-line",
        lambda: (b"lorem ipsum dolor sit amet " * 200_000)[:5_000_000],
        RejectReason.UNKNOWN_LAYOUT,
        None,
    ),
    ("5mb-single-line-of-digits", lambda: b"7" * 5_000_000, RejectReason.UNKNOWN_LAYOUT, None),
    ("over-the-size-limit", lambda: VALID_RESUME.encode() * 3, RejectReason.TOO_LARGE, 100),
    ("binary-over-the-size-limit", lambda: b"\x00" * 101, RejectReason.TOO_LARGE, 100),
    ("truncated-talent-page", lambda: TRUNCATED_PAGE.encode(), RejectReason.TRUNCATED, None),
    ("truncated-generated-talent-page", lambda: _page_without_header(PAGES[2]), RejectReason.TRUNCATED, None),
    ("truncated-talent-page-summary-only", lambda: b"Summary\n", RejectReason.TRUNCATED, None),
    ("truncated-resume", lambda: b"Experience\n", RejectReason.TRUNCATED, None),
    (
        "truncated-resume-blank-lines-after-heading",
        lambda: b"\n\nWork Experience:\n\n\n  \n",
        RejectReason.TRUNCATED,
        None,
    ),
]


@pytest.mark.parametrize(
    ("make", "reason", "max_input_bytes"),
    [case[1:] for case in REJECT_CASES],
    ids=[case[0] for case in REJECT_CASES],
)
def test_bad_input_is_rejected_with_its_reason(
    make: Callable[[], bytes], reason: RejectReason, max_input_bytes: int | None, rules: ParsingRules
) -> None:
    if max_input_bytes is not None:
        rules = rules.model_copy(update={"max_input_bytes": max_input_bytes})
    result = parse_bytes("inbox/bad.txt", make(), rules)
    assert isinstance(result, Reject), result
    assert result.reason is reason, result
    assert result.source == "inbox/bad.txt"
    assert result.detail


def _boms(bom: bytes, codec: str) -> Callable[[str], bytes]:
    return lambda text: bom + text.encode(codec)


# (id, encode the text, expected `encoding` column)
DECODED_CASES: list[tuple[str, Callable[[str], bytes], str]] = [
    ("utf8", lambda text: text.encode("utf-8"), "utf-8"),
    ("utf8-bom", lambda text: text.encode("utf-8-sig"), "utf-8"),
    ("utf8-crlf", lambda text: text.replace("\n", "\r\n").encode("utf-8"), "utf-8"),
    ("utf16-bom", lambda text: text.encode("utf-16"), "utf-16"),
    ("utf16-le-bom", _boms(codecs.BOM_UTF16_LE, "utf-16-le"), "utf-16"),
    ("utf16-be-bom", _boms(codecs.BOM_UTF16_BE, "utf-16-be"), "utf-16"),
    ("utf32-bom", lambda text: text.encode("utf-32"), "utf-32"),
    ("utf32-be-bom", _boms(codecs.BOM_UTF32_BE, "utf-32-be"), "utf-32"),
]


@pytest.mark.parametrize(
    ("encode", "encoding"), [case[1:] for case in DECODED_CASES], ids=[case[0] for case in DECODED_CASES]
)
@pytest.mark.parametrize("doc", [PAGES[0], RESUMES[0]], ids=["talent_page", "resume"])
def test_text_with_a_bom_or_in_utf8_parses_as_the_plain_document(
    doc: Generated, encode: Callable[[str], bytes], encoding: str, rules: ParsingRules
) -> None:
    result = parse_bytes("doc.txt", encode(doc.text), rules)
    assert not isinstance(result, Reject), result
    document, _ = result
    assert document.encoding == encoding
    parsed = parse_text(encode(doc.text), rules)
    assert isinstance(parsed, dict)
    expected_profile = {key: doc.expected["profile"].get(key) for key in PROFILE_KEYS}
    assert {key: parsed["profile"].get(key) for key in PROFILE_KEYS} == expected_profile
    for table in ("education", "skills", "contributions", "experience", "awards", "unparsed_lines"):
        assert parsed[table] == doc.expected[table], table


def test_cp1252_page_with_accented_name_parses_with_declared_fallback(rules: ParsingRules) -> None:
    data = CP1252_PAGE.encode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # the test is only meaningful if UTF-8 cannot read it
    result = parse_bytes("windows-export.txt", data, rules)
    assert not isinstance(result, Reject), result
    document, parsed = result
    assert document.encoding == "cp1252"
    assert parsed.profile["layout"] == "talent_page"
    assert parsed.profile["name"] == ACCENTED_NAME
    assert parsed.profile["city"] == "Lisbon"
    assert parsed.profile["badges"] == ["Senior"]
    assert parsed.profile["summary"] == (
        f"{ACCENTED_NAME} is a Staff Engineer in Lisbon \u2013 she\u2019s into compilers and café culture."
    )
    assert parsed.profile["coding_years"] == 12
    assert parsed.skills == [
        {"kind": "github_skill", "skill": "python", "score": 9},
        {"kind": "github_skill", "skill": "rust", "score": 8},
    ]


def test_input_exactly_at_the_size_limit_is_not_too_large(rules: ParsingRules) -> None:
    data = VALID_RESUME.encode()
    at_limit = rules.model_copy(update={"max_input_bytes": len(data)})
    assert not isinstance(parse_bytes("r.txt", data, at_limit), Reject)
    below = rules.model_copy(update={"max_input_bytes": len(data) - 1})
    result = parse_bytes("r.txt", data, below)
    assert isinstance(result, Reject)
    assert result.reason is RejectReason.TOO_LARGE


# ---------------------------------------------------------------------------------------------------------
# Batches: bad files become reject rows, good files are still parsed, `source` is the path as given.


def _reasons(tables: ProfileSet) -> dict[str, str]:
    rows = tables.rejects.select("source", "reason").rows()
    assert len(rows) == len({source for source, _ in rows}), f"a source rejected twice: {rows}"
    return dict(rows)


def _write_bad_files(folder: Path) -> dict[str, RejectReason]:
    """Write one file per bad kind into `folder`; return {file name: expected reason}."""
    bad: dict[str, bytes | str] = {
        "empty.txt": b"",
        "blank.txt": "  \n\t\n",
        "image.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10",
        "mojibake.txt": b"Experience\n\nEngineer\n- \x81\x8d\n\nAcme\n",
        "letter.txt": "Dear hiring manager,\nplease find my CV attached.\n",
        "cut_page.txt": TRUNCATED_PAGE,
        "cut_resume.txt": "Experience\n\n",
        "huge.txt": "x" * 150_000,
    }
    for name, content in bad.items():
        path = folder / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
    return {
        "empty.txt": RejectReason.EMPTY,
        "blank.txt": RejectReason.EMPTY,
        "image.png": RejectReason.BINARY,
        "mojibake.txt": RejectReason.NOT_TEXT_ENCODING,
        "letter.txt": RejectReason.UNKNOWN_LAYOUT,
        "cut_page.txt": RejectReason.TRUNCATED,
        "cut_resume.txt": RejectReason.TRUNCATED,
        "huge.txt": RejectReason.TOO_LARGE,
    }


def test_batch_parses_good_files_and_rejects_each_bad_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: ParsingRules
) -> None:
    monkeypatch.chdir(tmp_path)
    rules = rules.model_copy(update={"max_input_bytes": 100_000})
    batch = Path("batch")
    (batch / "nested").mkdir(parents=True)
    good_sources = {
        os.path.join("batch", "good_page.txt"): (GOOD[0], "utf-8"),
        os.path.join("batch", "good_resume.txt"): (GOOD[1], "utf-8"),
        os.path.join("batch", "nested", "good_utf16.txt"): (GOOD[2], "utf-16"),
    }
    for source, (doc, encoding) in good_sources.items():
        Path(source).write_bytes(doc.text.encode(encoding))
    expected = {os.path.join("batch", name): reason for name, reason in _write_bad_files(batch).items()}
    (batch / ".hidden_garbage").write_bytes(b"\x00\x01\x02")  # hidden names are not inputs
    os.symlink(tmp_path / "nowhere", batch / "dangling.txt")
    expected[os.path.join("batch", "dangling.txt")] = RejectReason.UNREADABLE
    expected["missing.txt"] = RejectReason.UNREADABLE
    expected["no/such/folder"] = RejectReason.UNREADABLE
    given = ["batch", "missing.txt", "batch/good_page.txt", "no/such/folder"]  # good_page.txt is read once
    if hasattr(os, "mkfifo"):
        os.mkfifo("pipe")
        given.append("pipe")
        expected["pipe"] = RejectReason.UNREADABLE

    tables = parse_paths(given, rules)

    assert tables.profiles["source"].to_list() == sorted(good_sources)
    for row in tables.profiles.iter_rows(named=True):
        doc, encoding = good_sources[row["source"]]
        assert row["encoding"] == encoding
        assert row["layout"] == doc.layout
        assert row["name"] == doc.expected["profile"].get("name")
    assert _reasons(tables) == {source: str(reason) for source, reason in expected.items()}
    assert tables.rejects["detail"].null_count() == 0
    assert set(tables.experience["profile_id"]) <= set(tables.profiles["profile_id"])


def test_file_that_vanishes_after_discovery_is_unreadable(tmp_path: Path, rules: ParsingRules) -> None:
    (tmp_path / "a_stays.txt").write_text(GOOD[0].text, encoding="utf-8")
    (tmp_path / "b_goes.txt").write_text(GOOD[1].text, encoding="utf-8")
    found = discover([str(tmp_path)])
    (tmp_path / "b_goes.txt").unlink()
    tables = parse_inputs(found, rules)
    assert tables.profiles["source"].to_list() == [str(tmp_path / "a_stays.txt")]
    assert _reasons(tables) == {str(tmp_path / "b_goes.txt"): "unreadable"}


@pytest.mark.skipif(RUNNING_AS_ROOT, reason="root reads files whatever their permissions")
def test_file_and_folder_without_read_permission_are_unreadable(tmp_path: Path, rules: ParsingRules) -> None:
    batch = tmp_path / "batch"
    locked_dir = batch / "locked_dir"
    locked_dir.mkdir(parents=True)
    (locked_dir / "inside.txt").write_text(GOOD[1].text, encoding="utf-8")
    (batch / "good.txt").write_text(GOOD[0].text, encoding="utf-8")
    locked_file = batch / "locked.txt"
    locked_file.write_text(GOOD[2].text, encoding="utf-8")
    locked_top = tmp_path / "locked_top"
    locked_top.mkdir()
    (locked_top / "inside.txt").write_text(GOOD[1].text, encoding="utf-8")
    for path in (locked_file, locked_dir, locked_top):
        path.chmod(0)
    try:
        tables = parse_paths([str(batch), str(locked_top)], rules)
    finally:
        for path in (locked_file, locked_dir, locked_top):
            path.chmod(0o700)
    assert tables.profiles["source"].to_list() == [str(batch / "good.txt")]
    assert _reasons(tables) == {
        str(locked_dir): "unreadable",
        str(locked_file): "unreadable",
        str(locked_top): "unreadable",
    }


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX named pipes")
def test_named_pipe_inside_a_folder_is_unreadable_and_does_not_block(
    tmp_path: Path, rules: ParsingRules
) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "a_good.txt").write_text(GOOD[0].text, encoding="utf-8")
    pipe = batch / "b_pipe.txt"
    os.mkfifo(pipe)
    outcome: list[ProfileSet | BaseException] = []

    def run() -> None:
        try:
            outcome.append(parse_paths([str(batch)], rules))
        except BaseException as exc:  # reported by the assertions below, not lost in the thread
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=5)  # parsing one small file takes milliseconds
    blocked = worker.is_alive()
    if blocked:  # release the reader stuck in open(): a writer appears and leaves at once (EOF)
        with contextlib.suppress(OSError):
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=10)
    assert not blocked, "parse_paths blocked opening a named pipe found inside a folder"
    assert len(outcome) == 1
    tables = outcome[0]
    assert isinstance(tables, ProfileSet), tables
    assert tables.profiles["source"].to_list() == [str(batch / "a_good.txt")]
    assert _reasons(tables) == {str(pipe): "unreadable"}


# ---------------------------------------------------------------------------------------------------------
# The CLI: exit 1 when anything was rejected, 0 when all parsed, 2 for usage errors; every table written.


def _read_tables(out: Path) -> dict[str, pl.DataFrame]:
    tables = sorted(f"{name}.parquet" for name in TABLE_SCHEMAS)
    assert sorted(path.name for path in out.iterdir()) == [".toolkit-output", *tables]
    frames = {name: pl.read_parquet(out / f"{name}.parquet") for name in TABLE_SCHEMAS}
    for name, frame in frames.items():
        assert dict(frame.schema) == dict(TABLE_SCHEMAS[name]), name
    return frames


@pytest.fixture
def default_rules_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOOLKIT_RULES", raising=False)


@pytest.mark.usefixtures("default_rules_env")
def test_cli_exits_1_and_writes_every_table_when_inputs_are_rejected(tmp_path: Path) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    for index, doc in enumerate(GOOD):
        (batch / f"good_{index}.txt").write_text(doc.text, encoding="utf-8")
    expected = {str(batch / name): str(reason) for name, reason in _write_bad_files(batch).items()}
    expected[str(batch / "huge.txt")] = "unknown_layout"  # under the default size limit
    out = tmp_path / "out"

    assert main(["parse", str(batch), "--out", str(out)]) == 1  # a missing input: tests/test_outputs.py

    frames = _read_tables(out)
    assert frames["profiles"].height == len(GOOD)
    assert dict(frames["rejects"].select("source", "reason").rows()) == expected
    assert frames["rejects"].height == len(expected)


@pytest.mark.usefixtures("default_rules_env")
def test_cli_exits_1_when_every_input_is_rejected_and_writes_empty_tables(tmp_path: Path) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "empty.txt").write_bytes(b"")
    out = tmp_path / "out"
    assert main(["parse", str(batch), "--out", str(out)]) == 1
    frames = _read_tables(out)
    assert frames["rejects"].rows() == [(str(batch / "empty.txt"), "empty", frames["rejects"]["detail"][0])]
    for name in TABLE_SCHEMAS.keys() - {"rejects"}:
        assert frames[name].is_empty(), name


@pytest.mark.usefixtures("default_rules_env")
def test_cli_exits_0_when_every_input_parses_and_writes_empty_tables_with_schema(tmp_path: Path) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    for index, doc in enumerate(RESUMES[:2]):
        (batch / f"resume_{index}.txt").write_text(doc.text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["parse", str(batch), "--out", str(out)]) == 0
    frames = _read_tables(out)
    assert frames["profiles"].height == 2
    assert frames["experience"].height == sum(len(doc.expected["experience"]) for doc in RESUMES[:2])
    for name in ("education", "skills", "contributions", "rejects"):  # résumés fill none of these
        assert frames[name].is_empty(), name


def test_cli_without_out_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "r.txt").write_text(VALID_RESUME, encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(["parse", str(tmp_path / "r.txt")])
    assert exited.value.code == 2
    assert "--out" in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.txt"]

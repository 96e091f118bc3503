"""Finding input files, reading them safely, and writing tables as Parquet."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from toolkit.errors import RejectReason, UsageError
from toolkit.model import TABLE_SCHEMAS, ProfileSet, empty_frame
from toolkit.publish import KIND_FILE
from toolkit.tabular import read_delimited

_NOT_REGULAR = "not a regular file or folder"


@dataclass(frozen=True, slots=True)
class InputFile:
    """A file to parse. `source` is the path as the user gave it (or as found under a given folder).

    `folder` marks a folder that is one record (a LinkedIn export: one person's files, read together)."""

    source: str
    path: Path
    folder: bool = False


IsRecordFolder = Callable[[Path], bool]
"""Whether a folder is one source record (its files are one person's) rather than a folder of records."""

FolderFiles = dict[str, bytes | str]
"""A record folder's files: the path inside the folder -> the bytes, or why they could not be read."""

MAX_FOLDER_FILES = 5000


@dataclass(frozen=True, slots=True)
class ReadFailure:
    """An input path that could not be read; it becomes a row of `rejects`."""

    source: str
    reason: RejectReason
    detail: str


def discover(inputs: Iterable[str], is_record: IsRecordFolder | None = None) -> list[InputFile | ReadFailure]:
    """Every input under `inputs`, as a list (see `iter_inputs`)."""
    return list(iter_inputs(inputs, is_record))


def shown_path(path: str) -> str:
    """A path as text that can be written anywhere: a file name byte that is not UTF-8 (kept by Python as
    a lone surrogate) is shown as an escape ('caf\\xe9.txt'), never an error."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return path


def iter_inputs(
    inputs: Iterable[str], is_record: IsRecordFolder | None = None
) -> Iterator[InputFile | ReadFailure]:
    """Expand files and folders (recursively, sorted, skipping hidden names) into input files, lazily.

    Folders are walked without recursion (any depth) and one folder's listing at a time, so memory does
    not grow with the depth or the number of folders. A path that does not exist, cannot be listed or is
    not a regular file becomes a `ReadFailure`, not an error: one bad path must not stop a job. The same
    file or folder reached twice (named and inside a named folder, or through a link that loops back) is
    read once, and a folder inside an input that is an output of this toolkit (it holds `KIND_FILE`: a
    release, a private folder reached through a link) is not read at all. A folder that `is_record` says
    is one record (an export of one person) is yielded whole, as one `InputFile` with `folder` set.
    """
    first_time = _first_time()
    for given in inputs:
        path = Path(given)
        try:
            is_dir, is_file = path.is_dir(), path.is_file()
        except (OSError, ValueError) as exc:
            yield ReadFailure(shown_path(given), RejectReason.UNREADABLE, _problem(exc))
            continue
        if is_dir:
            yield from _walk(given, first_time, is_record)
        elif is_file:
            if first_time(path):
                yield InputFile(shown_path(given), path)
        elif path.exists() or path.is_symlink():
            yield ReadFailure(shown_path(given), RejectReason.UNREADABLE, _NOT_REGULAR)
        else:
            yield ReadFailure(shown_path(given), RejectReason.UNREADABLE, "no such file or folder")


def _first_time() -> Callable[[Path], bool]:
    """A test that is true the first time it meets a file or folder (by device and inode), so that links
    back to a folder already read end the walk there."""
    seen: set[int] = set()  # one int a file: small for millions of files

    def first_time(path: Path) -> bool:
        try:
            status = path.stat()
        except (OSError, ValueError):
            return True
        key = status.st_ino << 20 ^ status.st_dev
        if key in seen:
            return False
        seen.add(key)
        return True

    return first_time


def _walk(
    top: str, first_time: Callable[[Path], bool], is_record: IsRecordFolder | None
) -> Iterator[InputFile | ReadFailure]:
    """Files under `top` in sorted order, depth first, with an explicit stack instead of recursion."""
    stack = [top]
    while stack:
        folder = stack.pop()
        if not first_time(Path(folder)):
            continue  # a link back to a folder already read ('ln -s . loop')
        if folder != top and os.path.lexists(os.path.join(folder, KIND_FILE)):
            continue
        if is_record is not None and is_record(Path(folder)):
            yield InputFile(shown_path(folder), Path(folder), folder=True)
            continue
        try:
            with os.scandir(folder) as listing:
                entries = sorted((e for e in listing if not e.name.startswith(".")), key=lambda e: e.name)
        except OSError as exc:
            yield ReadFailure(shown_path(folder), RejectReason.UNREADABLE, _problem(exc))
            continue
        folders = []
        for entry in entries:
            source = shown_path(os.path.join(folder, entry.name))
            try:
                if entry.is_dir():
                    folders.append(os.path.join(folder, entry.name))
                elif entry.is_file():
                    if first_time(Path(entry.path)):
                        yield InputFile(source, Path(entry.path))
                else:  # a FIFO, socket or device would block or never end
                    yield ReadFailure(source, RejectReason.UNREADABLE, _NOT_REGULAR)
            except OSError as exc:
                yield ReadFailure(source, RejectReason.UNREADABLE, _problem(exc))
        stack.extend(reversed(folders))


def _problem(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or exc.__class__.__name__


def read_input(item: InputFile, max_bytes: int) -> bytes | FolderFiles | ReadFailure:
    """The file's bytes, or why they cannot be had. Reads at most `max_bytes + 1` bytes. A record folder
    gives each of its files (any depth, hidden names skipped), each within `max_bytes`."""
    if item.folder:
        return _read_folder(item, max_bytes)
    try:
        with item.path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except (OSError, ValueError) as exc:
        return ReadFailure(item.source, RejectReason.UNREADABLE, _problem(exc))
    return within_limit(item.source, data, max_bytes)


def within_limit(source: str, data: bytes, max_bytes: int) -> bytes | ReadFailure:
    """`data`, or a `TOO_LARGE` failure when it is longer than `max_bytes`."""
    if len(data) > max_bytes:
        return ReadFailure(source, RejectReason.TOO_LARGE, f"larger than the limit of {max_bytes} bytes")
    return data


def _read_folder(item: InputFile, max_bytes: int) -> FolderFiles | ReadFailure:
    files: FolderFiles = {}
    for found in _walk(str(item.path), _first_time(), None):
        if len(files) >= MAX_FOLDER_FILES:
            return ReadFailure(item.source, RejectReason.TOO_LARGE, f"more than {MAX_FOLDER_FILES} files")
        name = os.path.relpath(found.source if isinstance(found, ReadFailure) else found.path, item.path)
        if isinstance(found, ReadFailure):
            files[name] = found.detail
            continue
        data = read_input(found, max_bytes)
        if isinstance(data, ReadFailure):
            files[name] = data.detail
        elif isinstance(data, bytes):
            files[name] = data
    return files


def write_tables(tables: ProfileSet, out_dir: Path) -> None:
    """Write every table as `out_dir/<table>.parquet` (empty tables with their schema).

    Each file is written to a temporary name and renamed, so a reader never sees half a table.
    """
    write_frames(dict(tables.tables()), out_dir)


def is_parsed_folder(path: Path) -> bool:
    """A folder written by `toolkit parse` (it holds profiles.parquet)."""
    return (path / "profiles.parquet").is_file()


def read_tables(folder: Path) -> ProfileSet:
    """Read the tables `write_tables` wrote; a missing table file is an empty table.

    Dtypes are not coerced: the validate stage checks them against the contract. Raises `UsageError` for a
    file that is not readable Parquet.
    """
    frames = {}
    for name in TABLE_SCHEMAS:
        path = folder / f"{name}.parquet"
        if not path.exists():
            frames[name] = empty_frame(name)
            continue
        try:
            frames[name] = pl.read_parquet(path)
        except (OSError, pl.exceptions.PolarsError) as exc:
            problem = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
            raise UsageError(f"{path}: not a readable Parquet table ({problem})") from None
    return ProfileSet.from_frames(frames)


def write_frames(frames: dict[str, pl.DataFrame], out_dir: Path) -> None:
    """Write each frame as `out_dir/<name>.parquet` through a temporary name."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, frame in frames.items():
        partial = out_dir / f".{name}.parquet.partial"
        frame.write_parquet(partial)
        partial.replace(out_dir / f"{name}.parquet")


TABLE_FORMATS = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}


def table_format(path: Path) -> str:
    """The format a table file is read and written in, from its extension."""
    fmt = TABLE_FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(TABLE_FORMATS))
        raise UsageError(
            f"{path}: unknown table format {path.suffix or '(no extension)'}; use one of {known}"
        )
    return fmt


def read_table(path: Path, delimiter: str = "auto") -> pl.DataFrame:
    """A delimited (CSV, TSV: every column read as text, so values round-trip unchanged; `delimiter` as in
    `toolkit.tabular`, sniffed by default; a short row or a repeated header is a `UsageError` naming the
    line), JSONL or Parquet table."""
    fmt = table_format(path)
    if fmt in ("csv", "tsv"):
        return read_delimited(path, delimiter)
    try:
        if fmt == "jsonl":
            return pl.read_ndjson(path)
        return pl.read_parquet(path)
    except (OSError, pl.exceptions.PolarsError) as exc:
        problem = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise UsageError(f"{path}: cannot be read as {fmt} ({problem})") from None


def write_table(frame: pl.DataFrame, path: Path, delimiter: str | None = None) -> None:
    """Write `frame` in the format of `path`'s extension, through a temporary name; a delimited file with
    `delimiter` (default: a tab for .tsv, a comma otherwise)."""
    fmt = table_format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    if fmt in ("csv", "tsv"):
        nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
        if nested:
            raise UsageError(
                f"{path}: {fmt.upper()} cannot hold the nested column {', '.join(nested)}; "
                "write Parquet or JSONL"
            )
        frame.write_csv(partial, separator=delimiter or ("\t" if fmt == "tsv" else ","))
    elif fmt == "jsonl":
        frame.write_ndjson(partial)
    else:
        frame.write_parquet(partial)
    partial.replace(path)

"""Finding input files, reading them safely, and writing tables as Parquet."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from toolkit.errors import RejectReason, UsageError
from toolkit.model import TABLE_SCHEMAS, ProfileSet, empty_frame

_NOT_REGULAR = "not a regular file or folder"


@dataclass(frozen=True, slots=True)
class InputFile:
    """A file to parse. `source` is the path as the user gave it (or as found under a given folder)."""

    source: str
    path: Path


@dataclass(frozen=True, slots=True)
class ReadFailure:
    """An input path that could not be read; it becomes a row of `rejects`."""

    source: str
    reason: RejectReason
    detail: str


def discover(inputs: Iterable[str]) -> list[InputFile | ReadFailure]:
    """Expand files and folders (recursively, sorted, skipping hidden names) into input files.

    A path that does not exist or is not a regular file becomes a `ReadFailure`, not an error: one bad path
    must not stop a job. The same file reached twice (named and inside a named folder) is read once.
    """
    found: list[InputFile | ReadFailure] = []
    seen: set[Path] = set()

    def add(source: str, path: Path) -> None:
        try:
            key = path.resolve()
        except (OSError, RuntimeError):
            key = path.absolute()
        if key not in seen:
            seen.add(key)
            found.append(InputFile(source, path))

    for given in inputs:
        path = Path(given)
        if path.is_dir():
            for root, dirs, files in os.walk(path, onerror=lambda exc: found.append(_walk_failure(exc))):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if name.startswith("."):
                        continue
                    source, found_path = os.path.join(root, name), Path(root, name)
                    if found_path.is_file():
                        add(source, found_path)
                    else:  # a FIFO, socket or device would block or never end
                        found.append(ReadFailure(source, RejectReason.UNREADABLE, _NOT_REGULAR))
        elif path.is_file():
            add(given, path)
        elif path.exists() or path.is_symlink():
            found.append(ReadFailure(given, RejectReason.UNREADABLE, _NOT_REGULAR))
        else:
            found.append(ReadFailure(given, RejectReason.UNREADABLE, "no such file or folder"))
    return found


def _walk_failure(exc: OSError) -> ReadFailure:
    return ReadFailure(str(exc.filename), RejectReason.UNREADABLE, exc.strerror or exc.__class__.__name__)


def read_input(item: InputFile, max_bytes: int) -> bytes | ReadFailure:
    """The file's bytes, or why they cannot be had. Reads at most `max_bytes + 1` bytes."""
    try:
        with item.path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        return ReadFailure(item.source, RejectReason.UNREADABLE, exc.strerror or exc.__class__.__name__)
    if len(data) > max_bytes:
        return ReadFailure(item.source, RejectReason.TOO_LARGE, f"larger than the limit of {max_bytes} bytes")
    return data


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


def read_table(path: Path) -> pl.DataFrame:
    """A CSV/TSV (every column read as text, so values round-trip unchanged), JSONL or Parquet table."""
    fmt = table_format(path)
    try:
        if fmt in ("csv", "tsv"):
            return pl.read_csv(path, separator="\t" if fmt == "tsv" else ",", infer_schema=False)
        if fmt == "jsonl":
            return pl.read_ndjson(path)
        return pl.read_parquet(path)
    except (OSError, pl.exceptions.PolarsError) as exc:
        problem = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise UsageError(f"{path}: cannot be read as {fmt} ({problem})") from None


def write_table(frame: pl.DataFrame, path: Path) -> None:
    """Write `frame` in the format of `path`'s extension, through a temporary name."""
    fmt = table_format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    if fmt in ("csv", "tsv"):
        frame.write_csv(partial, separator="\t" if fmt == "tsv" else ",")
    elif fmt == "jsonl":
        frame.write_ndjson(partial)
    else:
        frame.write_parquet(partial)
    partial.replace(path)

"""Staging folders beside the outputs, and publishing them by rename, so a folder is complete or absent.

A job writes everything into hidden staging folders next to its outputs (`.<name>.staging-<pid>`), and
publishes each with one atomic exchange of names (`renameat2(RENAME_EXCHANGE)` on Linux; elsewhere two
renames, between which the output is briefly absent, never half-written). A run killed at any moment thus
leaves the previous complete output or none, plus a hidden staging folder that the next run removes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import shutil
from enum import StrEnum
from pathlib import Path
from typing import Any

from toolkit.errors import UsageError
from toolkit.model import TABLE_SCHEMAS, TERMS_TABLE

STAGING_MARK = ".staging-"
KIND_FILE = ".toolkit-output"
"""Every output folder holds this hidden file naming its kind (`OutputKind`); inputs skip hidden names."""


class OutputKind(StrEnum):
    """What an output folder of this toolkit holds; one kind never replaces another."""

    RELEASE = "release"
    """`toolkit run --out`: the anonymized tables, report.json and the card."""
    PRIVATE = "private"
    """`toolkit run --private`: quarantined, suppressed and rejected rows, and the inputs' report."""
    PARSED = "parsed"
    """`toolkit parse --out`: the contract's tables (private data)."""
    QUARANTINE = "quarantine"
    """`toolkit validate --quarantine`: rows that failed an error rule (private data)."""


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def staging_for(target: Path) -> Path:
    """The hidden staging folder of `target` for this process."""
    return target.parent / f".{target.name}{STAGING_MARK}{os.getpid()}"


def remove_stale_staging(target: Path) -> None:
    """Remove staging folders of `target` left by runs that are no longer alive."""
    prefix = f".{target.name}{STAGING_MARK}"
    try:
        siblings = list(target.parent.iterdir())
    except OSError:
        return
    for sibling in siblings:
        if not sibling.name.startswith(prefix):
            continue
        pid = sibling.name[len(prefix) :]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(sibling, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def mark(folder: Path, kind: OutputKind) -> None:
    """Label a staging folder with the kind of output it becomes."""
    (folder / KIND_FILE).write_text(f"{kind}\n", encoding="utf-8")


_TABLES = tuple(table for table in TABLE_SCHEMAS if table != "rejects")
_CONTENTS: dict[OutputKind, frozenset[str]] = {
    OutputKind.RELEASE: frozenset({KIND_FILE, "report.json", "README.md", "report.html"})
    | {f"{table}.parquet" for table in (*_TABLES, TERMS_TABLE)},
    OutputKind.PRIVATE: frozenset(
        {KIND_FILE, "report.json", "rejects.parquet", "quarantine", "suppressed", "risk_suppressed"}
    ),
    OutputKind.PARSED: frozenset({KIND_FILE, "rejects.parquet"}) | {f"{table}.parquet" for table in _TABLES},
    OutputKind.QUARANTINE: frozenset({KIND_FILE}) | {f"{table}.parquet" for table in _TABLES},
}
"""What each kind of output holds: a folder holding anything else is not (only) an output of the toolkit,
and replacing it would delete what someone put there."""


def output_kind(folder: Path) -> OutputKind | None:
    """The kind of an output folder of this toolkit, or None for a folder that is not one: it names its
    kind in `KIND_FILE` (or, written before that file existed, holds a toolkit report or parsed tables),
    and holds nothing but what that kind of output holds."""
    try:
        entries = {entry.name for entry in folder.iterdir()}
    except OSError:
        return None
    kind = _named_kind(folder) if KIND_FILE in entries else _kind_by_files(folder, entries)
    if kind is None or not entries <= _CONTENTS[kind]:
        return None
    return kind


def _named_kind(folder: Path) -> OutputKind | None:
    marker = folder / KIND_FILE
    if not marker.is_file() or marker.stat().st_size > 64:  # never a FIFO or a device: it would block
        return None
    try:
        return OutputKind(marker.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None


def _kind_by_files(folder: Path, entries: set[str]) -> OutputKind | None:
    if "report.json" in entries:
        report = folder / "report.json"
        if not report.is_file() or report.stat().st_size > 64 << 20:
            return None
        try:
            data = json.loads(report.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        tool = data.get("tool") if isinstance(data, dict) else None
        if not isinstance(tool, dict) or tool.get("name") != "toolkit":
            return None
        return OutputKind.PRIVATE if "inputs" in data else OutputKind.RELEASE
    if {"profiles.parquet", "rejects.parquet"} <= entries:
        return OutputKind.PARSED
    return None


def check_replaceable(target: Path, kind: OutputKind) -> None:
    """`target` may be replaced by an output of `kind`: it does not exist, is an empty folder, or is an
    output of this toolkit of the same kind. Anything else (someone's folder, a release where parsed
    tables would go) is a `UsageError`, before any work is done."""
    what = f"{kind} folder"
    if not target.exists() and not target.is_symlink():
        return
    if not target.is_dir() or target.is_symlink():
        raise UsageError(f"{target}: the {what} must be a folder, and this is not one")
    try:
        empty = next(target.iterdir(), None) is None
    except OSError as exc:
        raise UsageError(f"{target}: cannot list the {what} ({exc.strerror or exc})") from None
    if empty:
        return
    found = output_kind(target)
    named = _named_kind(target) if found is None and os.path.lexists(target / KIND_FILE) else None
    if named is not None:
        others = sorted(set(os.listdir(target)) - _CONTENTS[named])
        extra = f" ({', '.join(others[:3])}{' …' if len(others) > 3 else ''})" if others else ""
        raise UsageError(
            f"{target}: this output of toolkit also holds files toolkit did not write{extra}; move them "
            "or give a new folder"
        )
    if found is None:
        raise UsageError(
            f"{target}: the {what} exists, is not empty and is not an output of toolkit; give a new folder"
        )
    if found != kind:
        raise UsageError(f"{target}: this is a {found} folder of toolkit, not a {what}; give another folder")


def inside_output(path: Path) -> Path | None:
    """The output folder of this toolkit that `path` lies in (an ancestor holding `KIND_FILE`, whatever
    else it holds), or None: a file written there would change a release, a private folder or parsed
    tables behind the toolkit's back."""
    for folder in path.resolve().parents:
        if os.path.lexists(folder / KIND_FILE):
            return folder
    return None


def publish(staged: Path, target: Path) -> None:
    """Put the finished folder `staged` at `target`, replacing what was there in one step."""
    if target.exists() or target.is_symlink():
        if _exchange(staged, target):
            shutil.rmtree(staged, ignore_errors=True)  # now the previous output
            return
        old = staged.with_name(staged.name + "-old")
        target.rename(old)
        staged.rename(target)
        shutil.rmtree(old, ignore_errors=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    staged.rename(target)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically; False where the system cannot."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    libc = ctypes.CDLL(name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE)
    return bool(done == 0)


def write_json(path: Path, envelope: dict[str, Any]) -> None:
    """Write JSON through a temporary file renamed into place: a reader sees the old file or the whole
    new one, never a cut-short one (a full disk fails the write before the rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    with partial.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps(envelope, indent=2, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    partial.replace(path)

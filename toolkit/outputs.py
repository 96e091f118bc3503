"""The checks on where a command's outputs go, made before any work: an output never overlaps an input, the
current folder, another output or a folder of another kind (`toolkit.publish` replaces only its own)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.io import shown_path
from toolkit.publish import OutputKind, check_replaceable, inside_output, output_kind


def check_inputs(inputs: Sequence[str]) -> None:
    """Every input named on the command line exists: a mistyped path is a usage error, not a reject."""
    missing = [given for given in inputs if not os.path.lexists(given)]
    if missing:
        shown = ", ".join(shown_path(given) for given in missing[:3]) + (" …" if len(missing) > 3 else "")
        raise UsageError(f"no such file or folder: {shown}")


def check_report_file(inputs: Sequence[str], report: Path, outputs: Sequence[Path] = ()) -> None:
    """A report file is not an input, not inside an input folder (the next run would read it as one),
    not one of the command's `outputs`, and not inside an output folder of the toolkit (it would replace
    a release's own report)."""
    resolved = report.resolve()
    for given in inputs:
        source = Path(given).resolve()
        if resolved == source or source in resolved.parents:
            raise UsageError(f"the report {report} must not be written over or inside the input {given}")
    for output in outputs:
        if resolved == output.resolve():
            raise UsageError(f"the report {report} must not be written over the output {output}")
    if resolved.is_dir():
        raise UsageError(f"the report {report} is a folder: give the path of a file")
    folder = inside_output(resolved)
    if folder is not None:
        kind = output_kind(folder) or "toolkit output"
        raise UsageError(f"the report {report} must not be written inside a {kind} folder ({folder})")


def check_outputs(inputs: Sequence[str], outputs: dict[OutputKind, Path]) -> None:
    """Every input exists, and no output may be the current folder, hold an input or lie inside one, or
    be someone's folder or an output of another kind."""
    check_inputs(inputs)
    cwd = Path.cwd().resolve()
    for name, folder in outputs.items():
        resolved = folder.resolve()
        if resolved == cwd:
            raise UsageError(f"the {name} folder must not be the current folder")
        for given in inputs:
            source = Path(given).resolve()
            if resolved == source or source in resolved.parents or resolved in source.parents:
                raise UsageError(f"the {name} folder {folder} and the input {given} must not overlap")
        check_replaceable(folder, name)


def check_folders(inputs: Sequence[str], out_dir: Path, private_dir: Path) -> None:
    release, private = out_dir.resolve(), private_dir.resolve()
    if private == release or release in private.parents or private in release.parents:
        raise UsageError(f"the private folder {private_dir} must be outside the release folder {out_dir}")
    check_outputs(inputs, {OutputKind.RELEASE: out_dir, OutputKind.PRIVATE: private_dir})

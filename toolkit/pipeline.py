"""The one composition of stages used by the CLI, the hooks and Python callers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from toolkit.errors import UsageError
from toolkit.io import (
    discover,
    is_parsed_folder,
    read_table,
    read_tables,
    write_frames,
    write_table,
    write_tables,
)
from toolkit.model import ProfileSet
from toolkit.parse import parse_inputs
from toolkit.progress import Progress
from toolkit.quality import validate_tables
from toolkit.report import Report
from toolkit.rules import ParsingRules, PrivacyRules, QualityRules
from toolkit.scrub import RELEASED_TABLES, Keyring, anonymize, scrub_frame
from toolkit.verify import verify

EXIT_CLEAN, EXIT_FINDINGS = 0, 1


@dataclass(frozen=True)
class ParseOutcome:
    tables: ProfileSet

    @property
    def clean(self) -> bool:
        """True when every input became a profile."""
        return self.tables.rejects.is_empty()

    def summary(self) -> str:
        """One line: how many inputs, profiles and rejects (with their reasons)."""
        profiles = self.tables.profiles.height
        rejects = self.tables.rejects.height
        line = f"parsed {profiles + rejects} inputs: {profiles} profiles, {rejects} rejected"
        if rejects:
            reasons = Counter(self.tables.rejects["reason"].to_list())
            line += " (" + ", ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items())) + ")"
        return line


def parse(inputs: Sequence[str], rules: ParsingRules) -> ProfileSet:
    """Parse every input under `inputs` (files or folders), with a progress bar on a terminal."""
    found = discover(inputs)
    with Progress(len(found), "parse") as tick:
        return parse_inputs(found, rules, on_progress=tick)


def parse_to_dir(inputs: Sequence[str], out_dir: Path, rules: ParsingRules) -> ParseOutcome:
    """Parse every input under `inputs` and write all contract tables (private data) to `out_dir`."""
    tables = parse(inputs, rules)
    write_tables(tables, out_dir)
    return ParseOutcome(tables)


def load(inputs: Sequence[str], rules: ParsingRules) -> ProfileSet:
    """One folder written by `toolkit parse` is read as it is; anything else is parsed as raw input."""
    parsed = [given for given in inputs if is_parsed_folder(Path(given))]
    if not parsed:
        return parse(inputs, rules)
    if len(inputs) > 1:
        raise UsageError("give either one parsed folder or raw inputs, not both")
    return read_tables(Path(parsed[0]))


def validate(
    inputs: Sequence[str],
    parsing: ParsingRules,
    quality: QualityRules,
    quarantine_dir: Path | None = None,
) -> Report:
    """Load the inputs, run the quality rules, and write the quarantined rows (private) if asked."""
    tables = load(inputs, parsing)
    result = validate_tables(tables, quality)
    if quarantine_dir is not None:
        write_frames(result.quarantine, quarantine_dir)
    failed = result.failed or not tables.rejects.is_empty()
    return Report(
        command="validate",
        inputs=inputs,
        tables=tables,
        validation=result,
        rules_checked=len(quality.rules),
        exit_code=EXIT_FINDINGS if failed else EXIT_CLEAN,
    )


def default_private_dir(out_dir: Path) -> Path:
    """Where quarantined rows go unless told: a sibling of the release, `<out>.private/`."""
    return out_dir.with_name(out_dir.name + ".private")


def _check_folders(out_dir: Path, private_dir: Path) -> None:
    release, private = out_dir.resolve(), private_dir.resolve()
    if private == release or release in private.parents or private in release.parents:
        raise UsageError(f"the private folder {private_dir} must be outside the release folder {out_dir}")


def run(
    inputs: Sequence[str],
    out_dir: Path,
    parsing: ParsingRules,
    quality: QualityRules,
    privacy: PrivacyRules,
    keys: Keyring,
    private_dir: Path | None = None,
) -> Report:
    """The whole job: parse, validate (quarantine to the private folder), scrub, verify, write the release.

    The release (`out_dir/<table>.parquet`) is written only when verification finds nothing; otherwise only
    `out_dir/report.json` is, and release tables left from an earlier run are removed.
    """
    private_dir = private_dir or default_private_dir(out_dir)
    _check_folders(out_dir, private_dir)
    tables = load(inputs, parsing)
    validation = validate_tables(tables, quality)
    write_frames(validation.quarantine, private_dir / "quarantine")
    anonymized = anonymize(validation.valid, privacy, keys)
    verification = verify(anonymized.tables, validation.valid, privacy)
    out_dir.mkdir(parents=True, exist_ok=True)
    for table in RELEASED_TABLES:
        (out_dir / f"{table}.parquet").unlink(missing_ok=True)
    if verification.passed:
        write_frames(anonymized.tables, out_dir)
    failed = validation.failed or not tables.rejects.is_empty() or not verification.passed
    report = Report(
        command="run",
        inputs=inputs,
        tables=tables,
        validation=validation,
        rules_checked=len(quality.rules),
        exit_code=EXIT_FINDINGS if failed else EXIT_CLEAN,
        privacy={
            "key": {"source": keys.source, "linkable_across_runs": keys.linkable_across_runs},
            "columns": [action.to_json() for action in anonymized.actions],
            "entities_replaced": dict(sorted(anonymized.entities.items())),
        },
        verification=verification.to_json(),
        release={
            "written": verification.passed,
            "folder": str(out_dir),
            "tables": {name: frame.height for name, frame in anonymized.tables.items()}
            if verification.passed
            else {},
        },
    )
    report.write(out_dir / "report.json")
    return report


def scrub_file(
    source: Path, target: Path, text_columns: Sequence[str], privacy: PrivacyRules, keys: Keyring
) -> dict[str, Any]:
    """Scrub the free-text columns of one table file into `target`; a summary of what was replaced."""
    frame = read_table(source)
    missing = [column for column in text_columns if column not in frame.columns]
    if missing:
        raise UsageError(f"{source}: no column {', '.join(missing)} (columns: {', '.join(frame.columns)})")
    not_text = [column for column in text_columns if frame.schema[column] != pl.String]
    if not_text:
        raise UsageError(f"{source}: column {', '.join(not_text)} does not hold text")
    if source.resolve() == target.resolve():
        raise UsageError(f"{target}: write the scrubbed table to a new file, not over its source")
    scrubbed, entities = scrub_frame(frame, list(text_columns), privacy, keys)
    write_table(scrubbed, target)
    changed = {
        column: int(frame.get_column(column).ne_missing(scrubbed.get_column(column)).sum())
        for column in text_columns
    }
    return {
        "command": "scrub",
        "source": str(source),
        "output": str(target),
        "rows": frame.height,
        "text_columns": list(text_columns),
        "values_changed": changed,
        "entities_replaced": dict(sorted(entities.items())),
        "key": {"source": keys.source, "linkable_across_runs": keys.linkable_across_runs},
    }

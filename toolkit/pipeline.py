"""The one composition of stages used by the CLI, the hooks and Python callers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.io import discover, is_parsed_folder, read_tables, write_frames, write_tables
from toolkit.model import ProfileSet
from toolkit.parse import parse_inputs
from toolkit.progress import Progress
from toolkit.report import Report
from toolkit.rules import ParsingRules, QualityRules
from toolkit.validate import validate_tables

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

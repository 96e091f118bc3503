"""The one composition of stages used by the CLI, the hooks and Python callers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from toolkit.io import discover, write_tables
from toolkit.model import ProfileSet
from toolkit.parse import parse_inputs
from toolkit.progress import Progress
from toolkit.rules import ParsingRules


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


def parse_to_dir(inputs: Sequence[str], out_dir: Path, rules: ParsingRules) -> ParseOutcome:
    """Parse every input under `inputs` and write all contract tables (private data) to `out_dir`."""
    found = discover(inputs)
    with Progress(len(found), "parse") as tick:
        tables = parse_inputs(found, rules, on_progress=tick)
    write_tables(tables, out_dir)
    return ParseOutcome(tables)

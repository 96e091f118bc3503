"""The report: a versioned JSON envelope that says what a command did, and its terminal summary.

The envelope holds no timestamp and no absolute path it was not given, so identical inputs give an
identical report. Examples inside findings are masked (see `toolkit.quality.mask`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit._version import __version__
from toolkit.model import ProfileSet
from toolkit.quality import ValidationResult

REPORT_VERSION = 1


@dataclass(frozen=True)
class Report:
    command: str
    inputs: Sequence[str]
    tables: ProfileSet
    """The tables as read or parsed, before quarantine."""
    validation: ValidationResult | None
    rules_checked: int
    exit_code: int
    privacy: dict[str, Any] | None = None
    """Key source, per-column actions and counts, entities replaced (run and scrub)."""
    verification: dict[str, Any] | None = None
    release: dict[str, Any] | None = None
    """Whether the release was written, where, and its tables' row counts."""

    def to_json(self) -> dict[str, Any]:
        rejects = self.tables.rejects
        envelope: dict[str, Any] = {
            "report_version": REPORT_VERSION,
            "tool": {"name": "toolkit", "version": __version__},
            "command": self.command,
            "inputs": list(self.inputs),
            "counts": {
                "profiles": self.tables.profiles.height,
                "rejected_inputs": rejects.height,
                "rows": {name: frame.height for name, frame in self.tables.tables() if name != "rejects"},
            },
            "rejects": rejects.to_dicts(),
            "exit_code": self.exit_code,
        }
        if self.validation is not None:
            envelope["counts"]["quarantined"] = {
                name: frame.height for name, frame in self.validation.quarantine.items()
            }
            envelope["quality"] = {
                "rules_checked": self.rules_checked,
                "passed": not self.validation.failed,
                "findings": [finding.to_json() for finding in self.validation.findings],
            }
        for section in ("privacy", "verification", "release"):
            if getattr(self, section) is not None:
                envelope[section] = getattr(self, section)
        return envelope

    def write(self, path: Path) -> None:
        """Write the envelope as UTF-8 JSON, keys in a stable order."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    def summary_lines(self) -> list[str]:
        """What a person reads on the terminal: one line per finding, then one line of totals."""
        lines = []
        rejects = self.tables.rejects.height
        if self.validation is not None:
            for finding in self.validation.findings:
                where = f"{finding.table}.{'+'.join(finding.columns)}" if finding.columns else finding.table
                tolerated = f" (tolerated: {finding.tolerated})" if finding.tolerated else ""
                lines.append(
                    f"{finding.severity:<8}{finding.rule:<50}{where:<40}{finding.rows} rows{tolerated}"
                )
            errors = sum(1 for finding in self.validation.findings if finding.fails_job)
            warnings = sum(1 for finding in self.validation.findings if finding.severity == "warning")
            lines.append(
                f"validated {self.tables.profiles.height} profiles against {self.rules_checked} rules: "
                f"{errors} error rules failed, {warnings} warnings, "
                f"{self.validation.quarantined_rows} rows quarantined, {rejects} inputs rejected"
            )
        if self.verification is not None:
            for hit in self.verification["hits"]:
                lines.append(
                    f"LEAK    {hit['table']}.{hit['column']}: {hit['kind']} in {hit['values']} values"
                )
        if self.release is not None:
            if self.release["written"]:
                tables = self.release["tables"]
                folder, rows = self.release["folder"], sum(tables.values())
                lines.append(f"release written to {folder}: {rows} rows in {len(tables)} tables")
            else:
                lines.append(
                    "release BLOCKED: personal data survived scrubbing; only report.json was written"
                )
            if self.privacy is not None and not self.privacy["key"]["linkable_across_runs"]:
                lines.append(
                    "note: no TOOLKIT_SECRET: pseudonyms use a random key and do not link across runs"
                )
        return lines

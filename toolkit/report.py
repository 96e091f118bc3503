"""The report: a versioned JSON envelope that says what a command did, and its terminal summary.

The envelope holds no timestamp and no absolute path it was not given, so identical inputs give an
identical report. Examples inside findings are masked (see `toolkit.quality.mask`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit._version import __version__
from toolkit.model import TABLE_SCHEMAS, ProfileSet
from toolkit.publish import write_json
from toolkit.quality import Finding, ValidationResult
from toolkit.rules import SPAN_ADJUSTERS, SPAN_FILTERS
from toolkit.scrub.keys import RANDOM_KEY
from toolkit.text import plural
from toolkit.verify import CONTACT_ENTITIES

if TYPE_CHECKING:
    from toolkit.contents import ColumnContents
    from toolkit.driver import JobOutcome
    from toolkit.scrub.keys import Keyring

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
        return envelope

    def write(self, path: Path) -> None:
        """Write the envelope as UTF-8 JSON, keys in a stable order, through a temporary file."""
        write_json(path, self.to_json())

    def summary_lines(self) -> list[str]:
        """What a person reads on the terminal: one line per finding, then one line of totals."""
        lines = []
        rejects = self.tables.rejects.height
        if self.validation is not None:
            for finding in self.validation.findings:
                where = f"{finding.table}.{'+'.join(finding.columns)}" if finding.columns else finding.table
                tolerated = f" (tolerated: {finding.tolerated})" if finding.tolerated else ""
                lines.append(
                    f"{finding.severity:<8}{finding.rule:<50}{where:<40}"
                    f"{plural(finding.rows, 'row')}{tolerated}"
                )
            errors = sum(1 for finding in self.validation.findings if finding.fails_job)
            warnings = sum(1 for finding in self.validation.findings if finding.severity == "warning")
            lines.append(
                f"validated {plural(self.tables.profiles.height, 'profile')} against "
                f"{plural(self.rules_checked, 'rule')}: {plural(errors, 'error rule')} failed, "
                f"{plural(warnings, 'warning')}, {plural(self.validation.quarantined_rows, 'row')} "
                f"quarantined, {plural(rejects, 'input')} rejected"
            )
        return lines


JOB_REPORT_VERSION = 2
"""report.json of `toolkit run`: version 2 counts suppressed persons and names no input path."""


def job_envelope(
    outcome: JobOutcome, keys: Keyring, release_folder: str, inputs: Sequence[str] | None = None
) -> dict[str, Any]:
    """The report of `toolkit run`. Without `inputs` it is the release's own report: no input path and no
    rejected file's name appears (a path may hold a name), only counts, and quality findings without
    their examples. With `inputs` it is the private folder's report, which lists them."""
    stats = outcome.stats
    rejects = outcome.rejects
    reasons = Counter(rejects.get_column("reason").to_list())
    findings = outcome.findings
    envelope: dict[str, Any] = {
        "report_version": JOB_REPORT_VERSION,
        "tool": {"name": "toolkit", "version": __version__},
        "command": "run",
        "counts": {
            "profiles": outcome.profiles,
            "rejected_inputs": rejects.height,
            "rejected_by_reason": dict(sorted(reasons.items())),
            "export_files_not_read": dict(sorted(stats.skipped_files.items())),
            "rows": {table: stats.rows[table] for table in TABLE_SCHEMAS if table != "rejects"},
            "quarantined": {table: stats.quarantined[table] for table in TABLE_SCHEMAS if table != "rejects"},
            "suppressed_persons": len(outcome.suppressed),
        },
        "quality": {
            "rules_checked": outcome.rules_checked,
            "passed": not any(finding.fails_job for finding in findings),
            "findings": [_finding_json(finding, private=inputs is not None) for finding in findings],
        },
        "privacy": privacy_section(
            keys.source,
            [action.to_json() for action in stats.columns.values()],
            stats.entities,
            stats.span_filters,
            stats.recognizers,
            outcome.switched_off,
            stats.span_adjusters,
        ),
        "verification": {
            "persons_checked": stats.verification.persons_checked,
            "persons_suppressed": len(outcome.suppressed),
            "suppression_budget": outcome.budget,
            "blocked": outcome.blocked,
            "contact_patterns": list(CONTACT_ENTITIES),
            "hits": stats.verification.hits_json(),
            "suppressed": [
                {"profile_id": pseudonym, "reason": reason} for pseudonym, reason in outcome.suppressed
            ],
        },
        "risk": outcome.risk.to_json() if outcome.risk is not None else {"ran": False},
        "text": outcome.text if outcome.text is not None else {"ran": False},
        "anonymized": outcome.risk is not None and outcome.text is not None,
        # The release names itself only (an absolute --out may hold a home folder's user name).
        "release": release_section(
            outcome.written,
            release_folder if inputs is not None else Path(release_folder).name,
            outcome.released_rows,
            outcome.contents,
            outcome.quasi_identifier_cells,
            outcome.quasi_identifier_views,
        ),
        "exit_code": int(outcome.exit_code),
    }
    if inputs is not None:
        envelope["inputs"] = list(inputs)
        envelope["rejects"] = rejects.to_dicts()
    return envelope


def privacy_section(
    key_source: str,
    columns: Sequence[Mapping[str, Any]],
    entities: Mapping[str, int],
    span_filters: Mapping[str, int],
    recognizers: Mapping[str, int],
    switched_off: Mapping[str, Sequence[str]],
    span_adjusters: Mapping[str, int],
) -> dict[str, Any]:
    """The report's `privacy`: the key's source, each column's action, the entities replaced in text, the
    spans each span filter decided (kept out of the replacements; `certain_person`: kept in against a
    filter), the spans each recognizer (and NER) found that were replaced (a stretch found by two counts
    for each; a recognizer that found none is not listed), the spans to replace each span adjuster changed
    or added, and the units the rules switched off."""
    return {
        "key": {"source": key_source, "linkable_across_runs": key_source != RANDOM_KEY},
        "columns": list(columns),
        "entities_replaced": dict(sorted(entities.items())),
        "span_filters": {name: span_filters.get(name, 0) for name in SPAN_FILTERS},
        "span_adjusters": {name: span_adjusters.get(name, 0) for name in SPAN_ADJUSTERS},
        "recognizers": dict(sorted(recognizers.items())),
        "switched_off": {kind: list(names) for kind, names in sorted(switched_off.items())},
    }


def release_section(
    written: bool,
    folder: str,
    rows: Mapping[str, int],
    contents: Mapping[str, ColumnContents],
    quasi_identifier_cells: tuple[int, int],
    quasi_identifier_views: Mapping[str, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """The report's `release`: whether it was written, where, its rows per table, what each column holds
    (`toolkit.contents`) and the quasi-identifier cells holding a value before the risk pass and after, in
    all and per attacker view (`informative`: the share of a view's cells that still hold a value)."""
    return {
        "written": written,
        "folder": folder,
        "tables": dict(rows),
        "columns": {name: found.to_json() for name, found in contents.items()},
        "quasi_identifiers": {
            "cells_before": quasi_identifier_cells[0],
            "cells_released": quasi_identifier_cells[1],
            "views": {
                name: {
                    "cells_before": before,
                    "cells_released": released,
                    "informative": round(released / before, 4) if before else None,
                }
                for name, (before, released) in (quasi_identifier_views or {}).items()
            },
        },
    }


def _finding_json(finding: Finding, private: bool) -> dict[str, Any]:
    """A finding in the private report with its examples; in the release's, without them: an example
    shows a value as the parser read it, before the risk pass coarsened or withheld its column."""
    found = finding.to_json()
    if not private:
        found["examples"] = []
    return found


def job_summary_lines(envelope: dict[str, Any], folder: str | None = None) -> list[str]:
    """What a person reads on the terminal after `toolkit run` (`folder`: the release folder as given)."""
    lines = []
    for finding in envelope["quality"]["findings"]:
        where = (
            f"{finding['table']}.{finding['column'].replace(', ', '+')}"
            if finding["column"]
            else finding["table"]
        )
        tolerated = f" (tolerated: {finding['tolerated']})" if finding["tolerated"] else ""
        lines.append(
            f"{finding['severity']:<8}{finding['rule']:<50}{where:<40}"
            f"{plural(finding['rows'], 'row')}{tolerated}"
        )
    counts = envelope["counts"]
    lines.append(
        f"{plural(counts['profiles'], 'profile')}, {plural(counts['rejected_inputs'], 'input')} rejected, "
        f"{sum(counts['quarantined'].values())} rows quarantined, "
        f"{plural(counts['suppressed_persons'], 'person')} suppressed by verification"
    )
    for hit in envelope["verification"]["hits"]:
        values = plural(hit["values"], "value")
        lines.append(f"LEAK    {hit['table']}.{hit['column']}: {hit['kind']} in {values}")
    release = envelope["release"]
    verification = envelope["verification"]
    risk = envelope["risk"]
    if not risk.get("ran", True) and release["written"]:
        lines.append(
            "WARNING the risk pass did not run (risk.yaml: enabled: false): the release is pseudonymized, "
            "not anonymized; people may still be found again from what it keeps"
        )
    if risk.get("ran", True):
        smallest = min((view["after"]["smallest_k"] for view in risk["views"].values()), default=0)
        coarsened = sum(1 for column in risk["columns"].values() if column["level"])
        lines.append(
            f"risk: {plural(len(risk['views']), 'attacker view')}, "
            f"smallest class {plural(smallest, 'person')} after "
            f"{plural(coarsened, 'column')} coarsened; {plural(risk['suppressed'], 'person')} suppressed "
            f"(budget {risk['budget']})"
        )
    if release["written"]:
        tables = release["tables"]
        lines.append(
            f"release written to {folder or release['folder']}: {plural(sum(tables.values()), 'row')} in "
            f"{plural(len(tables), 'table')}"
        )
    elif verification["blocked"]:
        lines.append(
            f"release BLOCKED: {plural(verification['persons_suppressed'], 'person')} suppressed, "
            "more than the "
            f"budget of {verification['suppression_budget']}; no release was written (see the private report)"
        )
    else:
        lines.append(
            f"release BLOCKED: the attacker views of risk.yaml cannot reach their k without suppressing "
            f"{plural(risk['suppressed'], 'person')}, more than the budget of {risk['budget']}; "
            "no release was written"
        )
    if not envelope["privacy"]["key"]["linkable_across_runs"]:
        lines.append("note: no TOOLKIT_SECRET: pseudonyms use a random key and do not link across runs")
    return lines

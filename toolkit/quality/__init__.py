"""Validate stage: quality rules from `rules/quality.yaml`, run through pandera, and the quarantine split.

`validate_tables` never raises for bad data: it returns the valid rows, the quarantined rows (each with
the ids of the error rules it failed), and the findings. Only a broken rule or a check that cannot run
raises (`RulesError` / `ToolkitError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from toolkit.model import ProfileSet, empty_frame
from toolkit.quality.findings import Finding, Reveal, finding_for
from toolkit.quality.schemas import RuleFailures, check_contract, run_rules
from toolkit.rules import QualityRules
from toolkit.text import mask

__all__ = ["PARENT_QUARANTINED", "Finding", "Reveal", "ValidationResult", "mask", "validate_tables"]

PARENT_QUARANTINED = "parent_quarantined"
"""Listed in `failed_rules` of a child row whose profile was quarantined (it would be an orphan)."""

_CHILD_TABLES = ("education", "skills", "contributions", "experience", "awards")


@dataclass(frozen=True)
class ValidationResult:
    valid: ProfileSet
    """Rows that failed no error rule; `rejects` passes through unchanged."""
    quarantine: dict[str, pl.DataFrame]
    """Per table, rows that failed an error rule, with a `failed_rules` list column. Private data."""
    findings: list[Finding]
    """One per rule that failed on at least one row, in rules-file order (contract breaches first)."""

    @property
    def failed(self) -> bool:
        """True when an error rule failed beyond its threshold."""
        return any(finding.fails_job for finding in self.findings)

    @property
    def quarantined_rows(self) -> int:
        return sum(frame.height for frame in self.quarantine.values())


def validate_tables(
    tables: ProfileSet,
    rules: QualityRules,
    repeated: Mapping[str, pl.Series] | None = None,
    reveal: Reveal | None = None,
) -> ValidationResult:
    """Run every quality rule on every table and split each table into valid and quarantined rows.

    `repeated` is what a dataset-wide pass found for the `unique` rules of a batch: rule id -> rows of
    this batch whose key an earlier batch already holds. They fail the rule as a repeat inside the batch
    would, so a batch gives what the whole dataset in one batch would have given. `reveal` says which
    values the findings' examples may show as they are (without it, every text is masked).
    """
    frames = dict(tables.tables())
    findings: list[Finding] = []
    failed_rules: dict[str, list[pl.DataFrame]] = {name: [] for name in frames}
    # A table that breaks the contract is wholly quarantined; other tables' checks see it as empty.
    checkable = dict(frames)
    for table, frame in frames.items():
        breach = None if table == "rejects" else check_contract(table, frame)
        if breach is not None:
            findings.append(_contract_finding(breach.table, breach.problems, frame.height))
            failed_rules[table].append(_pairs(pl.int_range(frame.height, eager=True), f"{table}.contract"))
            checkable[table] = empty_frame(table)
    for table, frame in frames.items():
        if table == "rejects" or failed_rules[table]:
            continue
        table_rules = [rule for rule in rules.rules if rule.table == table]
        for failures in run_rules(table, frame, table_rules, checkable):
            earlier = (repeated or {}).get(failures.rule.id)
            if earlier is not None and not earlier.is_empty():
                rows = pl.concat([failures.rows, earlier.cast(pl.UInt32)]).unique().sort()
                failures = RuleFailures(failures.rule, failures.plan, rows)
            if failures.rows.is_empty():
                continue
            findings.append(finding_for(failures, frame, reveal))
            if failures.rule.severity == "error":
                failed_rules[table].append(_pairs(failures.rows, failures.rule.id))
    valid, quarantine = _split(frames, failed_rules)
    breached = [table for table, frame in checkable.items() if frame is not frames[table]]
    valid.update({table: empty_frame(table) for table in breached})
    return ValidationResult(ProfileSet.from_frames(valid), quarantine, findings)


def _contract_finding(table: str, problems: tuple[str, ...], rows: int) -> Finding:
    return Finding(
        rule=f"{table}.contract",
        table=table,
        columns=(),
        severity="error",
        description="The table has the data contract's columns and dtypes.",
        rows=rows,
        tolerated=0,
        examples=[{"problem": problem} for problem in problems[:5]],
    )


def _pairs(rows: pl.Series, rule_id: str) -> pl.DataFrame:
    return pl.DataFrame({"row": rows.cast(pl.UInt32), "rule": pl.repeat(rule_id, rows.len(), eager=True)})


def _split(
    frames: dict[str, pl.DataFrame], failed_rules: dict[str, list[pl.DataFrame]]
) -> tuple[dict[str, pl.DataFrame], dict[str, pl.DataFrame]]:
    valid: dict[str, pl.DataFrame] = {}
    quarantine: dict[str, pl.DataFrame] = {}
    for table in ("profiles", *_CHILD_TABLES, "rejects"):
        frame = frames[table].with_row_index("row")
        pairs = failed_rules[table]
        if table in _CHILD_TABLES and "profile_id" in frame.columns:
            orphans = frame.filter(
                pl.col("profile_id").is_in(quarantine["profiles"]["profile_id"].implode())
                & ~pl.col("profile_id").is_in(valid["profiles"]["profile_id"].implode())
            )["row"]
            pairs = [*pairs, _pairs(orphans, PARENT_QUARANTINED)]
        by_row = (
            pl.concat(pairs)
            .group_by("row")
            .agg(pl.col("rule").unique(maintain_order=True).alias("failed_rules"))
            if pairs
            else pl.DataFrame(schema={"row": pl.UInt32, "failed_rules": pl.List(pl.String)})
        )
        marked = frame.join(by_row, on="row", how="left", maintain_order="left")
        valid[table] = marked.filter(pl.col("failed_rules").is_null()).drop("row", "failed_rules")
        quarantine[table] = marked.filter(pl.col("failed_rules").is_not_null()).drop("row")
    del quarantine["rejects"]
    return valid, quarantine

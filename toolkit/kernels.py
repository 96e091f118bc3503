"""Kernels: each stage as a function of one batch of whole profiles (every row of a person together), the
rules and the key. No file I/O, no terminal output, no processes and no state kept across batches: the job
driver (`toolkit.driver`) or a Spark executor calls them, and what they return merges the same way however
the work was split.

    parse_batch      source records (bytes read by the caller) -> the contract's tables + rejects
    process_batch    parsed tables -> validate -> scrub -> verify per person -> release / quarantine /
                     suppressed rows, and `BatchStats`

A person's released rows depend only on that person's own rows, the rules, the key and the `BatchContext`
(what dataset-wide passes computed before the batch was processed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import polars as pl

from toolkit.io import FolderFiles, ReadFailure
from toolkit.model import TABLE_SCHEMAS, ProfileSet
from toolkit.parse import Parsed, parse_record
from toolkit.parse.collect import collect
from toolkit.parse.document import Reject
from toolkit.quality import Finding, validate_tables
from toolkit.quality.findings import MAX_EXAMPLES
from toolkit.rules import ParsingRules, PrivacyRules, QualityRules
from toolkit.scrub import RELEASED_TABLES, Anonymized, ColumnAction, Keyring, anonymize
from toolkit.scrub.shapes import shown_as_is
from toolkit.verify import NameIndex, Verification, verify

SUPPRESSION_REASON = "suppression_reason"
"""The column beside a suppressed person's rows (in the private folder) that says why."""


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One input as the driver read it: its path as given, and its bytes or why they could not be had."""

    source: str
    data: bytes | FolderFiles | ReadFailure
    """A file's bytes, a record folder's files (an export), or why the input could not be read."""


def parse_batch(records: Iterable[SourceRecord], rules: ParsingRules) -> ProfileSet:
    """Parse each record; a bad one becomes a row of `rejects`, never an exception."""
    results: list[Parsed] = []
    for record in records:
        if isinstance(record.data, ReadFailure):
            failure = record.data
            results.append(Reject(failure.source, failure.reason, failure.detail))
        else:
            results.extend(parse_record(record.source, record.data, rules))
    return collect(results)


def skipped_files(parsed: ProfileSet) -> Counter[str]:
    """How many files of exports were never read into a table, by reason."""
    if "skipped_files" not in parsed.profiles.columns:
        return Counter()
    listed = parsed.profiles.get_column("skipped_files").explode().drop_nulls().to_list()
    return Counter(entry.rpartition(": ")[2] for entry in listed)


@dataclass(frozen=True)
class BatchContext:
    """What the dataset-wide passes before processing hand to every batch."""

    names: NameIndex = field(default_factory=NameIndex)
    """The whole names of everyone in the dataset (searched in every person's released rows)."""
    repeated: Mapping[str, pl.Series] = field(default_factory=dict)
    """`unique` rule id -> rows of this batch whose key an earlier batch already holds."""


@dataclass
class FindingTally:
    """One rule's failures over some batches; the threshold is applied once every batch is in."""

    finding: Finding

    def merge(self, other: FindingTally) -> None:
        examples = [*self.finding.examples, *other.finding.examples][:MAX_EXAMPLES]
        self.finding = replace(self.finding, rows=self.finding.rows + other.finding.rows, examples=examples)


@dataclass
class BatchStats:
    """Counts of one batch, or of several merged in batch order (examples are the first ones seen)."""

    rows: Counter[str] = field(default_factory=Counter)
    """Parsed rows per table (rejects included), before quarantine."""
    quarantined: Counter[str] = field(default_factory=Counter)
    released: Counter[str] = field(default_factory=Counter)
    findings: dict[str, FindingTally] = field(default_factory=dict)
    columns: dict[tuple[str, str], ColumnAction] = field(default_factory=dict)
    entities: Counter[str] = field(default_factory=Counter)
    span_filters: Counter[str] = field(default_factory=Counter)
    """Per span filter, the spans it decided."""
    recognizers: Counter[str] = field(default_factory=Counter)
    """Per recognizer (and NER), the spans it found that were replaced."""
    span_adjusters: Counter[str] = field(default_factory=Counter)
    """Per span adjuster, the spans to replace it changed or added."""
    verification: Verification = field(default_factory=Verification)
    skipped_files: Counter[str] = field(default_factory=Counter)
    """Files of exports that were never read into a table, by reason ('private messages')."""

    def merge(self, other: BatchStats, row_offsets: Mapping[str, int] | None = None) -> None:
        """Add `other`'s counts; `row_offsets` (table -> rows in the batches before `other`) turns its
        examples' batch row numbers into dataset row numbers."""
        self.rows.update(other.rows)
        self.quarantined.update(other.quarantined)
        self.released.update(other.released)
        for rule, tally in other.findings.items():
            shifted = FindingTally(
                _shift_examples(tally.finding, (row_offsets or {}).get(tally.finding.table))
            )
            if rule in self.findings:
                self.findings[rule].merge(shifted)
            else:
                self.findings[rule] = shifted
        for key, action in other.columns.items():
            mine = self.columns.get(key)
            self.columns[key] = (
                action
                if mine is None
                else replace(mine, values=mine.values + action.values, changed=mine.changed + action.changed)
            )
        self.entities.update(other.entities)
        self.span_filters.update(other.span_filters)
        self.recognizers.update(other.recognizers)
        self.span_adjusters.update(other.span_adjusters)
        self.verification.merge(other.verification)
        self.skipped_files.update(other.skipped_files)

    def final_findings(self, rules: QualityRules) -> list[Finding]:
        """The merged findings in rules-file order (contract breaches first), thresholds applied to the
        whole dataset's row counts."""
        order = {rule.id: index for index, rule in enumerate(rules.rules)}
        by_id = {rule.id: rule for rule in rules.rules}
        findings = []
        for rule_id, tally in self.findings.items():
            rule = by_id.get(rule_id)
            tolerated = rule.tolerated_rows(self.rows[tally.finding.table]) if rule is not None else 0
            findings.append(replace(tally.finding, tolerated=tolerated))
        return sorted(findings, key=lambda finding: (finding.rule in order, order.get(finding.rule, 0)))


def _shift_examples(finding: Finding, offset: int | None) -> Finding:
    if not offset:
        return finding
    examples = [{**e, "row": e["row"] + offset} if "row" in e else e for e in finding.examples]
    return replace(finding, examples=examples)


@dataclass(frozen=True)
class BatchResult:
    release: dict[str, pl.DataFrame]
    """Released rows of the persons not suppressed, per released table."""
    quarantine: dict[str, pl.DataFrame]
    """Rows that failed an error rule, with `failed_rules` (private)."""
    suppressed: dict[str, pl.DataFrame]
    """The source rows of suppressed persons, with `suppression_reason` (private)."""
    rejects: pl.DataFrame
    stats: BatchStats


def process_batch(
    parsed: ProfileSet,
    quality: QualityRules,
    privacy: PrivacyRules,
    keys: Keyring,
    context: BatchContext | None = None,
) -> BatchResult:
    """Validate, scrub and verify one batch of whole profiles."""
    context = context or BatchContext()
    validation = validate_tables(parsed, quality, context.repeated, shown_as_is(privacy))
    valid = validation.valid
    anonymized, verification, release = scrub_and_verify(valid, privacy, keys, context.names)
    suppressed_ids = sorted(verification.suppressed)
    reasons = pl.DataFrame(
        {
            "profile_id": suppressed_ids,
            SUPPRESSION_REASON: [str(verification.suppressed[pid]) for pid in suppressed_ids],
        },
        schema={"profile_id": pl.String, SUPPRESSION_REASON: pl.String},
    )
    suppressed = {
        table: frame.join(reasons, on="profile_id", how="inner", maintain_order="left")
        for table, frame in valid.tables()
        if table in RELEASED_TABLES
    }
    stats = BatchStats(
        rows=Counter({table: frame.height for table, frame in parsed.tables()}),
        quarantined=Counter({table: frame.height for table, frame in validation.quarantine.items()}),
        released=Counter({table: frame.height for table, frame in release.items()}),
        findings={finding.rule: FindingTally(finding) for finding in validation.findings},
        columns={(action.table, action.column): action for action in anonymized.actions},
        entities=anonymized.entities,
        span_filters=anonymized.span_filters,
        recognizers=anonymized.recognizers,
        span_adjusters=anonymized.span_adjusters,
        verification=verification,
        skipped_files=skipped_files(parsed),
    )
    return BatchResult(release, validation.quarantine, suppressed, parsed.rejects, stats)


def scrub_and_verify(
    valid: ProfileSet, privacy: PrivacyRules, keys: Keyring, names: NameIndex
) -> tuple[Anonymized, Verification, dict[str, pl.DataFrame]]:
    """The policy applied, every person verified, and the released tables without the suppressed."""
    anonymized = anonymize(valid, privacy, keys)
    release_ids = {
        keys.pseudonym("profile_id", profile_id): profile_id
        for _, frame in valid.tables()
        if "profile_id" in frame.columns
        for profile_id in frame.get_column("profile_id").drop_nulls().unique()
    }
    verification = verify(anonymized.tables, valid, privacy, release_ids, names)
    gone = pl.Series([keys.pseudonym("profile_id", pid) for pid in verification.suppressed], dtype=pl.String)
    release = {
        table: frame.filter(~pl.col("profile_id").is_in(gone.implode()))
        for table, frame in anonymized.tables.items()
    }
    return anonymized, verification, release


def released_schema(privacy: PrivacyRules) -> dict[str, dict[str, pl.DataType]]:
    """The columns and dtypes each released table has, from the policy: what an empty part is written with."""
    empty = anonymize(ProfileSet.from_frames({}), privacy, Keyring(b"\0" * 32, "schema"))
    return {table: dict(frame.schema) for table, frame in empty.tables.items()}


def as_profile_set(frames: Mapping[str, pl.DataFrame]) -> ProfileSet:
    """The tables of one staged batch as a ProfileSet (a table not staged is empty)."""
    return ProfileSet.from_frames({name: frames[name] for name in TABLE_SCHEMAS if name in frames})


__all__: Sequence[str] = (
    "SUPPRESSION_REASON",
    "BatchContext",
    "BatchResult",
    "BatchStats",
    "FindingTally",
    "SourceRecord",
    "as_profile_set",
    "parse_batch",
    "process_batch",
    "released_schema",
    "scrub_and_verify",
)

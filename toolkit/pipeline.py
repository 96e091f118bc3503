"""The one composition of stages used by the CLI, the hooks and Python callers."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from toolkit._version import __version__
from toolkit.card import render_card
from toolkit.driver import JobOutcome, Source, parse_job, run_job
from toolkit.errors import Exit, UsageError
from toolkit.io import (
    discover,
    is_parsed_folder,
    read_table,
    read_tables,
    table_format,
    write_frames,
    write_table,
)
from toolkit.job_config import JobRules, JobSettings
from toolkit.model import ProfileSet
from toolkit.outputs import check_inputs, check_outputs, check_report_file
from toolkit.parse import parse_inputs, record_folders
from toolkit.publish import OutputKind, inside_output, mark, publish, staging_for, write_json
from toolkit.quality import validate_tables
from toolkit.report import Report, job_envelope
from toolkit.rules import (
    ParsingRules,
    PrivacyRules,
    QualityRules,
    RiskRules,
    TextRules,
    load_parsing_rules,
    load_privacy_rules,
    load_quality_rules,
    load_risk_rules,
)
from toolkit.scrub import Keyring, scrub_frame
from toolkit.scrub.shapes import shown_as_is
from toolkit.suspicious import SHAPE_ENTITIES, suspicious
from toolkit.tabular import resolve_delimiter

EXIT_CLEAN, EXIT_FINDINGS = int(Exit.CLEAN), int(Exit.FINDINGS)


@dataclass(frozen=True)
class ParseOutcome:
    profiles: int
    rejects: pl.DataFrame

    @property
    def clean(self) -> bool:
        """True when every input became a profile."""
        return self.rejects.is_empty()

    def summary(self) -> str:
        """One line: how many inputs, profiles and rejects (with their reasons)."""
        rejects = self.rejects.height
        line = f"parsed {self.profiles + rejects} inputs: {self.profiles} profiles, {rejects} rejected"
        if rejects:
            reasons = Counter(self.rejects["reason"].to_list())
            line += " (" + ", ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items())) + ")"
        return line


def parse(inputs: Sequence[str], rules: ParsingRules) -> ProfileSet:
    """Parse every input under `inputs` (files or folders) into tables in memory (for the API and
    `validate`; `parse_to_dir` streams instead)."""
    return parse_inputs(discover(inputs, record_folders(rules)), rules)


def parse_to_dir(
    inputs: Sequence[str], out_dir: Path, rules: ParsingRules, settings: JobSettings | None = None
) -> ParseOutcome:
    """Parse every input under `inputs` and publish all contract tables (private data) in `out_dir`,
    streaming batch by batch (see `toolkit.driver.parse_job`)."""
    profiles, rejects = parse_job(inputs, out_dir, rules, settings or JobSettings())
    return ParseOutcome(profiles, rejects)


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
    privacy: PrivacyRules | None = None,
    report_file: Path | None = None,
) -> Report:
    """Load the inputs, run the quality rules, and write the quarantined rows (private) if asked
    (`report_file`, where the caller will write the report, is only checked against the inputs). With
    the privacy policy, the report shows the values of columns it keeps (a degree, a skill) as they are."""
    if quarantine_dir is not None:
        check_outputs(inputs, {OutputKind.QUARANTINE: quarantine_dir})
    else:
        check_inputs(inputs)
    if report_file is not None:
        check_report_file(inputs, report_file)
    tables = load(inputs, parsing)
    result = validate_tables(tables, quality, reveal=shown_as_is(privacy) if privacy is not None else None)
    if quarantine_dir is not None:
        _publish_frames(result.quarantine, quarantine_dir, OutputKind.QUARANTINE)
    failed = result.failed or not tables.rejects.is_empty()
    return Report(
        command="validate",
        inputs=inputs,
        tables=tables,
        validation=result,
        rules_checked=len(quality.rules),
        exit_code=EXIT_FINDINGS if failed else EXIT_CLEAN,
    )


def _publish_frames(frames: dict[str, pl.DataFrame], folder: Path, kind: OutputKind) -> None:
    """Write `frames` into a staging folder and publish it whole in place of `folder`."""
    stage = staging_for(folder)
    shutil.rmtree(stage, ignore_errors=True)
    try:
        write_frames(frames, stage)
        mark(stage, kind)
        publish(stage, folder)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def default_private_dir(out_dir: Path) -> Path:
    """Where private outputs go unless told: a sibling of the release, `<out>.private/`."""
    named = out_dir if out_dir.name else out_dir.resolve()
    if not named.name:
        raise UsageError(f"{out_dir}: the release folder must be a folder of its own, not the root")
    return named.with_name(named.name + ".private")


def job_rules(rules_dir: Path | None = None) -> JobRules:
    """Every rules file the whole job reads, checked at once (the first mistake raises `RulesError`)."""
    return JobRules(
        load_parsing_rules(rules_dir),
        load_quality_rules(rules_dir),
        load_privacy_rules(rules_dir),
        load_risk_rules(rules_dir),
    )


def run(
    inputs: Sequence[str],
    out_dir: Path,
    rules: JobRules,
    keys: Keyring,
    private_dir: Path | None = None,
    settings: JobSettings | None = None,
    source: Source | None = None,
) -> dict[str, Any]:
    """The whole job (see `toolkit.driver`) on `inputs`, or on another `source` (then `inputs` only
    names it in the private report): the release's report envelope.

    The release (`out_dir/<table>.parquet`, `report.json`, and the card rendered from it: `README.md`
    and `report.html`) is published only when the persons
    verification suppressed stay within its budget and the risk pass meets every view's target within
    its own; either way the private folder (default
    `<out>.private`) gets its own report (inputs and rejected paths included), the quarantined and
    suppressed rows, and the rejects. Raises `UsageError` for bad folders, `JobFault` when the job cannot
    finish (nothing is published then).
    """
    private_dir = private_dir or default_private_dir(out_dir)
    shown = str(out_dir)
    envelopes: dict[str, dict[str, Any]] = {}

    def write_reports(outcome: JobOutcome, release_stage: Path, private_stage: Path) -> None:
        envelopes["release"] = job_envelope(outcome, keys, shown)
        envelopes["private"] = job_envelope(outcome, keys, shown, inputs=inputs)
        write_json(private_stage / "report.json", envelopes["private"])
        if outcome.written:
            for name, text in render_card(envelopes["release"]).items():
                (release_stage / name).write_text(text, encoding="utf-8")
            write_json(release_stage / "report.json", envelopes["release"])

    run_job(
        inputs,
        out_dir,
        private_dir,
        rules,
        keys,
        settings or JobSettings(),
        write_reports,
        source,
    )
    return envelopes["release"]


SCRUB_REPORT_VERSION = 1
WITHHELD = "<WITHHELD>"
"""What a scrubbed cell becomes when the leak check still finds a contact shape in it."""


def scrub_file(
    source: Path,
    target: Path,
    text_columns: Sequence[str],
    privacy: PrivacyRules,
    keys: Keyring,
    delimiter: str = "auto",
    report_file: Path | None = None,
    keep: Sequence[Path] = (),
    k: int | None = None,
    risk: RiskRules | None = None,
) -> dict[str, Any]:
    """Scrub the free-text columns of one table file into `target`, and check what was written.

    With `k` (and the `risk` rules, for `text.max_run`), each row is a person and the text columns are then
    made k-anonymous as the whole job makes them (`toolkit.risk.runs`): every run of words kept is held by
    `k` rows; the report gains a `text` section.

    The check is verification's own shapes of contacts and personal details (`toolkit.suspicious`,
    written apart from the scrubber's recognizers): a scrubbed cell that still holds one is written as
    `<WITHHELD>` and counted, never as it is, and the report's `exit_code` is then 1 (findings). Returns
    the report envelope (versioned; counts only, no value of the table). A delimited source is read with
    `delimiter` (sniffed by default), and a target of the same format is written with the same one.
    `report_file`, where the caller will write the report, is checked first: never over the source, the
    target or a file to `keep` (the key file), nor inside an output folder of the toolkit, where the target
    may not go either."""
    frame = read_table(source, delimiter)
    missing = [column for column in text_columns if column not in frame.columns]
    if missing:
        raise UsageError(f"{source}: no column {', '.join(missing)} (columns: {', '.join(frame.columns)})")
    not_text = [column for column in text_columns if frame.schema[column] != pl.String]
    if not_text:
        raise UsageError(f"{source}: column {', '.join(not_text)} does not hold text")
    if source.resolve() == target.resolve():
        raise UsageError(f"{target}: write the scrubbed table to a new file, not over its source")
    holder = inside_output(target)
    if holder is not None:
        raise UsageError(f"{target}: write the scrubbed table outside the toolkit's output folder {holder}")
    if report_file is not None:
        check_report_file([str(source), *(str(path) for path in keep)], report_file, [target])
    scrubbed, entities = scrub_frame(frame, list(text_columns), privacy, keys)
    scrubbed, hits = _withhold_leaks(scrubbed, text_columns)
    text = None
    if k is not None:
        scrubbed, text = _k_anonymous_rows(scrubbed, text_columns, k, privacy, risk)
    same_format = table_format(source) == table_format(target) in ("csv", "tsv")
    write_table(scrubbed, target, resolve_delimiter(source, delimiter) if same_format else None)
    changed = {
        column: int(frame.get_column(column).ne_missing(scrubbed.get_column(column)).sum())
        for column in text_columns
    }
    withheld = sum(hits.values())
    return {
        "report_version": SCRUB_REPORT_VERSION,
        "tool": {"name": "toolkit", "version": __version__},
        "command": "scrub",
        "source": str(source),
        "output": str(target),
        "rows": frame.height,
        "text_columns": list(text_columns),
        "values_changed": changed,
        "entities_replaced": dict(sorted(entities.items())),
        "key": {"source": keys.source, "linkable_across_runs": keys.linkable_across_runs},
        "verification": {
            "values_checked": sum(scrubbed.get_column(column).drop_nulls().len() for column in text_columns),
            "shapes": list(SHAPE_ENTITIES),
            "values_withheld": withheld,
            "hits": [
                {"column": column, "kind": kind, "values": count}
                for (column, kind), count in sorted(hits.items())
            ],
        },
        "exit_code": EXIT_FINDINGS if withheld else EXIT_CLEAN,
    } | ({"text": text} if text is not None else {})


def _k_anonymous_rows(
    frame: pl.DataFrame, text_columns: Sequence[str], k: int, privacy: PrivacyRules, risk: RiskRules | None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """`text_columns` cut to the runs of words that `k` rows hold (each row a person)."""
    from toolkit.risk.runs import allowed_sets, anonymize_text

    max_run = risk.text.max_run if risk is not None and risk.text is not None else 5
    function_words = risk.phrases.function_words if risk is not None and risk.phrases is not None else ()
    rules = TextRules(
        enabled=True, max_run=max_run, modes={f"rows.{column}": "k_anonymous" for column in text_columns}
    )
    rows = frame.select(*text_columns).with_columns(
        pl.int_range(pl.len()).cast(pl.String).alias("profile_id")
    )
    allowed, terms = allowed_sets(privacy, max_run, function_words)
    tables, text = anonymize_text({"rows": rows}, rules, k, allowed, terms)
    return frame.with_columns(tables["rows"].select(*text_columns)), text


def _withhold_leaks(
    frame: pl.DataFrame, text_columns: Sequence[str]
) -> tuple[pl.DataFrame, Counter[tuple[str, str]]]:
    hits: Counter[tuple[str, str]] = Counter()
    columns = []
    for column in text_columns:
        values = frame.get_column(column).to_list()
        for row, value in enumerate(values):
            kind = suspicious(value) if value is not None else None
            if kind is not None:
                hits[column, kind] += 1
                values[row] = WITHHELD
        columns.append(pl.Series(column, values, dtype=pl.String))
    return frame.with_columns(columns), hits

"""The job: it parses its source into batches, has its engine's executor run the kernels on them
(`toolkit.tasks`, each batch's tables streamed to the staging store), runs the dataset-wide passes over the
staged parts (`toolkit.passes`), and publishes by renaming. The engine is this machine's process pool
(`toolkit.executor`) or Spark (`toolkit.spark`); the tasks, the passes and so the release are the same.

    phase 1  a Source: inputs -> batches of records -> parse_task -> <private staging>/work/parsed/<table>/
             part-N (or, on Spark, a DataFrame of documents parsed where it lies: `toolkit.spark.documents`)
    pass     names_pass, repeated_pass: the whole names of everyone, keys of `unique` rules repeated
             across batches
    phase 2  parsed part N -> process_task -> release, quarantine and suppressed parts, the persons'
             candidate phrases of free text
    pass     merged statistics -> thresholds, suppression budget, counts
    risk     risk_pass (here): levels, withheld rows, suppressed persons, the phrases text keeps; then
             rewrite_pass and text_pass, batch by batch in a fresh executor
    publish  parts -> one <table>.parquet each (streamed through the plan), report.json last; staging
             renamed into place

Memory is flat in the input size: a batch at a time per worker, parts streamed to disk, scans streamed out.
A killed run leaves hidden staging folders only (removed by the next run), never a half-published output.
"""

from __future__ import annotations

import contextlib
import math
import shutil
import signal
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

import polars as pl

from toolkit.batching import job_batches
from toolkit.contents import ColumnContents, release_contents, values_in, values_of
from toolkit.errors import Exit, JobFault, UsageError
from toolkit.executor import Executor, LocalExecutor
from toolkit.job_config import JobRules, JobSettings
from toolkit.kernels import BatchStats
from toolkit.model import TABLE_SCHEMAS
from toolkit.outputs import check_folders, check_outputs
from toolkit.passes import (
    OUTPUT_TABLES,
    names_pass,
    release_schemas,
    released_tables,
    repeated_pass,
    rewrite_pass,
    risk_pass,
    text_pass,
)
from toolkit.progress import Progress
from toolkit.publish import OutputKind, mark, publish, remove_stale_staging, staging_for
from toolkit.risk import RiskPlan
from toolkit.risk.phrases import PhraseFinder
from toolkit.rules import ParsingRules
from toolkit.scrub.keys import Keyring
from toolkit.staging import collect_private, concat_parts
from toolkit.tasks import parse_task, process_task

REWRITE_PER_WORKER = 5_000
"""Fewer released profiles than this per worker are rewritten in the driver: a fresh worker takes about
2.4 s to start, the time the driver takes to rewrite some 4,500 profiles' text (2-core machine)."""


@dataclass
class JobOutcome:
    """What the job did; `toolkit.report` turns it into the two report envelopes."""

    stats: BatchStats
    findings: list[Any]
    rules_checked: int
    rejects: pl.DataFrame
    profiles: int
    suppressed: list[tuple[str, str]]
    """(pseudonym, reason) of each suppressed person, sorted."""
    budget: int
    """Suppressions the budget allows."""
    written: bool
    released_rows: dict[str, int] = field(default_factory=dict)
    risk: RiskPlan | None = None
    """The risk pass's plan, when it ran (only after verification stayed within its budget)."""
    text: dict[str, Any] | None = None
    """The text pass's report section, when it ran."""
    contents: dict[str, ColumnContents] = field(default_factory=dict)
    """What each column of the written release holds, counted from its files."""
    quasi_identifier_cells: tuple[int, int] = (0, 0)
    """Cells of the attacker views' columns holding a value: after verification, and in the release."""
    quasi_identifier_views: dict[str, tuple[int, int]] = field(default_factory=dict)
    """The same per attacker view (its columns' cells)."""
    switched_off: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The recognizers, span filters and adjusters the rules switched off (`PrivacyRules.switched_off`)."""

    @property
    def blocked(self) -> bool:
        return len(self.suppressed) > self.budget

    @property
    def exit_code(self) -> Exit:
        if not self.written:
            return Exit.BLOCKED
        failed = any(finding.fails_job for finding in self.findings)
        if failed or not self.rejects.is_empty() or self.suppressed:
            return Exit.FINDINGS
        return Exit.CLEAN


Executors = Callable[[int, Path], AbstractContextManager[Executor]]
"""An engine's executors: `executors(workers, work folder)` is one, to use in a `with` block."""


@contextlib.contextmanager
def _engine(rules: JobRules, keys: Keyring, settings: JobSettings) -> Iterator[tuple[Executors, JobSettings]]:
    """The executors of the engine `settings` names, and the settings with its worker count. A Spark
    session the job starts is stopped at the end; one that was running already is left running."""
    if settings.engine != "spark":
        yield (lambda workers, work: LocalExecutor(workers, rules, keys, work)), settings
        return
    from toolkit.spark import SparkExecutor, spark_session
    from toolkit.spark.executor import spark_cores

    session, started = spark_session(settings.master)

    def on_spark(workers: int, work: Path) -> SparkExecutor:
        return SparkExecutor(session, rules, keys, work)

    try:
        yield on_spark, replace(settings, jobs=spark_cores(session))
    finally:
        if started:
            session.stop()


class Source(Protocol):
    """What phase 1 parses into the staging store: the files and folders a job is given, or (on Spark) a
    DataFrame of documents."""

    def plan(self, settings: JobSettings) -> int:
        """The workers worth starting for this source (called once, before `parse`)."""
        ...

    def parse(self, executor: Executor, work: Path, progress: bool) -> list[dict[str, int]]:
        """Parse everything into `<work>/parsed/<table>/part-N`, N = 0, 1, ... (every table in every
        batch); the rows of each batch's tables, rejects included, in batch order."""
        ...


class InputPaths:
    """Files and folders, cut into batches of whole profiles (`toolkit.batching`), parsed by the executor."""

    def __init__(self, inputs: Sequence[str], parsing: ParsingRules) -> None:
        self.inputs, self.parsing = inputs, parsing
        self.batches: Iterator[Any] = iter(())
        self.count = 0

    def plan(self, settings: JobSettings) -> int:
        self.batches, self.count, workers = job_batches(self.inputs, self.parsing, settings)
        return workers

    def parse(self, executor: Executor, work: Path, progress: bool) -> list[dict[str, int]]:
        rows: list[dict[str, int]] = []
        with Progress(self.count, "parse", enabled=progress) as tick:
            for done in executor.map(parse_task, enumerate(self.batches)):
                rows.append(done.rows)
                tick(done.rows["profiles"] + done.rows["rejects"])
        return rows


class _Interrupted(BaseException):
    """SIGTERM, turned into an exception so that staging folders are removed on the way out."""


@contextlib.contextmanager
def _signals_end_the_job() -> Iterator[None]:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Interrupted(signal.Signals(signum).name)

    previous = signal.signal(signal.SIGTERM, stop) if _main_thread() else None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def run_job(
    inputs: Sequence[str],
    out_dir: Path,
    private_dir: Path,
    rules: JobRules,
    keys: Keyring,
    settings: JobSettings,
    report: Callable[[JobOutcome, Path, Path], None],
    source: Source | None = None,
) -> JobOutcome:
    """The whole job; `report(outcome, release_stage, private_stage)` writes the report files into the
    staging folders before they are published. Phase 1 parses `source` (default: the files and folders
    `inputs` names). Raises `UsageError` before any work, `JobFault` when the job cannot finish (nothing
    is published then)."""
    check_folders(inputs, out_dir, private_dir)
    source = source or InputPaths(inputs, rules.parsing)
    with (
        _engine(rules, keys, settings) as (executors, settings),
        _staged((out_dir, OutputKind.RELEASE), (private_dir, OutputKind.PRIVATE)) as stages,
    ):
        release_stage, private_stage = stages
        outcome = _run_phases(source, release_stage, private_stage, rules, keys, settings, executors)
        report(outcome, release_stage, private_stage)
        shutil.rmtree(private_stage / "work", ignore_errors=True)
        publish(private_stage, private_dir)
        if outcome.written:
            publish(release_stage, out_dir)
    return outcome


def parse_job(
    inputs: Sequence[str], out_dir: Path, parsing: ParsingRules, settings: JobSettings
) -> tuple[int, pl.DataFrame]:
    """Phase 1 alone, published as `out_dir/<table>.parquet` (private data): the number of profiles and
    the rejects. Memory is flat as in `run_job`; `out_dir` is replaced whole or not at all."""
    check_outputs(inputs, {OutputKind.PARSED: out_dir})
    keys = Keyring(b"\0" * 32, "unused")
    with (
        _engine(JobRules(parsing), keys, settings) as (executors, settings),
        _staged((out_dir, OutputKind.PARSED)) as (stage,),
    ):
        work = stage / ".work"
        source = InputPaths(inputs, parsing)
        with executors(source.plan(settings), work) as executor:
            source.parse(executor, work, settings.progress)
        for table, schema in TABLE_SCHEMAS.items():
            concat_parts(work / "parsed", table, dict(schema), stage / f"{table}.parquet")
        shutil.rmtree(work)
        profiles = pl.scan_parquet(stage / "profiles.parquet").select(pl.len()).collect().item()
        rejects = pl.read_parquet(stage / "rejects.parquet")
        publish(stage, out_dir)
    return int(profiles), rejects


@contextlib.contextmanager
def _staged(*targets: tuple[Path, OutputKind]) -> Iterator[tuple[Path, ...]]:
    """Fresh staging folders for `targets`, removed on the way out whatever happens; a signal, a full
    disk or a bug inside becomes one `JobFault` (nothing that was not published yet will be)."""
    for target, _ in targets:
        remove_stale_staging(target)
    stages = tuple(staging_for(target) for target, _ in targets)
    try:
        with _signals_end_the_job():
            for stage, (_, kind) in zip(stages, targets, strict=True):
                shutil.rmtree(stage, ignore_errors=True)
                stage.mkdir(parents=True)
                mark(stage, kind)
            yield stages
    except KeyboardInterrupt:
        raise JobFault("interrupted (SIGINT): nothing was published") from None
    except _Interrupted as signal_name:
        raise JobFault(f"interrupted ({signal_name}): nothing was published") from None
    except OSError as exc:
        raise JobFault(f"{exc.strerror or exc} ({exc.filename or 'output'}): nothing was published") from None
    except (JobFault, UsageError):
        raise
    except Exception as exc:  # a bug: still one line, and nothing half-published
        raise JobFault(f"internal error ({exc.__class__.__name__}: {exc}): nothing was published") from exc
    finally:
        for stage in stages:
            shutil.rmtree(stage, ignore_errors=True)


def _run_phases(
    source: Source,
    release_stage: Path,
    private_stage: Path,
    rules: JobRules,
    keys: Keyring,
    settings: JobSettings,
    executors: Executors,
) -> JobOutcome:
    quality, privacy = rules.quality, rules.privacy
    assert quality is not None, "the whole job needs every rules file"
    assert privacy is not None, "the whole job needs every rules file"
    work = private_stage / "work"
    workers = source.plan(settings)
    with executors(workers, work) as executor:
        rows_before = source.parse(executor, work, settings.progress)
        names_pass(work)
        repeated = repeated_pass(work, quality, len(rows_before))
        stats = BatchStats()
        offsets: Counter[str] = Counter()
        with Progress(sum(r["profiles"] for r in rows_before), "scrub", enabled=settings.progress) as tick:
            for batch, batch_stats in executor.map(process_task, list(enumerate(repeated))):
                stats.merge(batch_stats, dict(offsets))
                offsets.update(rows_before[batch])
                tick(rows_before[batch]["profiles"])
    findings = stats.final_findings(quality)
    persons = stats.verification.persons_checked
    budget = math.floor(privacy.policy.verification.max_suppressed * persons)
    suppressed = sorted(
        (keys.pseudonym("profile_id", person), str(reason))
        for person, reason in stats.verification.suppressed.items()
    )
    written = len(suppressed) <= budget
    rejects = collect_private(work, private_stage)
    released_rows: dict[str, int] = {}
    schemas = release_schemas(privacy)
    plan = None
    view_columns = [c for view in rules.risk.views.values() for c in view.columns] if rules.risk else []
    cells_before: dict[str, int] = {}
    cells_released: dict[str, int] = {}
    contents: dict[str, ColumnContents] = {}
    if written and rules.risk is not None and rules.risk.enabled:
        released = released_tables(work, schemas)
        cells_before = values_in(released, view_columns)
        assert rules.risk.phrases is not None, "the risk pass finds phrases"
        plan = risk_pass(work, released, rules.risk, PhraseFinder(rules.risk.phrases, privacy), private_stage)
        written = plan.written
    text_rules = rules.risk.text if rules.risk is not None else None
    text_report_ = None
    if written and ((plan is not None and plan.rewriter is not None) or (text_rules and text_rules.enabled)):
        # A fresh pool: the workers of phase 2 hold spaCy, and the plan's memory should not come on
        # top of theirs; finding phrases and runs needs no model.
        persons = plan.persons if plan is not None else stats.verification.persons_checked
        rewriting = max(1, min(workers, persons // REWRITE_PER_WORKER))
        with executors(rewriting, work) as rewriters:
            if plan is not None and plan.rewriter is not None:
                rewrite_pass(rewriters, plan, work, len(rows_before), settings.progress)
            if text_rules is not None and text_rules.enabled:
                text_report_ = text_pass(rewriters, plan, work, len(rows_before), rules, settings.progress)
    if written:
        for table in OUTPUT_TABLES:
            target = release_stage / f"{table}.parquet"
            transform = (lambda name, rows: plan.apply(name, rows, rewrite=False)) if plan else None
            released_rows[table] = concat_parts(work / "release", table, schemas[table], target, transform)
        published = {table: pl.scan_parquet(release_stage / f"{table}.parquet") for table in OUTPUT_TABLES}
        contents = release_contents(published)
        cells_released = values_of(contents, view_columns)
        if plan is None:
            cells_before = cells_released
    return JobOutcome(
        stats=stats,
        findings=findings,
        rules_checked=len(quality.rules),
        rejects=rejects,
        profiles=stats.rows["profiles"],
        suppressed=suppressed,
        budget=budget,
        written=written,
        released_rows=released_rows,
        risk=plan,
        text=text_report_,
        contents=contents,
        quasi_identifier_cells=(
            sum(cells_before.get(column, 0) for column in view_columns),
            sum(cells_released.get(column, 0) for column in view_columns),
        ),
        quasi_identifier_views={
            name: (
                sum(cells_before.get(column, 0) for column in view.columns),
                sum(cells_released.get(column, 0) for column in view.columns),
            )
            for name, view in (rules.risk.views.items() if rules.risk else ())
        },
        switched_off=privacy.switched_off,
    )


__all__ = (
    "InputPaths",
    "JobOutcome",
    "JobRules",
    "JobSettings",
    "Source",
    "parse_job",
    "run_job",
)

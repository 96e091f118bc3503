"""The job driver: everything around the kernels. It enumerates source records, cuts them into batches,
runs the kernels in worker processes, streams each batch's tables to staging folders, runs the
dataset-wide passes over the staged parts with lazy Polars scans, and publishes by renaming.

    phase 1  inputs -> batches of records -> parse_batch (workers) -> <private staging>/parsed/<table>/part-N
    pass     parsed parts -> the whole names of everyone (NameIndex), keys of `unique` rules repeated
             across batches
    phase 2  parsed part N -> process_batch (workers) -> release, quarantine and suppressed parts, and
             the persons' candidate phrases of free text (phrase_keys)
    pass     merged statistics -> thresholds, suppression budget, counts
    risk     release parts + phrases -> plan_risk (driver): levels, withheld rows, suppressed persons,
             the phrases text keeps; then the phrase rewrite of each release part (workers)
    publish  parts -> one <table>.parquet each (streamed through the plan), report.json last; staging
             renamed into place

Memory is flat in the input size: a batch at a time per worker, parts streamed to disk, scans streamed out.
A killed run leaves hidden staging folders only (removed by the next run), never a half-published output.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import math
import multiprocessing
import os
import shutil
import signal
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import polars as pl

from toolkit.contents import ColumnContents, release_contents, values_in, values_of
from toolkit.errors import Exit, JobFault, UsageError
from toolkit.io import InputFile, ReadFailure, is_parsed_folder, iter_inputs, read_input, shown_path
from toolkit.kernels import (
    BatchContext,
    BatchStats,
    SourceRecord,
    as_profile_set,
    parse_batch,
    process_batch,
    released_schema,
)
from toolkit.memory import give_back
from toolkit.model import TABLE_SCHEMAS, TERMS, TERMS_TABLE, ProfileSet
from toolkit.parse import record_folders
from toolkit.progress import Progress
from toolkit.publish import (
    OutputKind,
    check_replaceable,
    inside_output,
    mark,
    output_kind,
    publish,
    remove_stale_staging,
    staging_for,
)
from toolkit.risk import RiskPlan, plan_risk
from toolkit.risk.phrases import PHRASE_SCHEMA, PhraseFinder, PhraseRewriter, phrase_keys
from toolkit.risk.runs import (
    Cells,
    ColumnFigures,
    OkSets,
    TermVocabulary,
    allowed_sets,
    cells_of,
    cut_tables,
    level_keys,
    ok_runs,
    shared_keys,
    term_rows,
    term_vocabulary,
    text_report,
    withhold,
)
from toolkit.rules import ParsingRules, PrivacyRules, QualityRules, RiskRules, TextRules
from toolkit.scrub import RELEASED_TABLES
from toolkit.scrub.keys import Keyring
from toolkit.verify import NameIndex

DEFAULT_BATCH_SIZE = 500
MIN_PER_WORKER = 250
"""Fewer profiles than this per worker are not worth starting a worker process for: a worker spends about
1.5 s loading spaCy and Presidio, the time it takes to scrub some 200 profiles (2-core machine)."""
REWRITE_PER_WORKER = 5_000
"""Fewer released profiles than this per worker are rewritten in the driver: a fresh worker takes about
2.4 s to start, the time the driver takes to rewrite some 4,500 profiles' text (2-core machine)."""
_PART = "part-{:06d}.parquet"
_OUTPUT_TABLES = (*RELEASED_TABLES, TERMS_TABLE)
"""The tables of a release: the contract's, and the terms the text pass lists."""


@dataclass(frozen=True)
class JobRules:
    parsing: ParsingRules
    quality: QualityRules | None = None
    """None only for a job that only parses."""
    privacy: PrivacyRules | None = None
    risk: RiskRules | None = None
    """None: no re-identification risk pass (the release is then only pseudonymized)."""


@dataclass(frozen=True)
class JobSettings:
    jobs: int = 0
    """Worker processes; 0 means one per core. With 1, the kernels run in this process."""
    batch_size: int = DEFAULT_BATCH_SIZE
    """Profiles per batch at most (fewer when that keeps every worker busy); results do not depend on it."""
    progress: bool = True
    min_per_worker: int = MIN_PER_WORKER
    """Profiles a worker process must have at least to be started."""

    def workers(self) -> int:
        return self.jobs if self.jobs > 0 else max(1, os.cpu_count() or 1)


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


# --- the worker side: module level, so spawned processes can find it -----------------------------------


@dataclass(frozen=True)
class _WorkerState:
    rules: JobRules
    keys: Keyring
    staging: Path


_STATE: _WorkerState | None = None
_NAMES: dict[Path, NameIndex] = {}


def _init_worker(state: _WorkerState) -> None:
    """In each worker: Ctrl-C is the driver's to handle, and the worker dies with the driver."""
    global _STATE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    _STATE = state


def _die_with_parent() -> None:
    name = ctypes.util.find_library("c")
    if name is not None and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(name).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _state() -> _WorkerState:
    assert _STATE is not None, "worker not initialised"
    return _STATE


def _part(folder: Path, table: str, batch: int) -> Path:
    return folder / table / _PART.format(batch)


def _write_part(frame: pl.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    frame.write_parquet(partial)
    partial.replace(path)


@dataclass(frozen=True)
class _Parsed:
    batch: int
    rows: dict[str, int]


def _parse_task(task: tuple[int, list[InputFile | ReadFailure] | ProfileSet]) -> _Parsed:
    batch, items = task
    state = _state()
    if isinstance(items, ProfileSet):
        tables = items
    else:
        records = [
            SourceRecord(item.source, item)
            if isinstance(item, ReadFailure)
            else SourceRecord(item.source, read_input(item, state.rules.parsing.max_input_bytes))
            for item in items
        ]
        tables = parse_batch(records, state.rules.parsing)
    for table, frame in tables.tables():
        _write_part(frame, _part(state.staging / "parsed", table, batch))
    return _Parsed(batch, {table: frame.height for table, frame in tables.tables()})


def _process_task(task: tuple[int, dict[str, pl.Series]]) -> tuple[int, BatchStats]:
    batch, repeated = task
    state = _state()
    parsed = as_profile_set(
        {table: pl.read_parquet(_part(state.staging / "parsed", table, batch)) for table in TABLE_SCHEMAS}
    )
    names_file = state.staging / "names.parquet"
    if names_file not in _NAMES:
        _NAMES.clear()
        digests: array[int] = array("Q")
        for chunk in pl.read_parquet(names_file).iter_slices(1 << 16):
            digests.extend(chunk.get_column("digest").to_list())  # sorted and distinct: see _names_pass
        firsts = pl.read_parquet(names_file.with_name("first_words.parquet")).get_column("first").to_list()
        _NAMES[names_file] = NameIndex(digests, frozenset(firsts))
    context = BatchContext(names=_NAMES[names_file], repeated=repeated)
    quality, privacy = state.rules.quality, state.rules.privacy
    assert quality is not None, "a parse-only job processes no batch"
    assert privacy is not None, "a parse-only job processes no batch"
    result = process_batch(parsed, quality, privacy, state.keys, context)
    for kind, frames in (("release", result.release), ("quarantine", result.quarantine),
                         ("suppressed", result.suppressed)):  # fmt: skip
        for table, frame in frames.items():
            _write_part(frame, _part(state.staging / kind, table, batch))
    risk = state.rules.risk
    text = risk.text if risk is not None else None
    terms = pl.DataFrame(schema=TERMS)
    if risk is not None and text is not None and text.enabled and text.terms_from:
        terms = term_rows(result.release, text.terms_from, _vocabulary(risk, privacy))
    _write_part(terms, _part(state.staging / "release", TERMS_TABLE, batch))
    if risk is not None and risk.enabled and risk.phrases is not None:
        found = phrase_keys(result.release, risk.phrases, _finder(risk, privacy))
        _write_part(found, _part(state.staging, "phrases", batch))
    return batch, result.stats


_VOCABULARY: list[tuple[RiskRules, TermVocabulary]] = []


def _vocabulary(risk: RiskRules, privacy: PrivacyRules) -> TermVocabulary:
    """One term vocabulary per process and rules."""
    if not _VOCABULARY or _VOCABULARY[0][0] is not risk:
        assert risk.text is not None, "terms are the text pass's"
        function_words = risk.phrases.function_words if risk.phrases is not None else ()
        _VOCABULARY[:] = [(risk, term_vocabulary(privacy, risk.text.max_run, function_words))]
    return _VOCABULARY[0][1]


_FINDER: list[tuple[RiskRules, PhraseFinder]] = []
_REWRITER: dict[Path, PhraseRewriter] = {}


def _rewrite_task(task: tuple[int, dict[str, list[str]]]) -> int:
    """Rewrite the rare phrases of one batch's released parts in place (through a temporary file)."""
    batch, columns = task
    state = _state()
    risk, privacy = state.rules.risk, state.rules.privacy
    assert risk is not None, "only the whole job rewrites phrases"
    assert privacy is not None, "only the whole job rewrites phrases"
    shared_file = state.staging / "shared_phrases.parquet"
    if shared_file not in _REWRITER:
        _REWRITER.clear()
        shared = pl.read_parquet(shared_file).get_column("phrase").to_list()
        forced = dict(pl.read_parquet(shared_file.with_name("forced_phrases.parquet")).iter_rows())
        _REWRITER[shared_file] = PhraseRewriter(_finder(risk, privacy), shared, forced)
    rewriter = _REWRITER[shared_file]
    for table, names in columns.items():
        part = _part(state.staging / "release", table, batch)
        if not part.exists():
            continue
        frame = pl.read_parquet(part)
        rewritten = frame.with_columns(rewriter.expr(name, frame.schema[name]) for name in names)
        _write_part(rewritten, part.with_suffix(".rewritten"))
        part.with_suffix(".rewritten").replace(part)
    return batch


def _rewrite_in_workers(
    pool: _Workers, plan: RiskPlan, work: Path, batches: int, settings: JobSettings
) -> None:
    """The plan's phrase rewrite, batch by batch in the workers: what text keeps is decided once (the
    phrases shared by k persons, the coarsened values), the finding runs where the text is."""
    assert plan.rewriter is not None
    shared = pl.DataFrame({"phrase": sorted(plan.rewriter.shared)}, schema={"phrase": pl.UInt64})
    forced = pl.DataFrame(
        {"phrase": list(plan.rewriter.forced), "kind": list(plan.rewriter.forced.values())},
        schema={"phrase": pl.UInt64, "kind": pl.String},
    )
    _write_part(shared, work / "shared_phrases.parquet")
    _write_part(forced, work / "forced_phrases.parquet")
    columns = {table: plan.rewritten_columns(table) for table in RELEASED_TABLES}
    columns = {table: names for table, names in columns.items() if names}
    with Progress(batches, "phrases", enabled=settings.progress) as tick:
        for _ in pool.map(_rewrite_task, [(batch, columns) for batch in range(batches)]):
            tick(1)


def _finder(risk: RiskRules, privacy: PrivacyRules) -> PhraseFinder:
    """One phrase finder per process and rules."""
    if not _FINDER or _FINDER[0][0] is not risk:
        assert risk.phrases is not None, "a phrase pass needs its rules"
        _FINDER[:] = [(risk, PhraseFinder(risk.phrases, privacy))]
    return _FINDER[0][1]


_TEXT_OK: dict[tuple[Path, int], OkSets] = {}
_TEXT_GONE: dict[Path, pl.Series] = {}
_TEXT_KEYS_PER_BUCKET = 4_000_000
"""Rows of (person, key) a level's merge counts at once: bounds the driver's memory (hash ranges)."""


@dataclass(frozen=True)
class _TextTask:
    batch: int
    level: int
    withheld: dict[str, list[int]]
    """Per table, the rows of this batch's part that the risk plan withholds."""


def _released_batch(
    folder: Path, work: Path, task: _TextTask, tables: Sequence[str]
) -> dict[str, pl.DataFrame]:
    """This batch's released parts of `tables`, and per table the mask of the rows the release keeps."""
    gone_file = folder / "suppressed.parquet"
    if gone_file not in _TEXT_GONE:
        _TEXT_GONE.clear()
        _TEXT_GONE[gone_file] = pl.read_parquet(gone_file).get_column("profile_id")
    gone = _TEXT_GONE[gone_file].implode()
    frames = {}
    for table in tables:
        part = _part(work / "release", table, task.batch)
        if part.exists():
            frame = pl.read_parquet(part)
            rows = pl.Series(task.withheld.get(table, []), dtype=pl.UInt32).implode()
            kept = frame.with_row_index("_row").select(
                ~pl.col("profile_id").is_in(gone) & ~pl.col("_row").is_in(rows)
            )
            frames[table] = frame.with_columns(kept.to_series().alias("_released"))
    return frames


def _text_ok(folder: Path, levels: int) -> OkSets:
    """The ok runs of levels 1..`levels` (what the driver merged), once per process and level."""
    if (folder, levels) not in _TEXT_OK:
        _TEXT_OK.clear()
        runs = {
            n: pl.read_parquet(folder / f"ok-{n}.parquet").get_column("key") for n in range(1, levels + 1)
        }
        cells = pl.read_parquet(folder / "cells.parquet").get_column("key")
        terms = pl.read_parquet(folder / "alone.parquet").get_column("key")
        _TEXT_OK[(folder, levels)] = OkSets(runs, cells, terms)
    return _TEXT_OK[(folder, levels)]


def _text_keys_task(task: _TextTask) -> int:
    """One level's (person, key) pairs of one batch's released text; the words are read once (level 1)."""
    state = _state()
    text = _text_rules(state)
    folder = state.staging / "text"
    cells_file = _part(folder, "words", task.batch)
    if task.level == 1:
        columns = text.columns("k_anonymous")
        tables = _released_batch(folder, state.staging, task, sorted({c.partition(".")[0] for c in columns}))
        released = {table: frame.filter("_released").drop("_released") for table, frame in tables.items()}
        cells = cells_of(released, columns)
        _write_part(cells.frame.select("cell", "person", "words"), cells_file)
        ok = None
    else:
        cells = Cells(pl.read_parquet(cells_file))
        ok = _text_ok(folder, task.level - 1)
    _write_part(level_keys(cells, task.level, ok), _part(folder, f"level-{task.level}", task.batch))
    return task.batch


def _text_cut_task(task: _TextTask) -> tuple[dict[str, ColumnFigures], list[str]]:
    """Cut (and withhold) one batch's released text in place; the figures and fingerprints of its
    released rows."""
    state = _state()
    text = _text_rules(state)
    folder = state.staging / "text"
    columns = text.columns("k_anonymous")
    tables = _released_batch(folder, state.staging, task, sorted({c.partition(".")[0] for c in text.modes}))
    masks = {table: frame.get_column("_released") for table, frame in tables.items()}
    frames = {table: frame.drop("_released") for table, frame in tables.items()}
    cut = cut_tables(frames, text, columns, _text_ok(folder, text.max_run), masks)
    for table, frame in withhold(cut.tables, text.withheld()).items():
        part = _part(state.staging / "release", table, task.batch)
        _write_part(frame, part.with_suffix(".cut"))
        part.with_suffix(".cut").replace(part)
    return cut.figures, list(cut.fingerprints.values())


def _text_rules(state: _WorkerState) -> TextRules:
    risk = state.rules.risk
    assert risk is not None, "only the whole job runs the text pass"
    assert risk.text is not None, "only the whole job runs the text pass"
    return risk.text


# --- the driver side ---------------------------------------------------------------------------------

_T = TypeVar("_T")
_R = TypeVar("_R")


class _Workers:
    """The kernels run here with one worker, else in a pool of spawned processes (never forked: Polars'
    thread pool does not survive a fork). Results come back in task order, with a bounded number of tasks
    in flight, so the tasks' iterator is consumed only as fast as the workers go."""

    def __init__(self, count: int, state: _WorkerState) -> None:
        self.count = count
        self.state = state
        self.pool: Any = None

    def __enter__(self) -> _Workers:
        if self.count == 1:
            _init_state_here(self.state)
        else:
            with _quiet_stderr():  # the driver owns the terminal: workers report through their results
                self.pool = multiprocessing.get_context("spawn").Pool(
                    self.count, initializer=_init_worker, initargs=(self.state,)
                )
        return self

    def map(self, work: Callable[[_T], _R], tasks: Iterable[_T]) -> Iterator[_R]:
        if self.pool is None:
            yield from map(work, tasks)
            return
        pending: list[Any] = []
        for task in tasks:
            pending.append(self.pool.apply_async(_then_give_back, (work, task)))
            if len(pending) >= 2 * self.count:
                yield _result(pending.pop(0))
        while pending:
            yield _result(pending.pop(0))

    def __exit__(self, *exc: object) -> None:
        global _STATE
        if self.pool is not None:
            if exc[0] is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()
        _STATE = None
        _NAMES.clear()
        _FINDER.clear()
        _REWRITER.clear()
        _TEXT_OK.clear()
        _TEXT_GONE.clear()
        _VOCABULARY.clear()


def _then_give_back(work: Callable[[_T], _R], task: _T) -> _R:
    """`work(task)` in a worker, then the C heap's free pages handed back: a worker's batches free what
    they used, and the pages would otherwise stay with the worker for the rest of the job."""
    try:
        return work(task)
    finally:
        give_back()


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Standard error is /dev/null for the processes started inside (they inherit file descriptor 2)."""
    saved, quiet = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(quiet, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)


def _init_state_here(state: _WorkerState) -> None:
    global _STATE
    _STATE = state


def _result(pending: Any) -> Any:
    try:
        return pending.get()
    except JobFault:
        raise
    except OSError as exc:
        raise JobFault(f"a worker could not write its part ({exc.strerror or exc})") from None
    except Exception as exc:
        raise JobFault(f"a worker failed: {exc.__class__.__name__}: {exc}") from exc


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


def _batches(items: Iterable[_T], size: int) -> Iterator[list[_T]]:
    batch: list[_T] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _parsed_folder_batches(folder: Path, size: int) -> Iterator[ProfileSet]:
    """A folder written by `toolkit parse`, cut into batches of whole profiles (rejects in the first)."""
    files = {table: folder / f"{table}.parquet" for table in TABLE_SCHEMAS}
    ids = pl.read_parquet(files["profiles"], columns=["profile_id"]).get_column("profile_id")
    starts = range(0, max(ids.len(), 1), size)
    for start in starts:
        chosen = ids.slice(start, size).implode()
        frames = {}
        for table, path in files.items():
            if not path.exists():
                continue
            scan = pl.scan_parquet(path)
            if table == "rejects":
                frames[table] = scan.collect() if start == 0 else scan.head(0).collect()
            else:
                frames[table] = scan.filter(pl.col("profile_id").is_in(chosen)).collect()
        yield as_profile_set(frames)


def _inputs(
    inputs: Sequence[str], parsing: ParsingRules, settings: JobSettings
) -> tuple[Iterator[Any], int, int]:
    """The batches of phase 1, the number of items, and how many workers to run."""
    parsed = [given for given in inputs if is_parsed_folder(Path(given))]
    if parsed:
        if len(inputs) > 1:
            raise UsageError("give either one parsed folder or raw inputs, not both")
        folder = Path(parsed[0])
        try:
            count = pl.scan_parquet(folder / "profiles.parquet").select(pl.len()).collect().item()
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise UsageError(f"{folder}: not a readable parsed folder ({exc.__class__.__name__})") from None
        workers = _workers_for(count, settings)
        size = _batch_size(count, workers, settings)
        return _parsed_folder_batches(folder, size), count, workers
    is_record = record_folders(parsing)
    count = sum(1 for _ in iter_inputs(inputs, is_record))
    workers = _workers_for(count, settings)
    return _batches(iter_inputs(inputs, is_record), _batch_size(count, workers, settings)), count, workers


def _workers_for(count: int, settings: JobSettings) -> int:
    return max(1, min(settings.workers(), count // max(settings.min_per_worker, 1)))


def _batch_size(count: int, workers: int, settings: JobSettings) -> int:
    """The batch size asked for, or less, so that every worker has a batch."""
    return max(1, min(settings.batch_size, math.ceil(count / workers)))


def _names_pass(parsed: Path) -> None:
    """Every whole name of the dataset (profiles' names, supervisors, the other people structured formats
    name) as digests, for verification,
    sorted and distinct. Read part by part, so only the digests (eight bytes a name) are ever held for the
    whole dataset."""
    parts: list[pl.Series] = []
    firsts: set[str] = set()
    for table, column in (("profiles", "name"), ("profiles", "other_people"), ("experience", "supervisor")):
        for part in sorted((parsed / table).glob("part-*.parquet")):
            names = pl.read_parquet(part, columns=[column]).get_column(column)
            names = (names.explode() if names.dtype == pl.List(pl.String) else names).drop_nulls().unique()
            index = NameIndex.of(names)
            parts.append(pl.Series("digest", index.digests, dtype=pl.UInt64))
            firsts |= index.firsts
    digests = pl.concat(parts) if parts else pl.Series("digest", [], dtype=pl.UInt64)
    frame = digests.unique().sort().to_frame()
    _write_part(frame, parsed.parent / "names.parquet")
    _write_part(
        pl.DataFrame({"first": sorted(firsts)}, schema={"first": pl.String}),
        parsed.parent / "first_words.parquet",
    )


def _repeated_pass(parsed: Path, quality: QualityRules, batches: int) -> list[dict[str, pl.Series]]:
    """For each batch, the rows of each `unique` rule's table whose key an earlier batch already holds."""
    repeated: list[dict[str, pl.Series]] = [{} for _ in range(batches)]
    rules = [rule for rule in quality.rules if rule.check == "unique"]
    if not rules or batches < 2:
        return repeated
    across = _ids_in_several_batches(parsed)
    for rule in rules:
        scan = _scan_parts(parsed, rule.table)
        if scan is None:
            continue
        keyed = scan.select(
            pl.col("_batch"), pl.col("_row"), pl.struct(list(rule.columns)).hash().alias("_key"),
            *([pl.col("profile_id")] if "profile_id" in rule.columns else []),
        )  # fmt: skip
        if "profile_id" in rule.columns:  # a key with the profile can only repeat with the profile
            keyed = keyed.filter(pl.col("profile_id").is_in(across.implode()))
        found = (
            keyed.filter(pl.col("_batch") > pl.col("_batch").min().over("_key"))
            .select("_batch", "_row")
            .collect()
        )
        for (batch,), rows in found.group_by("_batch", maintain_order=True):
            repeated[int(batch)][rule.id] = rows.get_column("_row").cast(pl.UInt32)
    return repeated


def _scan_parts(parsed: Path, table: str) -> pl.LazyFrame | None:
    parts = sorted((parsed / table).glob("part-*.parquet"))
    if not parts:
        return None
    return pl.concat(
        [
            pl.scan_parquet(part).with_columns(
                pl.lit(int(part.stem.removeprefix("part-")), dtype=pl.Int64).alias("_batch"),
                pl.int_range(pl.len(), dtype=pl.UInt32).alias("_row"),
            )
            for part in parts
        ]
    )


def _ids_in_several_batches(folder: Path, table: str = "profiles") -> pl.Series:
    """The profile ids with rows in more than one batch's part of `table` (the same profile given twice)."""
    parts = sorted((folder / table).glob("part-*.parquet"))
    if not parts:
        return pl.Series("profile_id", [], dtype=pl.String)
    return (
        pl.scan_parquet(parts, include_file_paths="_part")
        .select("profile_id", "_part")
        .unique()
        .group_by("profile_id")
        .len()
        .filter(pl.col("len") > 1)
        .select("profile_id")
        .collect(engine="streaming")
        .get_column("profile_id")
    )


def _scan_table(folder: Path, table: str, schema: dict[str, pl.DataType]) -> pl.LazyFrame:
    """The parts of `table`, in batch order, as one lazy frame (empty with `schema` when there are none)."""
    parts = sorted((folder / table).glob("part-*.parquet")) if (folder / table).is_dir() else []
    return pl.scan_parquet(parts) if parts else pl.LazyFrame(schema=schema)


def _concat_parts(
    folder: Path,
    table: str,
    schema: dict[str, pl.DataType],
    target: Path,
    transform: Callable[[str, pl.LazyFrame], pl.LazyFrame] | None = None,
) -> int:
    """Stream the parts of `table` into one file, in batch order, through `transform`; the row count."""
    target.parent.mkdir(parents=True, exist_ok=True)
    rows = _scan_table(folder, table, schema)
    if transform is not None:
        rows = transform(table, rows)
    rows.sink_parquet(target)
    return int(pl.scan_parquet(target).select(pl.len()).collect().item())


def _collect_risk_suppressed(released: dict[str, pl.LazyFrame], plan: RiskPlan, private_stage: Path) -> None:
    """The released rows of the persons the risk pass suppressed, into `<private>/risk_suppressed/`."""
    if not plan.suppressed:
        return
    gone = pl.Series("profile_id", sorted(plan.suppressed), dtype=pl.String).implode()
    for table, rows in released.items():
        rows.filter(pl.col("profile_id").is_in(gone)).sink_parquet(
            private_stage / "risk_suppressed" / f"{table}.parquet", mkdir=True
        )


def run_job(
    inputs: Sequence[str],
    out_dir: Path,
    private_dir: Path,
    rules: JobRules,
    keys: Keyring,
    settings: JobSettings,
    report: Callable[[JobOutcome, Path, Path], None],
) -> JobOutcome:
    """The whole job; `report(outcome, release_stage, private_stage)` writes the report files into the
    staging folders before they are published. Raises `UsageError` before any work, `JobFault` when the
    job cannot finish (nothing is published then)."""
    _check_folders(inputs, out_dir, private_dir)
    with _staged((out_dir, OutputKind.RELEASE), (private_dir, OutputKind.PRIVATE)) as stages:
        release_stage, private_stage = stages
        outcome = _run_phases(inputs, release_stage, private_stage, rules, keys, settings)
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
    with _staged((out_dir, OutputKind.PARSED)) as (stage,):
        work = stage / ".work"
        batches, count, workers = _inputs(inputs, parsing, settings)
        state = _WorkerState(JobRules(parsing), Keyring(b"\0" * 32, "unused"), work)
        with _Workers(workers, state) as pool, Progress(count, "parse", enabled=settings.progress) as tick:
            for done in pool.map(_parse_task, enumerate(batches)):
                tick(done.rows["profiles"] + done.rows["rejects"])
        for table, schema in TABLE_SCHEMAS.items():
            _concat_parts(work / "parsed", table, dict(schema), stage / f"{table}.parquet")
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


def _check_folders(inputs: Sequence[str], out_dir: Path, private_dir: Path) -> None:
    release, private = out_dir.resolve(), private_dir.resolve()
    if private == release or release in private.parents or private in release.parents:
        raise UsageError(f"the private folder {private_dir} must be outside the release folder {out_dir}")
    check_outputs(inputs, {OutputKind.RELEASE: out_dir, OutputKind.PRIVATE: private_dir})


def _run_phases(
    inputs: Sequence[str],
    release_stage: Path,
    private_stage: Path,
    rules: JobRules,
    keys: Keyring,
    settings: JobSettings,
) -> JobOutcome:
    quality, privacy = rules.quality, rules.privacy
    assert quality is not None, "the whole job needs every rules file"
    assert privacy is not None, "the whole job needs every rules file"
    work = private_stage / "work"
    parsed = work / "parsed"
    batches, count, workers = _inputs(inputs, rules.parsing, settings)
    state = _WorkerState(rules, keys, work)
    rows_before: list[dict[str, int]] = []
    with _Workers(workers, state) as pool:
        with Progress(count, "parse", enabled=settings.progress) as tick:
            for done in pool.map(_parse_task, enumerate(batches)):
                rows_before.append(done.rows)
                tick(done.rows["profiles"] + done.rows["rejects"])
        _names_pass(parsed)
        repeated = _repeated_pass(parsed, quality, len(rows_before))
        stats = BatchStats()
        offsets: Counter[str] = Counter()
        with Progress(sum(r["profiles"] for r in rows_before), "scrub", enabled=settings.progress) as tick:
            tasks = list(enumerate(repeated))
            for batch, batch_stats in pool.map(_process_task, tasks):
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
    rejects = _collect_private(work, private_stage)
    released_rows: dict[str, int] = {}
    schemas = released_schema(privacy) | {TERMS_TABLE: dict(TERMS)}
    plan = None
    view_columns = [c for view in rules.risk.views.values() for c in view.columns] if rules.risk else []
    cells_before = cells_released = 0
    contents: dict[str, ColumnContents] = {}
    if written and rules.risk is not None and rules.risk.enabled:
        released = {t: _scan_table(work / "release", t, schemas[t]) for t in _OUTPUT_TABLES}
        cells_before = values_in(released, view_columns)
        phrases = _scan_table(work, "phrases", dict(PHRASE_SCHEMA))
        # Each part of phrases is distinct within itself: so are all of them, if no person is in two.
        distinct = _ids_in_several_batches(work, "phrases").is_empty()
        plan = plan_risk(released, rules.risk, phrases, _finder(rules.risk, privacy), distinct)
        written = plan.written
        _collect_risk_suppressed(released, plan, private_stage)
        give_back()  # the plan's search let go of its frames and arrays; the phases after it need little
    text_rules = rules.risk.text if rules.risk is not None else None
    text_report_ = None
    if written and ((plan is not None and plan.rewriter is not None) or (text_rules and text_rules.enabled)):
        # A fresh pool: the workers of phase 2 hold spaCy, and the plan's memory should not come on
        # top of theirs; finding phrases and runs needs no model.
        persons = plan.persons if plan is not None else stats.verification.persons_checked
        rewriting = max(1, min(workers, persons // REWRITE_PER_WORKER))
        with _Workers(rewriting, state) as rewriters:
            if plan is not None and plan.rewriter is not None:
                _rewrite_in_workers(rewriters, plan, work, len(rows_before), settings)
            if text_rules is not None and text_rules.enabled:
                assert rules.risk is not None
                text_report_ = _text_pass(
                    rewriters, plan, work, len(rows_before), rules.risk, text_rules, privacy, settings
                )
    if written:
        for table in _OUTPUT_TABLES:
            target = release_stage / f"{table}.parquet"
            transform = (lambda name, rows: plan.apply(name, rows, rewrite=False)) if plan else None
            released_rows[table] = _concat_parts(work / "release", table, schemas[table], target, transform)
        published = {table: pl.scan_parquet(release_stage / f"{table}.parquet") for table in _OUTPUT_TABLES}
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
        quasi_identifier_cells=(cells_before, cells_released),
    )


def _text_pass(
    pool: _Workers,
    plan: RiskPlan | None,
    work: Path,
    batches: int,
    risk: RiskRules,
    rules: TextRules,
    privacy: PrivacyRules,
    settings: JobSettings,
) -> dict[str, Any]:
    """k-anonymous text (`toolkit.risk.runs`) over the staged release: each level's keys counted in the
    workers, merged here (in hash ranges, so memory stays bounded), then the text cut in the workers."""
    folder = work / "text"
    folder.mkdir(parents=True, exist_ok=True)
    k = risk.k
    function_words = risk.phrases.function_words if risk.phrases is not None else ()
    gone = sorted(plan.suppressed) if plan is not None else []
    _write_part(
        pl.DataFrame({"profile_id": gone}, schema={"profile_id": pl.String}), folder / "suppressed.parquet"
    )
    withheld = _withheld_per_batch(work, plan, batches)
    allowed, terms = allowed_sets(privacy, rules.max_run, function_words)
    _write_part(terms.to_frame("key"), folder / "alone.parquet")
    distinct = _ids_in_several_batches(work / "release").is_empty()
    with Progress(batches * (rules.max_run + 1), "text", enabled=settings.progress) as tick:
        for level in range(1, rules.max_run + 1):
            tasks = [_TextTask(batch, level, withheld[batch]) for batch in range(batches)]
            for _ in pool.map(_text_keys_task, tasks):
                tick(1)
            parts = sorted((folder / f"level-{level}").glob("part-*.parquet"))
            keys = (
                pl.scan_parquet(parts)
                if parts
                else pl.LazyFrame(schema={"person": pl.String, "key": pl.UInt64})
            )
            rows = int(keys.select(pl.len()).collect().item())
            shared = shared_keys(keys, k, distinct, buckets=1 + rows // _TEXT_KEYS_PER_BUCKET)
            if level == 1:
                _write_part(shared.to_frame("key"), folder / "cells.parquet")
            _write_part(ok_runs(shared, allowed.get(level)).to_frame("key"), folder / f"ok-{level}.parquet")
            shutil.rmtree(folder / f"level-{level}", ignore_errors=True)
        figures: dict[str, ColumnFigures] = {}
        fingerprints: list[str] = []
        for batch_figures, batch_fingerprints in pool.map(
            _text_cut_task, [_TextTask(batch, 0, withheld[batch]) for batch in range(batches)]
        ):
            for column, found in batch_figures.items():
                figures.setdefault(column, ColumnFigures()).merge(found)
            fingerprints += batch_fingerprints
            tick(1)
    persons = (plan.persons - len(plan.suppressed)) if plan is not None else _persons_released(work)
    return text_report(rules, k, figures, fingerprints, persons)


def _withheld_per_batch(work: Path, plan: RiskPlan | None, batches: int) -> list[dict[str, list[int]]]:
    """Per batch and table, the rows of the batch's part that the plan withholds (it numbers the rows of
    all parts in batch order)."""
    found: list[dict[str, list[int]]] = [{} for _ in range(batches)]
    if plan is None:
        return found
    for table, rows in plan.withheld.items():
        if not rows.len():
            continue
        heights = [
            int(pl.scan_parquet(part).select(pl.len()).collect().item()) if part.exists() else 0
            for part in (_part(work / "release", table, batch) for batch in range(batches))
        ]
        offset = 0
        wanted = rows.sort()
        for batch, height in enumerate(heights):
            mine = wanted.filter((wanted >= offset) & (wanted < offset + height)) - offset
            if mine.len():
                found[batch][table] = mine.cast(pl.Int64).to_list()
            offset += height
    return found


def _persons_released(work: Path) -> int:
    parts = sorted((work / "release" / "profiles").glob("part-*.parquet"))
    if not parts:
        return 0
    return int(pl.scan_parquet(parts).select(pl.col("profile_id").n_unique()).collect().item())


def _collect_private(work: Path, private_stage: Path) -> pl.DataFrame:
    """Quarantined and suppressed rows, and the rejects, into the private folder; the rejects."""
    for kind in ("quarantine", "suppressed"):
        for table in RELEASED_TABLES:
            parts = sorted((work / kind / table).glob("part-*.parquet"))
            if parts:
                pl.scan_parquet(parts).sink_parquet(private_stage / kind / f"{table}.parquet", mkdir=True)
    rejects_parts = sorted((work / "parsed" / "rejects").glob("part-*.parquet"))
    rejects = (
        pl.concat([pl.read_parquet(part) for part in rejects_parts])
        if rejects_parts
        else pl.DataFrame(schema=dict(TABLE_SCHEMAS["rejects"]))
    )
    rejects.write_parquet(private_stage / "rejects.parquet")
    return rejects

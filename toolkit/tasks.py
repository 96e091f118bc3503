"""The tasks an executor runs: each is a kernel over one batch, reading its parts from the staging store
and writing its results there, with what the dataset-wide passes handed down (files under the work folder).

    parse_task      records -> parse_batch -> parsed parts
    process_task    parsed parts -> process_batch -> release, quarantine and suppressed parts, the
                    release's term rows and the persons' candidate phrases
    rewrite_task    a released part's rare phrases rewritten (the risk plan's rewriter)
    text_keys_task  one level's (person, key) pairs of a batch's released text
    text_cut_task   a batch's released text cut to the runs k persons share
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from toolkit.executor import WorkerContext
from toolkit.io import InputFile, ReadFailure, read_input
from toolkit.kernels import BatchContext, BatchStats, SourceRecord, as_profile_set, parse_batch, process_batch
from toolkit.model import TABLE_SCHEMAS, TERMS, TERMS_TABLE, ProfileSet
from toolkit.risk.phrases import PhraseFinder, PhraseRewriter, phrase_keys
from toolkit.risk.runs import (
    Cells,
    ColumnFigures,
    OkSets,
    TermVocabulary,
    cells_of,
    cut_tables,
    level_keys,
    term_rows,
    term_vocabulary,
    withhold,
)
from toolkit.rules import PrivacyRules, RiskRules, TextRules
from toolkit.staging import part, write_part
from toolkit.verify import NameIndex

NAMES_FILE = "names.parquet"
FIRST_WORDS_FILE = "first_words.parquet"
SHARED_PHRASES_FILE = "shared_phrases.parquet"
FORCED_PHRASES_FILE = "forced_phrases.parquet"
TEXT_FOLDER = "text"


@dataclass(frozen=True)
class Parsed:
    batch: int
    rows: dict[str, int]


def parse_task(
    context: WorkerContext, task: tuple[int, list[InputFile | ReadFailure] | ProfileSet]
) -> Parsed:
    batch, items = task
    if isinstance(items, ProfileSet):
        tables = items
    else:
        records = [
            SourceRecord(item.source, item)
            if isinstance(item, ReadFailure)
            else SourceRecord(item.source, read_input(item, context.rules.parsing.max_input_bytes))
            for item in items
        ]
        tables = parse_batch(records, context.rules.parsing)
    for table, frame in tables.tables():
        write_part(frame, part(context.staging / "parsed", table, batch))
    return Parsed(batch, {table: frame.height for table, frame in tables.tables()})


def process_task(context: WorkerContext, task: tuple[int, dict[str, pl.Series]]) -> tuple[int, BatchStats]:
    batch, repeated = task
    staging = context.staging
    parsed = as_profile_set(
        {table: pl.read_parquet(part(staging / "parsed", table, batch)) for table in TABLE_SCHEMAS}
    )
    names = context.cached("names", staging / NAMES_FILE, lambda: _names_index(staging))
    quality, privacy = context.rules.quality, context.rules.privacy
    assert quality is not None, "a parse-only job processes no batch"
    assert privacy is not None, "a parse-only job processes no batch"
    result = process_batch(
        parsed, quality, privacy, context.keys, BatchContext(names=names, repeated=repeated)
    )
    for kind, frames in (("release", result.release), ("quarantine", result.quarantine),
                         ("suppressed", result.suppressed)):  # fmt: skip
        for table, frame in frames.items():
            write_part(frame, part(staging / kind, table, batch))
    risk = context.rules.risk
    text = risk.text if risk is not None else None
    terms = pl.DataFrame(schema=TERMS)
    if risk is not None and text is not None and text.enabled and text.terms_from:
        terms = term_rows(result.release, text.terms_from, vocabulary(context, risk, privacy))
    write_part(terms, part(staging / "release", TERMS_TABLE, batch))
    if risk is not None and risk.enabled and risk.phrases is not None:
        found = phrase_keys(result.release, risk.phrases, finder(context, risk, privacy))
        write_part(found, part(staging, "phrases", batch))
    return batch, result.stats


def _names_index(staging: Path) -> NameIndex:
    digests: array[int] = array("Q")
    for chunk in pl.read_parquet(staging / NAMES_FILE).iter_slices(1 << 16):
        digests.extend(chunk.get_column("digest").to_list())  # sorted and distinct: see passes.names_pass
    firsts = pl.read_parquet(staging / FIRST_WORDS_FILE).get_column("first").to_list()
    return NameIndex(digests, frozenset(firsts))


def vocabulary(context: WorkerContext, risk: RiskRules, privacy: PrivacyRules) -> TermVocabulary:
    """One term vocabulary per worker."""
    assert risk.text is not None, "terms are the text pass's"
    text = risk.text
    function_words = risk.phrases.function_words if risk.phrases is not None else ()
    return context.cached("vocabulary", None, lambda: term_vocabulary(privacy, text.max_run, function_words))


def finder(context: WorkerContext, risk: RiskRules, privacy: PrivacyRules) -> PhraseFinder:
    """One phrase finder per worker."""
    phrases = risk.phrases
    assert phrases is not None, "a phrase pass needs its rules"
    return context.cached("finder", None, lambda: PhraseFinder(phrases, privacy))


def rewrite_task(context: WorkerContext, task: tuple[int, dict[str, list[str]]]) -> int:
    """Rewrite the rare phrases of one batch's released parts in place (through a temporary file)."""
    batch, columns = task
    risk, privacy = context.rules.risk, context.rules.privacy
    assert risk is not None, "only the whole job rewrites phrases"
    assert privacy is not None, "only the whole job rewrites phrases"
    shared_file = context.staging / SHARED_PHRASES_FILE

    def rewriter() -> PhraseRewriter:
        shared = pl.read_parquet(shared_file).get_column("phrase").to_list()
        forced = dict(pl.read_parquet(context.staging / FORCED_PHRASES_FILE).iter_rows())
        return PhraseRewriter(finder(context, risk, privacy), shared, forced)

    rewrites = context.cached("rewriter", shared_file, rewriter)
    for table, names in columns.items():
        path = part(context.staging / "release", table, batch)
        if not path.exists():
            continue
        frame = pl.read_parquet(path)
        rewritten = frame.with_columns(rewrites.expr(name, frame.schema[name]) for name in names)
        write_part(rewritten, path.with_suffix(".rewritten"))
        path.with_suffix(".rewritten").replace(path)
    return batch


@dataclass(frozen=True)
class TextTask:
    batch: int
    level: int
    withheld: dict[str, list[int]]
    """Per table, the rows of this batch's part that the risk plan withholds."""


def _released_batch(context: WorkerContext, task: TextTask, tables: Sequence[str]) -> dict[str, pl.DataFrame]:
    """This batch's released parts of `tables`, and per table the mask of the rows the release keeps."""
    gone_file = context.staging / TEXT_FOLDER / "suppressed.parquet"
    gone = context.cached(
        "suppressed", gone_file, lambda: pl.read_parquet(gone_file).get_column("profile_id")
    ).implode()
    frames = {}
    for table in tables:
        path = part(context.staging / "release", table, task.batch)
        if path.exists():
            frame = pl.read_parquet(path)
            rows = pl.Series(task.withheld.get(table, []), dtype=pl.UInt32).implode()
            kept = frame.with_row_index("_row").select(
                ~pl.col("profile_id").is_in(gone) & ~pl.col("_row").is_in(rows)
            )
            frames[table] = frame.with_columns(kept.to_series().alias("_released"))
    return frames


def _text_ok(context: WorkerContext, levels: int) -> OkSets:
    """The ok runs of levels 1..`levels` (what the driver merged), once per worker and level."""
    folder = context.staging / TEXT_FOLDER

    def read() -> OkSets:
        runs = {
            n: pl.read_parquet(folder / f"ok-{n}.parquet").get_column("key") for n in range(1, levels + 1)
        }
        cells = pl.read_parquet(folder / "cells.parquet").get_column("key")
        terms = pl.read_parquet(folder / "alone.parquet").get_column("key")
        return OkSets(runs, cells, terms)

    return context.cached("text ok", (folder, levels), read)


def text_keys_task(context: WorkerContext, task: TextTask) -> int:
    """One level's (person, key) pairs of one batch's released text; the words are read once (level 1)."""
    text = _text_rules(context)
    folder = context.staging / TEXT_FOLDER
    cells_file = part(folder, "words", task.batch)
    if task.level == 1:
        columns = text.columns("k_anonymous")
        tables = _released_batch(context, task, sorted({c.partition(".")[0] for c in columns}))
        released = {table: frame.filter("_released").drop("_released") for table, frame in tables.items()}
        cells = cells_of(released, columns)
        write_part(cells.frame.select("cell", "person", "words"), cells_file)
        ok = None
    else:
        cells = Cells(pl.read_parquet(cells_file))
        ok = _text_ok(context, task.level - 1)
    write_part(level_keys(cells, task.level, ok), part(folder, f"level-{task.level}", task.batch))
    return task.batch


def text_cut_task(context: WorkerContext, task: TextTask) -> tuple[dict[str, ColumnFigures], list[str]]:
    """Cut (and withhold) one batch's released text in place; the figures and fingerprints of its
    released rows."""
    text = _text_rules(context)
    columns = text.columns("k_anonymous")
    tables = _released_batch(context, task, sorted({c.partition(".")[0] for c in text.modes}))
    masks = {table: frame.get_column("_released") for table, frame in tables.items()}
    frames = {table: frame.drop("_released") for table, frame in tables.items()}
    cut = cut_tables(frames, text, columns, _text_ok(context, text.max_run), masks)
    for table, frame in withhold(cut.tables, text.withheld()).items():
        path = part(context.staging / "release", table, task.batch)
        write_part(frame, path.with_suffix(".cut"))
        path.with_suffix(".cut").replace(path)
    return cut.figures, list(cut.fingerprints.values())


def _text_rules(context: WorkerContext) -> TextRules:
    risk = context.rules.risk
    assert risk is not None, "only the whole job runs the text pass"
    assert risk.text is not None, "only the whole job runs the text pass"
    return risk.text

"""The dataset-wide passes: each is a function over the staged parts (lazy Polars scans, streamed) that
returns what the next phase needs, or writes it under the work folder for the workers to read.

    names_pass       parsed parts -> the whole names of everyone (digests), for verification
    repeated_pass    parsed parts -> per batch, the rows whose `unique` key an earlier batch holds
    risk_pass        release parts + phrases -> the re-identification risk plan (`toolkit.risk`)
    rewrite_pass     the plan's phrase rewrite, batch by batch (executor)
    text_pass        k-anonymous text (`toolkit.risk.runs`): keys counted by the executor, merged here
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from toolkit.executor import Executor
from toolkit.job_config import JobRules
from toolkit.kernels import released_schema
from toolkit.memory import give_back
from toolkit.model import TERMS, TERMS_TABLE
from toolkit.progress import Progress
from toolkit.risk import RiskPlan, plan_risk
from toolkit.risk.phrases import PHRASE_SCHEMA, PhraseFinder
from toolkit.risk.runs import ColumnFigures, allowed_sets, ok_runs, shared_keys, text_report
from toolkit.rules import PrivacyRules, QualityRules, RiskRules, TextRules
from toolkit.scrub import RELEASED_TABLES
from toolkit.staging import (
    ids_in_several_batches,
    part_heights,
    parts,
    persons_in,
    scan_numbered,
    scan_table,
    write_part,
)
from toolkit.tasks import (
    FIRST_WORDS_FILE,
    FORCED_PHRASES_FILE,
    NAMES_FILE,
    SHARED_PHRASES_FILE,
    TEXT_FOLDER,
    TextTask,
    rewrite_task,
    text_cut_task,
    text_keys_task,
)
from toolkit.verify import NameIndex

OUTPUT_TABLES = (*RELEASED_TABLES, TERMS_TABLE)
"""The tables of a release: the contract's, and the terms the text pass lists."""
_TEXT_KEYS_PER_BUCKET = 4_000_000
"""Rows of (person, key) a level's merge counts at once: bounds the driver's memory (hash ranges)."""


def names_pass(work: Path) -> None:
    """Every whole name of the dataset (profiles' names, supervisors, the other people structured formats
    name) as digests, for verification, sorted and distinct. Read part by part, so only the digests (eight
    bytes a name) are ever held for the whole dataset."""
    parsed = work / "parsed"
    digests_found: list[pl.Series] = []
    firsts: set[str] = set()
    for table, column in (("profiles", "name"), ("profiles", "other_people"), ("experience", "supervisor")):
        for path in parts(parsed, table):
            names = pl.read_parquet(path, columns=[column]).get_column(column)
            names = (names.explode() if names.dtype == pl.List(pl.String) else names).drop_nulls().unique()
            index = NameIndex.of(names)
            digests_found.append(pl.Series("digest", index.digests, dtype=pl.UInt64))
            firsts |= index.firsts
    digests = pl.concat(digests_found) if digests_found else pl.Series("digest", [], dtype=pl.UInt64)
    write_part(digests.unique().sort().to_frame(), work / NAMES_FILE)
    write_part(pl.DataFrame({"first": sorted(firsts)}, schema={"first": pl.String}), work / FIRST_WORDS_FILE)


def repeated_pass(work: Path, quality: QualityRules, batches: int) -> list[dict[str, pl.Series]]:
    """For each batch, the rows of each `unique` rule's table whose key an earlier batch already holds."""
    parsed = work / "parsed"
    repeated: list[dict[str, pl.Series]] = [{} for _ in range(batches)]
    rules = [rule for rule in quality.rules if rule.check == "unique"]
    if not rules or batches < 2:
        return repeated
    across = ids_in_several_batches(parsed)
    for rule in rules:
        scan = scan_numbered(parsed, rule.table)
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


def released_tables(work: Path, schemas: Mapping[str, dict[str, pl.DataType]]) -> dict[str, pl.LazyFrame]:
    """The staged release, one lazy scan per table of a release."""
    return {table: scan_table(work / "release", table, schemas[table]) for table in OUTPUT_TABLES}


def risk_pass(
    work: Path, released: dict[str, pl.LazyFrame], rules: RiskRules, finder: PhraseFinder, private_stage: Path
) -> RiskPlan:
    """The re-identification risk plan of the staged release; the released rows of the persons it
    suppresses go to `<private>/risk_suppressed/`."""
    phrases = scan_table(work, "phrases", dict(PHRASE_SCHEMA))
    # Each part of phrases is distinct within itself: so are all of them, if no person is in two.
    distinct = ids_in_several_batches(work, "phrases").is_empty()
    plan = plan_risk(released, rules, phrases, finder, distinct)
    if plan.suppressed:
        gone = pl.Series("profile_id", sorted(plan.suppressed), dtype=pl.String).implode()
        for table, rows in released.items():
            rows.filter(pl.col("profile_id").is_in(gone)).sink_parquet(
                private_stage / "risk_suppressed" / f"{table}.parquet", mkdir=True
            )
    give_back()  # the plan's search let go of its frames and arrays; the phases after it need little
    return plan


def rewrite_pass(executor: Executor, plan: RiskPlan, work: Path, batches: int, progress: bool) -> None:
    """The plan's phrase rewrite, batch by batch in the workers: what text keeps is decided once (the
    phrases shared by k persons, the coarsened values), the finding runs where the text is."""
    assert plan.rewriter is not None
    shared = pl.DataFrame({"phrase": sorted(plan.rewriter.shared)}, schema={"phrase": pl.UInt64})
    forced = pl.DataFrame(
        {"phrase": list(plan.rewriter.forced), "kind": list(plan.rewriter.forced.values())},
        schema={"phrase": pl.UInt64, "kind": pl.String},
    )
    write_part(shared, work / SHARED_PHRASES_FILE)
    write_part(forced, work / FORCED_PHRASES_FILE)
    columns = {table: plan.rewritten_columns(table) for table in RELEASED_TABLES}
    columns = {table: names for table, names in columns.items() if names}
    with Progress(batches, "phrases", enabled=progress) as tick:
        for _ in executor.map(rewrite_task, [(batch, columns) for batch in range(batches)]):
            tick(1)


def text_pass(
    executor: Executor,
    plan: RiskPlan | None,
    work: Path,
    batches: int,
    rules: JobRules,
    progress: bool,
) -> dict[str, Any]:
    """k-anonymous text (`toolkit.risk.runs`) over the staged release: each level's keys counted in the
    workers, merged here (in hash ranges, so memory stays bounded), then the text cut in the workers."""
    risk, privacy = rules.risk, rules.privacy
    assert risk is not None, "the text pass needs its rules"
    assert risk.text is not None, "the text pass needs its rules"
    assert privacy is not None, "the text pass needs the privacy rules"
    text: TextRules = risk.text
    folder = work / TEXT_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    k = risk.k
    function_words = risk.phrases.function_words if risk.phrases is not None else ()
    gone = sorted(plan.suppressed) if plan is not None else []
    write_part(
        pl.DataFrame({"profile_id": gone}, schema={"profile_id": pl.String}), folder / "suppressed.parquet"
    )
    withheld = withheld_per_batch(work, plan, batches)
    allowed, terms = allowed_sets(privacy, text.max_run, function_words)
    write_part(terms.to_frame("key"), folder / "alone.parquet")
    distinct = ids_in_several_batches(work / "release").is_empty()
    with Progress(batches * (text.max_run + 1), "text", enabled=progress) as tick:
        for level in range(1, text.max_run + 1):
            tasks = [TextTask(batch, level, withheld[batch]) for batch in range(batches)]
            for _ in executor.map(text_keys_task, tasks):
                tick(1)
            found = parts(folder, f"level-{level}")
            keys = (
                pl.scan_parquet(found)
                if found
                else pl.LazyFrame(schema={"person": pl.String, "key": pl.UInt64})
            )
            rows = int(keys.select(pl.len()).collect().item())
            shared = shared_keys(keys, k, distinct, buckets=1 + rows // _TEXT_KEYS_PER_BUCKET)
            if level == 1:
                write_part(shared.to_frame("key"), folder / "cells.parquet")
            write_part(ok_runs(shared, allowed.get(level)).to_frame("key"), folder / f"ok-{level}.parquet")
            shutil.rmtree(folder / f"level-{level}", ignore_errors=True)
        figures: dict[str, ColumnFigures] = {}
        fingerprints: list[str] = []
        cuts = [TextTask(batch, 0, withheld[batch]) for batch in range(batches)]
        for batch_figures, batch_fingerprints in executor.map(text_cut_task, cuts):
            for column, found_figures in batch_figures.items():
                figures.setdefault(column, ColumnFigures()).merge(found_figures)
            fingerprints += batch_fingerprints
            tick(1)
    persons = (plan.persons - len(plan.suppressed)) if plan is not None else persons_in(work / "release")
    return text_report(text, k, figures, fingerprints, persons)


def withheld_per_batch(work: Path, plan: RiskPlan | None, batches: int) -> list[dict[str, list[int]]]:
    """Per batch and table, the rows of the batch's part that the plan withholds (it numbers the rows of
    all parts in batch order)."""
    found: list[dict[str, list[int]]] = [{} for _ in range(batches)]
    if plan is None:
        return found
    for table, rows in plan.withheld.items():
        if not rows.len():
            continue
        offset = 0
        wanted = rows.sort()
        for batch, height in enumerate(part_heights(work / "release", table, batches)):
            mine = wanted.filter((wanted >= offset) & (wanted < offset + height)) - offset
            if mine.len():
                found[batch][table] = mine.cast(pl.Int64).to_list()
            offset += height
    return found


def release_schemas(privacy: PrivacyRules) -> dict[str, dict[str, pl.DataType]]:
    """The schema of each table of a release (the terms table included)."""
    return released_schema(privacy) | {TERMS_TABLE: dict(TERMS)}

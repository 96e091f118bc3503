"""The re-identification risk pass: coarsen quasi-identifiers until every attacker view of
`rules/risk.yaml` meets its k, then withhold what is still below it.

It runs over the whole release (after scrubbing and verification, before publishing) and sees only
released values: pseudonyms, generalized and scrubbed columns. Persons are whole records: a class counts
persons, never rows.

Global recoding: one level per column, the same for every row. Each view's levels are chosen by branch
and bound over the lattice of its columns' levels: the node of least loss (the mean information its
columns lose, each weighted by its `worth`, plus the share of persons it leaves below target) among those
whose persons below target fit the suppression budget and, for items, set and sequence views, whose rows
withheld stay within `max_withheld_items`. Views are solved in turn; a column two views read keeps the
coarser level. Then what is still below target is withheld: rare items, the fewest items of rare sets and
rare sequences lose their rows (the person stays), and persons still below target in a record or set view
are suppressed, until every view meets its target. A release whose suppressions exceed the budget is not
written.

Local recoding (`recoding: local`, the default) then refines record, set and sequence views where global
recoding was too coarse: each class is split into groups of at least k persons released at finer levels
(`toolkit.risk.local`), and each row of an items view takes the finest levels at which its items and
pairs of items are still shared by k persons (`toolkit.risk.local_items`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from toolkit.risk.ladders import LOCAL, PERSON, ROW, Ladders, person_frames, split_column
from toolkit.risk.phrases import PhraseFinder, PhraseRewriter, Restater, restated_keys, value_keys
from toolkit.risk.recode import choose_recoding, column_loss, steps_of
from toolkit.risk.search import Search
from toolkit.risk.views import Exposure, Population
from toolkit.rules import RiskRules, View


@dataclass(frozen=True)
class ViewRisk:
    view: View
    target: int
    before: Exposure
    after: Exposure
    rows_withheld: int = 0
    whole_list: Exposure | None = None
    """An items view: its risk after the pass for an attacker who sees the person's whole list at once
    (as a set view would count it), which the items view does not guard: the residual risk it leaves."""


@dataclass(frozen=True)
class ColumnLevel:
    column: str
    level: int
    step: str
    distinct_before: int
    distinct_after: int
    information_loss: float
    """0 released as it is, 1 withheld, else (1 - `presence`) * (1 - log(distinct values at the level) /
    log(distinct released)); recoded locally, the mean over persons released of their level's loss."""
    persons_per_step: dict[str, int] = field(default_factory=dict)
    """Recoded locally: how many persons released are at each step (`level` is then the global level,
    the coarsest any person has)."""
    rows_per_step: dict[str, int] = field(default_factory=dict)
    """Recoded row by row (an items view's column): how many rows released are at each step."""


@dataclass(frozen=True)
class RiskPlan:
    """What the risk pass decided: one level per quasi-identifier, the persons to suppress (released
    `profile_id`s), the rows to withhold per table (numbers in the order of the staged parts), and the
    figures of the report."""

    persons: int
    budget: int
    suppressed: frozenset[str]
    withheld: dict[str, pl.Series]
    views: dict[str, ViewRisk]
    columns: list[ColumnLevel]
    loss: float = 0.0
    """The recoding's loss, the search's measure (`toolkit.risk.recode.loss`), by which it was chosen."""
    ladders: Ladders | None = field(default=None, repr=False, compare=False)
    rewriter: PhraseRewriter | None = field(default=None, repr=False, compare=False)
    restaters: dict[str, Restater] = field(default_factory=dict, repr=False, compare=False)
    """Per column that names others (`phrases.restated`) and is coarsened yet keeps some values as they
    are: what cuts those columns' coarsened values out of its values."""
    phrases: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per token type, the distinct phrases of free text kept and replaced."""
    phrase_columns: tuple[str, ...] = ()
    levels: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    """The level applied to each ladder column (`LOCAL`: person by person)."""

    @property
    def written(self) -> bool:
        return len(self.suppressed) <= self.budget

    def rewritten_columns(self, table: str) -> list[str]:
        """The free-text columns of `table` whose rare phrases the plan rewrites (not those coarsened)."""
        if self.rewriter is None:
            return []
        levels = self.levels
        return [
            split_column(column)[1]
            for column in self.phrase_columns
            if split_column(column)[0] == table and not levels.get(column)
        ]

    def apply(self, table: str, rows: pl.LazyFrame, rewrite: bool = True) -> pl.LazyFrame:
        """`table`'s released rows (all parts, in order) with the plan applied; `rewrite=False` when the
        free text was already rewritten, part by part (`rewritten_columns`, by the job's workers). The
        columns with a restater are restated here in either case (`restaters`)."""
        if self.ladders is None:
            return rows
        gone = pl.Series("profile_id", sorted(self.suppressed), dtype=pl.String)
        kept = rows.with_row_index(ROW).filter(~pl.col("profile_id").is_in(gone.implode()))
        withheld = self.withheld.get(table)
        if withheld is not None and withheld.len():
            kept = kept.filter(~pl.col(ROW).is_in(withheld.implode()))
        ladders = self.ladders
        person = pl.col("profile_id").replace_strict(
            ladders.ids, pl.Series(range(ladders.ids.len()), dtype=pl.UInt32), default=None
        )
        coarsened = [
            ladders.expr(column, level, person)
            for column, level in self.levels.items()
            if level and split_column(column)[0] == table
        ]
        kept = kept.with_columns(coarsened).drop(ROW) if coarsened else kept.drop(ROW)
        restated = [
            (split_column(column)[1], restater)
            for column, restater in self.restaters.items()
            if split_column(column)[0] == table
        ]
        if restated:
            schema = kept.collect_schema()
            kept = kept.with_columns(restater.expr(name, schema[name]) for name, restater in restated)
        if rewrite and self.rewriter is not None:
            schema = kept.collect_schema()
            texts = [self.rewriter.expr(name, schema[name]) for name in self.rewritten_columns(table)]
            if texts:
                kept = kept.with_columns(texts)
        return kept

    def to_json(self) -> dict[str, Any]:
        return {
            "persons": self.persons,
            "suppressed": len(self.suppressed),
            "budget": self.budget,
            "target_met": self.written,
            "loss": round(self.loss, 4),
            "views": {
                name: {
                    "k": risk.target,
                    "kind": risk.view.kind,
                    "m": risk.view.m,
                    "columns": list(risk.view.columns),
                    "before": vars(risk.before),
                    "after": vars(risk.after),
                    "rows_withheld": risk.rows_withheld,
                }
                | ({"whole_list": vars(risk.whole_list)} if risk.whole_list is not None else {})
                for name, risk in self.views.items()
            },
            "phrases": self.phrases,
            "phrase_columns": [
                column
                for column in self.phrase_columns
                if self.rewriter is not None and not self.levels.get(column)
            ],
            "restated_columns": sorted(self.restaters),
            "columns": {
                level.column: {
                    "level": level.level,
                    "step": level.step,
                    "distinct_before": level.distinct_before,
                    "distinct_after": level.distinct_after,
                    "information_loss": level.information_loss,
                }
                | ({"persons_per_step": level.persons_per_step} if level.persons_per_step else {})
                | ({"rows_per_step": level.rows_per_step} if level.rows_per_step else {})
                for level in self.columns
            },
        }


def plan_risk(
    tables: Mapping[str, pl.LazyFrame],
    rules: RiskRules,
    phrases: pl.LazyFrame | None = None,
    finder: PhraseFinder | None = None,
    phrases_distinct: bool = False,
) -> RiskPlan:
    """Choose the levels, the withheld rows and the suppressed persons for the released `tables` (lazy:
    only `profile_id`, the quasi-identifiers and order columns are read), and, given the persons'
    candidate `phrases` (`phrase_keys` of every batch) and the `finder` that found them, how their free
    text is rewritten. With `phrases_distinct`, the caller vouches that no row of `phrases` repeats
    (every person's phrases come from one batch): a phrase's persons are then counted as its rows,
    without a set of persons per phrase (a third of the memory at 200,000 profiles)."""
    ids = (
        tables["profiles"].select("profile_id").drop_nulls().unique().sort("profile_id").collect()
    ).with_row_index(PERSON)
    ladders = Ladders(rules, person_frames(tables, rules, ids), ids.get_column("profile_id"))
    search = Search(rules, ladders, ids.height)
    everyone = Population(search.everyone, {})
    before = {name: search.exposure(name, search.start, everyone) for name in rules.views}
    chosen = choose_recoding(search)
    levels, final, applied = chosen.levels, chosen.population, chosen.applied
    views = {
        name: ViewRisk(
            view,
            rules.target(view),
            before[name],
            search.exposure(name, applied, final),
            final.withheld[view.table].len() if view.kind != "record" else 0,
            search.exposure(name, applied, final, as_set=True) if view.kind == "items" else None,
        )
        for name, view in rules.views.items()
    }
    columns = [
        _column_level(search, column, levels[column], applied[column], final) for column in rules.ladders
    ]
    gone = search.everyone.filter(~search.everyone.is_in(final.alive.implode()))
    pseudonyms = ids.filter(pl.col(PERSON).is_in(gone.implode())).get_column("profile_id")
    rewriter: PhraseRewriter | None = None
    restaters: dict[str, Restater] = {}
    phrase_counts: dict[str, dict[str, int]] = {}
    if phrases is not None and finder is not None and rules.phrases is not None:
        kept = ids.filter(~pl.col(PERSON).is_in(gone.implode())).get_column("profile_id")
        rewriter, restaters, phrase_counts = _rewriter(
            phrases, kept, rules, ladders, applied, finder, phrases_distinct
        )
    ladders.settle(applied)
    return RiskPlan(
        persons=ids.height,
        budget=search.budget,
        suppressed=frozenset(pseudonyms.to_list()),
        withheld=dict(final.withheld),
        views=views,
        columns=columns,
        loss=chosen.loss,
        ladders=ladders,
        rewriter=rewriter,
        restaters=restaters,
        phrases=phrase_counts,
        phrase_columns=tuple(rules.phrases.columns) if rewriter and rules.phrases else (),
        levels=applied,
    )


def _column_level(search: Search, column: str, level: int, applied: int, final: Population) -> ColumnLevel:
    """The report's account of `column`: the level `applied`, or where that is `LOCAL`, the global `level`
    and the persons with a value there (`persons_shown`) by step (recoded row by row: the rows)."""
    ladders = search.ladders
    everyone = Population(search.everyone, {})
    distinct = (_distinct(ladders, column, 0, everyone), _distinct(ladders, column, applied, final))
    if applied != LOCAL:
        return ColumnLevel(
            column, applied, ladders.label(column, applied), *distinct, round(search.loss(column, applied), 4)
        )
    per_step = {ladders.label(column, step): count for step, count in steps_of(search, column, final)}
    by_rows = column in ladders.local_rows
    return ColumnLevel(
        column,
        level,
        ladders.label(column, LOCAL),
        *distinct,
        round(column_loss(search, column, LOCAL, final), 4),
        persons_per_step={} if by_rows else per_step,
        rows_per_step=per_step if by_rows else {},
    )


def _rewriter(
    phrases: pl.LazyFrame,
    kept: pl.Series,
    rules: RiskRules,
    ladders: Ladders,
    levels: Mapping[str, int],
    finder: PhraseFinder,
    distinct: bool,
) -> tuple[PhraseRewriter, dict[str, Restater], dict[str, dict[str, int]]]:
    """The rewriter of free text, the restaters of the columns that name others (`restated`),
    and per token type the distinct phrases kept (shared by k persons, and of a type not always replaced)
    and replaced. Phrases are counted over the persons released."""
    persons = pl.len() if distinct else pl.col("profile_id").n_unique()
    counted = (
        phrases.filter(pl.col("profile_id").is_in(kept.implode()))
        .group_by("phrase", "kind")
        .agg(persons.cast(pl.UInt32).alias("persons"))
        .collect(engine="streaming")
    )
    shared = counted.filter(pl.col("persons") >= rules.k)
    # A name or place token is replaced however many persons share it (`unkeyed`): never "kept".
    kept_as_is = (pl.col("persons") >= rules.k) & ~pl.col("kind").is_in(sorted(finder.unkeyed))
    figures = (
        counted.group_by("kind")
        .agg(kept_as_is.sum().alias("kept"), (~kept_as_is).sum().alias("replaced"))
        .sort("kind")
    )
    coarsened = _coarsened_values(ladders, levels)
    by_name: dict[str, set[str]] = {}
    for column, values in coarsened.items():
        by_name.setdefault(split_column(column)[1], set()).update(values)
    rewriter = PhraseRewriter(finder, shared.get_column("phrase").to_list(), value_keys(finder, by_name))
    assert rules.phrases is not None  # the caller checked
    restaters = {
        column: Restater(restated_keys(finder, {split_column(o)[1]: coarsened.get(o, set()) for o in named}))
        for column, named in rules.phrases.restated.items()
        if _keeps_some_values(ladders, column, levels.get(column, 0))
    }
    return (
        rewriter,
        restaters,
        {kind: {"kept": kept_n, "replaced": gone_n} for kind, kept_n, gone_n in figures.iter_rows()},
    )


def _keeps_some_values(ladders: Ladders, column: str, level: int) -> bool:
    """Whether `column` at `level` is coarsened yet shows some values as they are: recoded person by
    person, or at a `frequent` step (at level 0 the rewriter of free text reads it whole)."""
    if level == LOCAL:
        return True
    return 0 < level < ladders.top(column) and ladders.rules.ladders[column][level - 1].frequent


def _coarsened_values(ladders: Ladders, levels: Mapping[str, int]) -> dict[str, set[str]]:
    """Per text column coarsened (for some rows at least), its released values that some row no longer
    shows."""
    coarsened: dict[str, set[str]] = {}
    for column, level in levels.items():
        if level and ladders.dtypes[column] == pl.String:
            frame = ladders.frames[split_column(column)[0]]
            name = split_column(column)[1]
            changed = frame.select(pl.col(name), ladders.expr(column, level).alias("_new")).filter(
                pl.col(name).is_not_null() & pl.col(name).ne_missing(pl.col("_new"))
            )
            coarsened[column] = set(changed.get_column(name).unique().to_list())
    return coarsened


def _distinct(ladders: Ladders, column: str, level: int, population: Population) -> int:
    table = split_column(column)[0]
    return ladders.codes(column, level).filter(population.rows(ladders, table)).drop_nulls().n_unique()


__all__: Sequence[str] = ("ColumnLevel", "RiskPlan", "ViewRisk", "plan_risk")

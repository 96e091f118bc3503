"""Local recoding of items views, row by row: once an items view's rare items are withheld at its global
levels, each of its rows takes the finest level of each column at which every item, and (m = 2) every pair
of items of its person, is still shared by k persons (k^m-anonymity).

Global recoding gives every row the level that the rarest rows need. On the held-out population of 20,000
persons of seed 12 (a development set), the search releases every skill as its topic, so that scores can
stay; row by row, a skill keeps its name wherever it and each of its pairs are common enough.

A column is refined one step at a time, the columns that are worth most first (`worth`). Every row one step
finer is proposed, then rows are given back until the view meets its target again: in each round, each
person gives back one row that is rare (of its rare rows, the one whose item the fewest persons share), and
after `_ONE_AT_A_TIME` rounds all of them at once; a row left at the coarser step that became rare without
any finer row of its person (others left its value: the rest of a split must be shared too, as in
Mondrian) gives back every row proposed from its value. Rows only go back, so the loop ends, at the worst
where it began, which met the target. A row whose value one step finer would keep a keyed token of the
scrubber is never proposed (the token is a join key). Only columns that no other view reads are refined,
in views whose table no other view reads (`RiskRules.items_apart`), so no other view's classes change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl
from numpy.typing import NDArray

from toolkit.memory import give_back
from toolkit.risk.ladders import KEYED_TOKEN, LOCAL, PERSON, ROW, Ladders, split_column
from toolkit.risk.views import Population, dense_codes, item_codes, supports
from toolkit.rules import RiskRules, View

_ONE_AT_A_TIME = 25
"""Rounds in which each person gives back one rare row, before every rare row goes back at once."""


def refine_items(
    rules: RiskRules, ladders: Ladders, levels: Mapping[str, int], population: Population
) -> dict[str, int]:
    """Refine the items views' columns row by row (`Ladders.localize_rows`) and return the level each
    refined column then has: `LOCAL`, or one level where every released row with a value ended there."""
    applied: dict[str, int] = {}
    for name in rules.items_apart():
        view = rules.views[name]
        columns = [c for c in view.columns if rules.read_by_one_view(c) and levels[c] > 0]
        if not columns:
            continue
        refined = _ItemRefiner(rules, ladders, view, levels, population).run(columns)
        for column, row_levels in refined.items():
            shown = row_levels.filter(_shown(ladders, population, column))
            steps = shown.unique()
            if steps.len() == 1:
                applied[column] = int(steps[0])
            elif steps.len() > 1:
                ladders.localize_rows(column, row_levels)
                applied[column] = LOCAL
        give_back()
    return applied


def row_steps(ladders: Ladders, population: Population, column: str) -> list[tuple[int, int]]:
    """Of a column recoded row by row: (level, released rows with a value at it), finest first."""
    levels = ladders.local_rows[column].filter(_shown(ladders, population, column))
    counts = levels.value_counts().sort(levels.name)
    return [(int(step), int(rows)) for step, rows in counts.iter_rows()]


def _shown(ladders: Ladders, population: Population, column: str) -> pl.Series:
    """A mask over row numbers: released rows with a value of `column`."""
    table, name = split_column(column)
    frame = ladders.frames[table]
    shown = population.rows(ladders, table) & frame.get_column(name).is_not_null()
    mask = np.zeros(_row_count(ladders, table), dtype=np.bool_)
    mask[frame.get_column(ROW).filter(shown).to_numpy()] = True
    return pl.Series(mask)


def _row_count(ladders: Ladders, table: str) -> int:
    rows = ladders.frames[table].get_column(ROW).to_numpy()
    return int(rows.max()) + 1 if rows.size else 0


class _ItemRefiner:
    """The rows of one items view's table, their levels, and the rounds that refine them."""

    def __init__(
        self,
        rules: RiskRules,
        ladders: Ladders,
        view: View,
        levels: Mapping[str, int],
        population: Population,
    ) -> None:
        self.ladders = ladders
        self.view = view
        self.k = rules.target(view)
        self.rules = rules
        frame = ladders.frames[view.table]
        released = population.rows(ladders, view.table).to_numpy()
        self.released = np.flatnonzero(released)
        """Positions in the frame of the rows released."""
        self.row = frame.get_column(ROW).to_numpy()
        self.person = frame.get_column(PERSON).to_numpy()[self.released]
        self.at = {
            column: np.full(self.released.size, levels[column], dtype=np.int8) for column in view.columns
        }
        self.rows = _row_count(ladders, view.table)
        self.global_levels = levels

    def run(self, columns: Sequence[str]) -> dict[str, pl.Series]:
        """Per column of `columns`: every row's level, indexed by row number (a row not released: its
        global level)."""
        for column in sorted(columns, key=lambda c: -self.rules.weight(c)):
            for level in range(self.global_levels[column] - 1, -1, -1):
                proposed = (self.at[column] == level + 1) & ~self._keeps_token(column, level)
                self._settle(column, level, proposed)
        found: dict[str, pl.Series] = {}
        for column in columns:
            per_row = np.full(self.rows, self.global_levels[column], dtype=np.uint8)
            per_row[self.row[self.released]] = self.at[column]
            found[column] = pl.Series(split_column(column)[1], per_row, dtype=pl.UInt8)
        return found

    def _settle(self, column: str, level: int, proposed: NDArray[np.bool_]) -> None:
        """Move the rows of `proposed` one step finer (to `level`), less those given back."""
        coarse, _ = self._items(self.at)
        rounds = 0
        while proposed.any():
            trial = {**self.at, column: np.where(proposed, level, self.at[column]).astype(np.int8)}
            item, width = self._items(trial)
            single, size = supports(self.person, item, width, self.view.m, self.k)
            rare = size < self.k
            if not rare.any():
                self.at = trial
                return
            given = proposed & rare
            if given.any() and rounds < _ONE_AT_A_TIME:
                given = _rarest_of_each_person(self.person, single, given)
            rounds += 1
            alone = rare & ~proposed & ~np.isin(self.person, self.person[proposed & rare])
            if alone.any():
                given |= proposed & np.isin(coarse, coarse[alone])
            if not given.any():  # never expected: the rows as they were met the target
                given = proposed
            proposed = proposed & ~given

    def _items(self, at: Mapping[str, NDArray[np.int8]]) -> tuple[NDArray[np.int32], int]:
        """Per released row, a dense code of its item with each column at the row's level (a value at one
        level and the same text at another count apart: coarser, never finer, than the release shows)."""
        columns = []
        for column in self.view.columns:
            code = np.zeros(self.released.size, dtype=np.int64)
            span = self.ladders.top(column) + 1
            for level in np.unique(at[column]).tolist():
                here = at[column] == level
                values = self.ladders.codes(column, level).fill_null(0).to_numpy()[self.released]
                code[here] = values[here].astype(np.int64) * span + level
            columns.append(pl.Series(dense_codes(code)[0] + 1))  # dense from 1, as `item_codes` takes them
        return item_codes(columns)

    def _keeps_token(self, column: str, level: int) -> NDArray[np.bool_]:
        """Per released row: whether its value at `level` keeps a keyed token."""
        value = self.ladders.expr(column, level).cast(pl.String).str.contains(KEYED_TOKEN).fill_null(False)
        held = self.ladders.frames[self.view.table].select(value).to_series().to_numpy()
        return np.asarray(held[self.released], dtype=np.bool_)


def _rarest_of_each_person(
    person: NDArray[np.uint32], single: NDArray[np.int32], rare: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """Of the rows of `rare`, one per person: the one whose item the fewest persons share."""
    index = np.flatnonzero(rare)
    order = index[np.lexsort((single[index], person[index]))]
    first = order[np.r_[True, person[order][1:] != person[order][:-1]]]
    chosen = np.zeros(rare.size, dtype=np.bool_)
    chosen[first] = True
    return chosen


__all__: Sequence[str] = ("refine_items", "row_steps")

"""The search of the risk pass: the least-loss levels of each view's columns by branch and bound over
its lattice, then the rows and persons withheld until every view meets its target.

The views share one suppression budget: a view is solved with what the views before it left, and a person
that an earlier view already leaves below target costs a later view nothing. So the order matters where
more than one view would suppress persons; `coarsen` tries each order of those views (up to
`ORDERED_VIEWS` of them) and keeps the one of least total loss."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

import numpy as np
import polars as pl
from numpy.typing import NDArray

from toolkit.memory import give_back
from toolkit.risk.ladders import PERSON, Ladders, split_column
from toolkit.risk.views import (
    SIZE,
    Exposure,
    Population,
    class_sizes,
    item_sizes,
    same_keys,
    table_keys,
    thinned_sets,
    withheld_items,
    withheld_sequences,
    withheld_sets,
)
from toolkit.rules import RiskRules, View

_NO_ROW = np.iinfo(np.uint32).max
"""A person's code for a column of a table in which they have no row (codes are dense ranks from 1)."""

ORDERED_VIEWS = 4
"""Views that suppress persons (record and set views) whose orders are all tried: 24 orders at most; with
more such views they are solved in the order of the rules."""


_NOBODY = np.zeros(0, dtype=np.uint32)


@dataclass(frozen=True)
class _Assessed:
    count: int
    """Persons below target."""
    below: NDArray[np.uint32]
    """Those persons (numbers), where they fit the budget; else none."""
    share: float
    """Rows withheld."""


@dataclass(frozen=True)
class _Solved:
    levels: dict[str, int]
    loss: float
    """The view's generalization loss, plus the share of rows it withholds and of persons it newly leaves
    below target."""
    below: NDArray[np.uint32]
    """The persons the view leaves below target at those levels (numbers)."""


class Search:
    """The state of one search: the ladders fitted to the release, and what each node of a view's
    lattice leaves below target (cached: nodes recur as views are solved)."""

    def __init__(self, rules: RiskRules, ladders: Ladders, persons: int) -> None:
        self.rules = rules
        self.ladders = ladders
        self.everyone = pl.Series(PERSON, range(persons), dtype=pl.UInt32)
        self.budget = math.floor(rules.max_suppressed * persons)
        self.start = dict.fromkeys(rules.ladders, 0)
        self.whole = Population(self.everyone, {})
        self._cache: dict[tuple[str, tuple[int, ...]], _Assessed] = {}
        self._lattices: dict[
            tuple[str, tuple[tuple[int, int], ...]], list[tuple[float, tuple[int, ...]]]
        ] = {}
        self._beyond: dict[tuple[str, tuple[int, ...]], float] = {}
        """The largest room in which a set view's node would withhold more rows than that."""
        self._keys: dict[tuple[str, str, tuple[int, ...]], pl.Series] = {}
        self._losses: dict[tuple[str, int], float] = {}
        self._codes: dict[tuple[str, int], pl.Series] = {}

    def exposure(
        self, name: str, levels: Mapping[str, int], population: Population, as_set: bool = False
    ) -> Exposure:
        """View `name`'s risk; `as_set`: counted as a set view of the same columns (an items view's list
        seen whole)."""
        view = self.rules.views[name]
        counted = View(kind="set", columns=view.columns, k=view.k) if as_set else view
        return Exposure.of(class_sizes(counted, self.ladders, levels, population), self.rules.target(view))

    def _assess(self, name: str, levels: Mapping[str, int], room: float = 1.0) -> _Assessed | None:
        """Everyone alive: the persons below target and the share of rows withheld (in rare items or rare
        sequences, or those a set view withholds) of view `name`; None where a set view would surely
        withhold a larger share than `room` (not worth thinning its sets to the end)."""
        view = self.rules.views[name]
        key = (name, tuple(levels[column] for column in view.columns))
        if key not in self._cache and view.kind == "set":
            if room <= self._beyond.get(key, -1.0):
                return None
            height = max(self.ladders.frames[view.table].height, 1)
            at_most = math.floor(room * height)
            thinned = thinned_sets(view, self.ladders, levels, self.whole, self.rules.target(view), at_most)
            if thinned is None:
                self._beyond[key] = room
                return None
            self._cache[key] = self._assessed(thinned[1], thinned[0].len() / height)
        if key not in self._cache:
            k = self.rules.target(view)
            if view.kind == "items":
                sizes = item_sizes(view, self.ladders, levels, self.whole, k).size
                self._cache[key] = self._assessed(_NOBODY, np.count_nonzero(sizes < k) / max(sizes.size, 1))
            elif view.kind == "sequence":
                sequences = [self._table_keys(name, view.table, list(view.columns), levels)]
                persons = self.everyone.filter(same_keys(sequences) < k)
                rows = self.ladders.frames[view.table].get_column(PERSON)
                share = rows.filter(rows.is_in(persons.implode())).len() / max(rows.len(), 1)
                self._cache[key] = self._assessed(_NOBODY, share)
            else:
                keys: list[pl.Series] = []
                for table, columns in groupby(view.columns, key=lambda c: split_column(c)[0]):
                    if self.ladders.one_row_per_person(table):
                        keys += [self.person_codes(column, levels[column]) for column in columns]
                    else:
                        keys.append(self._table_keys(name, table, list(columns), levels))
                small = (same_keys(keys) < k).to_numpy()
                self._cache[key] = self._assessed(np.flatnonzero(small).astype(np.uint32), 0.0)
        return self._cache[key]

    def _assessed(self, below: NDArray[np.uint32], share: float) -> _Assessed:
        """A node's assessment; the persons below target are kept only where they fit the budget (the
        others are over it whatever the views before have spent)."""
        return _Assessed(below.size, below if below.size <= self.budget else _NOBODY, share)

    def coarsen(self, cap: int | None = None) -> dict[str, int]:
        """One level per column: each view's least-loss levels within what is left of the budget (or of
        `cap` persons, if less), views solved in turn (a column two views read takes the coarser of their
        levels: coarser never lowers a class), in the order of least total loss. Then the lattice's keys
        and the codes of the levels not chosen are let go of (`forget`)."""
        cap = self.budget if cap is None else min(cap, self.budget)
        best: tuple[float, dict[str, int]] | None = None
        for order in self._orders():
            levels, total = dict(self.start), 0.0
            spent = np.zeros(self.everyone.len(), dtype=np.bool_)
            for name in order:
                solved = self._solve(name, levels, spent, cap)
                levels.update(solved.levels)
                spent[solved.below] = True
                total += solved.loss
            if best is None or total < best[0]:
                best = (total, levels)
        assert best is not None, "at least one order"
        self.forget(best[1])
        return best[1]

    def forget(self, levels: Mapping[str, int]) -> None:
        """Let go of the lattice's keys and of the codes of levels other than `levels` (made again if
        asked for): the search has chosen."""
        self._keys.clear()
        self._lattices.clear()
        self.ladders.forget_codes(levels)
        give_back()

    def _orders(self) -> list[list[str]]:
        """The orders of views to try: each order of the views that suppress persons, then the others, in
        the order of the rules."""
        views = list(self.rules.views)
        suppressing = [name for name in views if self.rules.views[name].kind in ("record", "set")]
        others = [name for name in views if name not in suppressing]
        if len(suppressing) > ORDERED_VIEWS:
            return [views]
        return [[*order, *others] for order in itertools.permutations(suppressing)]

    def person_codes(self, column: str, level: int) -> pl.Series:
        """The codes of `column` (of a table with at most one row per person) at `level`, one per person
        in person order: withheld values are 0 and persons without a row `_NO_ROW`. A record view's key
        over such a table is these columns side by side, so a lattice node costs no join."""
        if (column, level) not in self._codes:
            table = split_column(column)[0]
            aligned = np.full(self.everyone.len(), _NO_ROW, dtype=np.uint32)
            persons = self.ladders.frames[table].get_column(PERSON).to_numpy()
            aligned[persons] = self.ladders.codes(column, level).fill_null(0).to_numpy()
            self._codes[(column, level)] = pl.Series(column, aligned, dtype=pl.UInt32)
        return self._codes[(column, level)]

    def _table_keys(self, name: str, table: str, columns: list[str], levels: Mapping[str, int]) -> pl.Series:
        key = (name, table, tuple(levels[column] for column in columns))
        if self.ladders.one_row_per_person(table):  # cheap to redo: not worth its memory
            return table_keys(self.rules.views[name], table, columns, self.ladders, levels, self.whole)
        if key not in self._keys:
            view = self.rules.views[name]
            self._keys[key] = table_keys(view, table, columns, self.ladders, levels, self.whole)
        return self._keys[key]

    def loss(self, column: str, level: int) -> float:
        """The information a level loses: 0 released, 1 withheld, else the share of a cell's information
        not in holding a value (1 - `presence`) times 1 - log(distinct) / log(distinct released); computed
        once per column and level (the lattice's sort and bound ask for it often)."""
        if (column, level) not in self._losses:
            self._losses[(column, level)] = self._loss(column, level)
        return self._losses[(column, level)]

    def _loss(self, column: str, level: int) -> float:
        if level == 0:
            return 0.0
        if level >= self.ladders.top(column):
            return 1.0
        released = self.ladders.codes(column, 0).n_unique()
        if released <= 1:
            return 0.0
        told_apart = math.log(max(self.ladders.codes(column, level).n_unique(), 1)) / math.log(released)
        return (1 - self.rules.presence) * (1 - told_apart)

    def _solve(self, name: str, floor: Mapping[str, int], spent: NDArray[np.bool_], cap: int) -> _Solved:
        """The view's levels of least loss (mean loss of its columns weighted by their worth, plus the share
        of rows it withholds and of persons it newly leaves below target) within what the views before it
        left of `cap` (`spent`: the persons they leave below target), by branch and bound over its
        lattice of levels: nodes in order of generalization loss, none that a node within budget and
        without suppression already covers."""
        view = self.rules.views[name]
        columns = view.columns
        limit = view.max_withheld if view.max_withheld is not None else self.rules.max_withheld_items
        ranges = [range(floor[column], self.ladders.top(column) + 1) for column in columns]
        persons = self.everyone.len()
        left = cap - int(np.count_nonzero(spent))
        if view.kind in ("record", "set") and persons < self.rules.target(view) and cap < persons:
            # Fewer persons than k: everyone is below target at every node (an emptied set too: the
            # persons without rows are fewer than k), over the budget.
            return self._coarsest(columns, ranges)
        best: tuple[float, tuple[int, ...], NDArray[np.uint32]] | None = None
        clean: list[tuple[int, ...]] = []
        for generalization, node in self._lattice(name, ranges):
            if best is not None and generalization >= best[0]:
                break
            if any(all(a >= b for a, b in zip(node, done, strict=True)) for done in clean):
                continue
            levels = {**floor, **dict(zip(columns, node, strict=True))}
            room = limit if best is None else min(limit, best[0] - generalization)
            assessed = self._assess(name, levels, room)
            if assessed is None or assessed.share > limit or assessed.count > cap:
                continue
            added = int(np.count_nonzero(~spent[assessed.below]))
            if added > left:
                continue
            total = generalization + added / max(persons, 1) + assessed.share
            if best is None or total < best[0]:
                best = (total, node, assessed.below)
            if not assessed.count and not assessed.share:
                clean.append(node)
        if best is None:
            return self._coarsest(columns, ranges)
        return _Solved(dict(zip(columns, best[1], strict=True)), best[0], best[2])

    def _lattice(self, name: str, ranges: Sequence[range]) -> list[tuple[float, tuple[int, ...]]]:
        """The nodes of view `name`'s lattice within `ranges`, with their generalization loss, least first
        (made once: every order of the views walks it again)."""
        key = (name, tuple((r.start, r.stop) for r in ranges))
        if key not in self._lattices:
            columns = self.rules.views[name].columns
            nodes = [(self._node_loss(columns, node), node) for node in itertools.product(*ranges)]
            self._lattices[key] = sorted(nodes)
        return self._lattices[key]

    def _coarsest(self, columns: Sequence[str], ranges: Sequence[range]) -> _Solved:
        """Where no node fits: the coarsest levels, with a loss that makes an order leaving this the worst."""
        top = tuple(r[-1] for r in ranges)
        return _Solved(dict(zip(columns, top, strict=True)), self._node_loss(columns, top) + 1.0, _NOBODY)

    def _node_loss(self, columns: Sequence[str], node: Sequence[int]) -> float:
        """The mean loss of the columns at `node`, each weighted by what it is worth (`worth`)."""
        weights = [self.rules.weight(column) for column in columns]
        losses = [self.loss(column, level) for column, level in zip(columns, node, strict=True)]
        return sum(weight * loss for weight, loss in zip(weights, losses, strict=True)) / sum(weights)

    def withhold(self, levels: Mapping[str, int], items: bool = True) -> Population:
        """Rare items withheld and persons below target suppressed, until every view meets its target
        (a person gone can leave another's item shared by too few) or the suppressions pass the budget.
        An items view whose table no other view reads never leaves anyone below target: its rows are
        withheld once, for the persons left (`withhold_items`), or not at all with `items=False`."""
        apart = self.rules.items_apart()
        population = Population(self.everyone, {})
        while True:
            withheld = dict(population.withheld)
            for name, view in self.rules.views.items():
                target = self.rules.target(view)
                if view.kind == "items" and name not in apart:
                    withheld[view.table] = withheld_items(view, self.ladders, levels, population, target)
                elif view.kind == "set":
                    withheld[view.table], _ = withheld_sets(
                        view, self.ladders, levels, Population(population.alive, withheld), target
                    )
                elif view.kind == "sequence":
                    withheld[view.table] = withheld_sequences(
                        view, self.ladders, levels, Population(population.alive, withheld), target
                    )
            population = Population(population.alive, withheld)
            below: set[int] = set()
            for view in self.rules.views.values():
                if view.kind != "items":
                    sizes = class_sizes(view, self.ladders, levels, population)
                    below |= set(sizes.filter(pl.col(SIZE) < self.rules.target(view)).get_column(PERSON))
            if not below:
                break
            alive = population.alive.filter(~population.alive.is_in(sorted(below)))
            population = Population(alive, population.withheld)
            if self.everyone.len() - alive.len() > self.budget:
                break
        return self.withhold_items(levels, population) if items else population

    def withhold_items(self, levels: Mapping[str, int], population: Population) -> Population:
        """The rare items of the items views whose table no other view reads, withheld for `population`
        (an item's persons only fall as persons are suppressed: what was rare stays rare)."""
        withheld = dict(population.withheld)
        for name in self.rules.items_apart():
            view = self.rules.views[name]
            withheld[view.table] = withheld_items(
                view, self.ladders, levels, population, self.rules.target(view)
            )
        return Population(population.alive, withheld)

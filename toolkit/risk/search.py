"""The search of the risk pass: the least-loss levels of each view's columns by branch and bound over
its lattice, then the rows and persons withheld until every view meets its target."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from itertools import groupby

import numpy as np
import polars as pl

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
        self._cache: dict[tuple[str, tuple[int, ...]], tuple[int, float]] = {}
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

    def _assess(self, name: str, levels: Mapping[str, int], room: float = 1.0) -> tuple[int, float] | None:
        """Everyone alive: (how many persons are below target, the share of rows withheld: in rare items or
        rare sequences, or those a set view withholds) of view `name`; None where a set view would surely
        withhold a larger share than `room` (not worth thinning its sets to the end)."""
        view = self.rules.views[name]
        key = (name, tuple(levels[column] for column in view.columns))
        if key not in self._cache and view.kind == "set":
            height = max(self.ladders.frames[view.table].height, 1)
            at_most = math.floor(room * height)
            thinned = thinned_sets(view, self.ladders, levels, self.whole, self.rules.target(view), at_most)
            if thinned is None:
                return None
            self._cache[key] = (thinned[1], thinned[0].len() / height)
        if key not in self._cache:
            k = self.rules.target(view)
            if view.kind == "items":
                sizes = item_sizes(view, self.ladders, levels, self.whole, k).size
                self._cache[key] = (0, np.count_nonzero(sizes < k) / max(sizes.size, 1))
            elif view.kind == "sequence":
                sequences = [self._table_keys(name, view.table, list(view.columns), levels)]
                persons = self.everyone.filter(same_keys(sequences) < k)
                rows = self.ladders.frames[view.table].get_column(PERSON)
                share = rows.filter(rows.is_in(persons.implode())).len() / max(rows.len(), 1)
                self._cache[key] = (0, share)
            else:
                keys: list[pl.Series] = []
                for table, columns in groupby(view.columns, key=lambda c: split_column(c)[0]):
                    if self.ladders.one_row_per_person(table):
                        keys += [self.person_codes(column, levels[column]) for column in columns]
                    else:
                        keys.append(self._table_keys(name, table, list(columns), levels))
                small = same_keys(keys) < k
                self._cache[key] = (int(small.sum()), 0.0)
        return self._cache[key]

    def coarsen(self) -> dict[str, int]:
        """One level per column: each view's least-loss levels within budget, views solved in turn (a
        column two views read takes the coarser of their levels: coarser never lowers a class)."""
        levels = dict(self.start)
        for name in self.rules.views:
            levels.update(self._solve(name, levels))
        self._keys.clear()  # the lattice's nodes are not visited again
        self.ladders.forget_codes(levels)
        give_back()
        return levels

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

    def _solve(self, name: str, floor: Mapping[str, int]) -> dict[str, int]:
        """The view's levels of least loss (mean loss of its columns weighted by their worth, plus the share
        of persons it would suppress) that fit the budget, by branch and bound over its lattice of levels:
        nodes in order of generalization loss, none that a node within budget and without suppression
        already covers."""
        view = self.rules.views[name]
        columns = view.columns
        limit = view.max_withheld if view.max_withheld is not None else self.rules.max_withheld_items
        ranges = [range(floor[column], self.ladders.top(column) + 1) for column in columns]
        persons = self.everyone.len()
        if view.kind == "record" and persons < self.rules.target(view) and self.budget < persons:
            # Fewer persons than k: everyone is below target at every node, over the budget.
            return {column: r[-1] for column, r in zip(columns, ranges, strict=True)}
        nodes = sorted(
            itertools.product(*ranges),
            key=lambda node: (self._node_loss(columns, node), node),
        )
        best: tuple[float, tuple[int, ...]] | None = None
        clean: list[tuple[int, ...]] = []
        for node in nodes:
            generalization = self._node_loss(columns, node)
            if best is not None and generalization >= best[0]:
                break
            if any(all(a >= b for a, b in zip(node, done, strict=True)) for done in clean):
                continue
            levels = {**floor, **dict(zip(columns, node, strict=True))}
            room = limit if best is None else min(limit, best[0] - generalization)
            assessed = self._assess(name, levels, room)
            if assessed is None:
                continue
            persons, share = assessed
            if persons > self.budget or share > limit:
                continue
            total = generalization + persons / max(self.everyone.len(), 1) + share
            if best is None or total < best[0]:
                best = (total, node)
            if not persons and not share:
                clean.append(node)
        chosen = best[1] if best is not None else tuple(r[-1] for r in ranges)
        return dict(zip(columns, chosen, strict=True))

    def _node_loss(self, columns: Sequence[str], node: Sequence[int]) -> float:
        """The mean loss of the columns at `node`, each weighted by what it is worth (`worth`)."""
        weights = [self.rules.weight(column) for column in columns]
        losses = [self.loss(column, level) for column, level in zip(columns, node, strict=True)]
        return sum(weight * loss for weight, loss in zip(weights, losses, strict=True)) / sum(weights)

    def withhold(self, levels: Mapping[str, int]) -> Population:
        """Rare items withheld and persons below target suppressed, until every view meets its target
        (a person gone can leave another's item shared by too few) or the suppressions pass the budget."""
        population = Population(self.everyone, {})
        while True:
            withheld = dict(population.withheld)
            for view in self.rules.views.values():
                target = self.rules.target(view)
                if view.kind == "items":
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
                return population
            alive = population.alive.filter(~population.alive.is_in(sorted(below)))
            population = Population(alive, population.withheld)
            if self.everyone.len() - alive.len() > self.budget:
                return population

"""Local recoding, Mondrian-like: after global recoding has put every person of a record, set or sequence
view in a class of at least k, each class is split top-down into groups of at least k persons that share a
finer level of one column, and every group is released at its own levels.

This is the relaxed partitioning of Mondrian (LeFevre, DeWitt and Ramakrishnan, 2006), walking the
ladders' steps instead of cutting numeric ranges. A split of a group on one column groups its persons by
the column's value one step finer (by the person's key of the column's table, for a table with several
rows per person): each value that at least k persons share becomes a group of its own, one step finer;
the other persons stay together at the coarser step, which that group no longer tries to refine, if they
are at least k (else the smallest of the new groups stay with them). Among the columns, the split taken
gains the most information (`Search.loss`, summed over the persons made finer). A person whose value one
step finer would keep a keyed token of the scrubber stays coarser (the token is a join key).

Only columns that no other view reads are recoded locally, so no other view's classes change. Every
released group is a set of at least k persons with equal released values in the view; persons of two
groups whose released values happen to be equal only make a larger class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from toolkit.risk.ladders import KEYED_TOKEN, LOCAL, PERSON, Ladders, split_column
from toolkit.risk.search import Search
from toolkit.risk.views import SIZE, Population, class_sizes, persons_shown, table_keys, view_keys
from toolkit.rules import View


@dataclass(frozen=True)
class _Group:
    persons: np.ndarray
    """Person numbers."""
    levels: tuple[int, ...]
    """One level per locally recoded column of the view."""
    settled: frozenset[int]
    """Columns (indices) the group no longer tries to refine: its persons did not share a finer value."""


def localize(search: Search, levels: Mapping[str, int], population: Population) -> dict[str, int]:
    """Recode the columns that gain from it person by person (`Ladders.localize`), and return the level
    each column then has: `LOCAL`, or one level finer than `levels` where every person with a value there
    (`persons_shown`) ended at that one level. A view whose local levels would leave anyone below
    target keeps its global levels (never expected: a guard, not a path)."""
    rules = search.rules
    applied: dict[str, int] = {}
    for view in rules.views.values():
        columns = [c for c in view.columns if rules.read_by_one_view(c) and levels[c] > 0]
        if view.kind == "items" or not columns:
            continue
        found = _Splitter(search, view, levels, population, columns).run()
        for column, level in found.items():
            if isinstance(level, pl.Series):
                search.ladders.localize(column, level)
        now = {column: LOCAL if isinstance(level, pl.Series) else level for column, level in found.items()}
        sizes = class_sizes(view, search.ladders, {**levels, **now}, population)
        if sizes.is_empty() or sizes.get_column(SIZE).min() >= rules.target(view):  # type: ignore[operator]
            applied.update(now)
        else:
            for column in now:
                search.ladders.local.pop(column, None)
    return applied


class _Splitter:
    """The top-down splits of one view's classes, over `columns` (the view's columns no other view reads)."""

    def __init__(
        self,
        search: Search,
        view: View,
        levels: Mapping[str, int],
        population: Population,
        columns: Sequence[str],
    ) -> None:
        self.search = search
        self.ladders: Ladders = search.ladders
        self.view = view
        self.levels = dict(levels)
        self.population = population
        self.columns = list(columns)
        self.k = search.rules.target(view)
        self.persons = search.everyone.len()
        self.alive = population.alive.to_numpy()
        self._keys: dict[tuple[str, tuple[int, ...]], np.ndarray] = {}
        self._tokened: dict[tuple[str, int], np.ndarray] = {}

    def run(self) -> dict[str, pl.Series | int]:
        chosen = np.tile(np.array([self.levels[c] for c in self.columns], dtype=np.uint8), (self.persons, 1))
        start = tuple(self.levels[column] for column in self.columns)
        pending = [_Group(members, start, frozenset()) for members in self._classes()]
        while pending:
            group = pending.pop()
            parts = self._split(group)
            if parts is None:
                chosen[group.persons] = group.levels
            else:
                pending.extend(parts)
        found: dict[str, pl.Series | int] = {}
        for index, column in enumerate(self.columns):
            shown = persons_shown(self.ladders, self.population, column).to_numpy()
            per_person = chosen[:, index]
            steps = np.unique(per_person[shown])
            if steps.size > 1:
                found[column] = pl.Series(column, per_person, dtype=pl.UInt8)
            elif steps.size == 1 and int(steps[0]) != self.levels[column]:
                found[column] = int(steps[0])
        return found

    def _classes(self) -> list[np.ndarray]:
        """The persons of each class of the view at the global levels (each has at least k persons)."""
        keys = view_keys(self.view, self.ladders, self.levels, self.population)
        signature = pl.DataFrame([key.alias(f"k{i}") for i, key in enumerate(keys)]).select(
            pl.struct(pl.all()).hash().alias("signature")
        )
        return _grouped(self.alive, signature.to_series().to_numpy())

    def _split(self, group: _Group) -> list[_Group] | None:
        best: tuple[float, int, np.ndarray, np.ndarray] | None = None
        for index, column in enumerate(self.columns):
            level = group.levels[index]
            if index in group.settled or level == 0:
                continue
            finer = (*group.levels[:index], level - 1, *group.levels[index + 1 :])
            values = self._key(column, finer)[group.persons]
            blocked = self._keeps_token(column, level - 1)[group.persons]
            finer_together = self._shared(values, blocked)
            if finer_together is None:
                continue
            gain = (
                int(finer_together.sum())
                * self.search.rules.weight(column)
                * (self.search.loss(column, level) - self.search.loss(column, level - 1))
            )
            if best is None or gain > best[0]:
                best = (gain, index, finer_together, values)
        if best is None:
            return None
        _, index, finer_together, values = best
        finer = (*group.levels[:index], group.levels[index] - 1, *group.levels[index + 1 :])
        parts = [
            _Group(members, finer, group.settled)
            for members in _grouped(group.persons[finer_together], values[finer_together])
        ]
        rest = group.persons[~finer_together]
        if rest.size:
            parts.append(_Group(rest, group.levels, group.settled | {index}))
        return parts

    def _shared(self, values: np.ndarray, blocked: np.ndarray) -> np.ndarray | None:
        """Which persons go one step finer: those whose value at least k persons (not blocked) share, with
        the smallest such values given back until the rest are none or at least k; None if nobody goes."""
        distinct, inverse = np.unique(values, return_inverse=True)
        counts = np.bincount(inverse[~blocked], minlength=distinct.size)
        shared = counts >= self.k
        rest = int(values.size - counts[shared].sum())
        if 0 < rest < self.k:
            for value in sorted(np.flatnonzero(shared), key=lambda value: (counts[value], value)):
                shared[value] = False
                rest += int(counts[value])
                if rest >= self.k:
                    break
        going = shared[inverse] & ~blocked
        return going if going.any() else None

    def _key(self, column: str, levels: tuple[int, ...]) -> np.ndarray:
        """Per person number, the key of what the view sees of `column`'s table with the local columns at
        `levels` (a column's own codes, for a table with one row per person and no row withheld)."""
        table = split_column(column)[0]
        at = {**self.levels, **dict(zip(self.columns, levels, strict=True))}
        table_columns = [c for c in self.view.columns if split_column(c)[0] == table]
        simple = (
            self.view.kind == "record"
            and self.ladders.one_row_per_person(table)
            and not self.population.withheld.get(table, pl.Series([])).len()
        )
        cache = (column, (at[column],)) if simple else (table, tuple(at[c] for c in table_columns))
        if cache not in self._keys:
            if simple:
                self._keys[cache] = self.search.person_codes(column, at[column]).to_numpy().astype(np.uint64)
            else:
                keys = table_keys(self.view, table, table_columns, self.ladders, at, self.population)
                aligned = np.zeros(self.persons, dtype=np.uint64)
                aligned[self.alive] = keys.to_numpy()
                self._keys[cache] = aligned
        return self._keys[cache]

    def _keeps_token(self, column: str, level: int) -> np.ndarray:
        """Per person number: whether a value of theirs at `level` keeps a keyed token."""
        if (column, level) not in self._tokened:
            table, name = split_column(column)
            holds = (
                self.ladders.frames[table]
                .select(
                    PERSON,
                    self.ladders.expr(column, level).cast(pl.String).str.contains(KEYED_TOKEN).alias(name),
                )
                .filter(pl.col(name))
                .get_column(PERSON)
                .unique()
                .to_numpy()
            )
            flags = np.zeros(self.persons, dtype=bool)
            flags[holds] = True
            self._tokened[(column, level)] = flags
        return self._tokened[(column, level)]


def _grouped(members: np.ndarray, values: np.ndarray) -> list[np.ndarray]:
    """`members` split by equal `values` (aligned arrays), in order of first value."""
    order = np.argsort(values, kind="stable")
    cuts = np.flatnonzero(np.diff(values[order])) + 1
    return np.split(members[order], cuts)


__all__: Sequence[str] = ("localize",)

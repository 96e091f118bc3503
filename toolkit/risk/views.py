"""Equivalence classes per person in one attacker view, and the risk figures of the report.

A person's class size in a view is the number of persons who look the same to that view's attacker:
- record: the same values in every column (a table with several rows per person compared as the set of
  the person's rows);
- sequence: the same rows of the table, in the same order;
- set: the same set of rows of the table (what a page that lists all of a person's rows at once shows);
- items (k^m): the smallest number of persons sharing any one item of the person, or with m = 2 any two.
A person with no row in an items view's table shows the attacker nothing there: their size is the number
of persons. Items, set and sequence views lose rows, not persons: `withheld_items` picks the rows to
withhold so that every item (and pair of items) left is shared by k persons, `withheld_sets` the fewest
items that leave each person's set shared by k persons, `withheld_sequences` the rows of the persons whose
sequence is too rare.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import groupby, pairwise
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray

from toolkit.memory import give_back
from toolkit.risk.ladders import PERSON, ROW, Ladders, split_column
from toolkit.rules import View

SIZE = "size"
_PAIR_CHUNK = 2_000
"""Persons whose item pairs are made at once (m = 2): bounds the pairs held in memory (about 500,000 for
persons of 23 items)."""
_PAIR_TABLE = 2_048 * 2_048
"""Cells of the table that counts pairs of items (16 MiB): up to 2,048 distinct items, every pair at once."""
_ONE_AT_A_TIME = 25
"""Rounds in which each person loses only one item of their rarest pair, before all items in rare pairs go."""
Codes = NDArray[np.int32]
"""Dense codes of items, or counts of persons: one per row, in 32 bits."""


@dataclass(frozen=True)
class Population:
    """The persons still in the release (their numbers, sorted) and, per table, the rows withheld."""

    alive: pl.Series
    withheld: Mapping[str, pl.Series]

    def rows(self, ladders: Ladders, table: str) -> pl.Series:
        """A mask over `table`'s rows: the rows still released."""
        frame = ladders.frames[table]
        kept = frame.get_column(PERSON).is_in(self.alive.implode())
        gone = self.withheld.get(table)
        if gone is not None and gone.len():
            kept &= ~frame.get_column(ROW).is_in(gone.implode())
        return kept


def persons_shown(ladders: Ladders, population: Population, column: str) -> pl.Series:
    """The persons with a released row of `column`'s table holding a value of `column` (sorted): a person
    without one shows the attacker nothing there, at any level."""
    table, name = split_column(column)
    frame = ladders.frames[table]
    shown = population.rows(ladders, table) & frame.get_column(name).is_not_null()
    return frame.get_column(PERSON).filter(shown).unique().sort()


def class_sizes(
    view: View, ladders: Ladders, levels: Mapping[str, int], population: Population
) -> pl.DataFrame:
    """(`person`, `size`) for every alive person."""
    if view.kind == "items":
        rows = item_sizes(view, ladders, levels, population)
        alive = population.alive.to_numpy()
        fewest = np.full(alive.size, alive.size, dtype=np.int32)  # no row: everyone looks the same
        np.minimum.at(fewest, np.searchsorted(alive, rows.person), rows.size)
        return pl.DataFrame({PERSON: population.alive, SIZE: pl.Series(fewest, dtype=pl.UInt32)})
    return pl.DataFrame(
        {PERSON: population.alive, SIZE: same_keys(view_keys(view, ladders, levels, population))}
    )


def view_keys(
    view: View, ladders: Ladders, levels: Mapping[str, int], population: Population
) -> list[pl.Series]:
    """A record, set or sequence view's keys, one series per table, aligned with `population.alive`: two
    persons look the same to the view when all their keys are equal."""
    return [
        table_keys(view, table, list(columns), ladders, levels, population)
        for table, columns in groupby(view.columns, key=lambda column: split_column(column)[0])
    ]


def same_keys(keys: list[pl.Series]) -> pl.Series:
    """Per person, how many persons have the same key in every one of `keys` (aligned series of integers
    without nulls). A person's keys are mixed into one 64-bit number, so two persons with different keys
    share it only by chance (about one pair in 2^64, as with Polars' hash of a row), and equal numbers are
    counted by a sort: a lattice search asks this thousands of times, mostly of a few thousand persons,
    where building a frame to hash cost about five times as much."""
    if not keys:
        return pl.Series(SIZE, [], dtype=pl.UInt32)
    mixed = np.zeros(keys[0].len(), dtype=np.uint64)
    for key in keys:
        if key.null_count():
            raise ValueError(f"a key with nulls: {key.name}")
        mixed = _mixed(mixed * _GOLDEN ^ key.to_numpy().astype(np.uint64, copy=False))
    distinct, counts = _counted(mixed)
    return pl.Series(SIZE, counts[np.searchsorted(distinct, mixed)], dtype=pl.UInt32)


def table_keys(
    view: View,
    table: str,
    columns: list[str],
    ladders: Ladders,
    levels: Mapping[str, int],
    population: Population,
) -> pl.Series:
    """One key per alive person (in `population.alive` order) for what the view sees of `table`: the set
    of the person's rows, or their sequence; 0 for a person with no row. Equal sets have equal keys, and
    different ones equal keys by chance only (about one pair in 2^64)."""
    if view.kind != "sequence":
        return pl.Series("key", set_keys(ladders, levels, population, table, columns))
    coded = _coded(ladders, levels, population, table, columns, view.order)
    row = pl.struct(pl.exclude(PERSON, ROW, "_order")).hash()
    coded = coded.sort(PERSON, "_order", ROW)
    per_person = coded.group_by(PERSON, maintain_order=True).agg(row.alias("rows"))
    keyed = per_person.select(PERSON, pl.col("rows").hash().alias("key"))
    people = pl.DataFrame({PERSON: population.alive})
    return people.join(keyed, on=PERSON, how="left", maintain_order="left").get_column("key").fill_null(0)


def set_keys(
    ladders: Ladders, levels: Mapping[str, int], population: Population, table: str, columns: list[str]
) -> NDArray[np.uint64]:
    """Per alive person, a key of the set of their released rows of `table` (each row seen as its
    `columns` at `levels`): the exclusive or of the 64-bit mixes of the distinct rows (0 for no row). On
    arrays of codes, with no frame grouped by person."""
    mask = population.rows(ladders, table)
    person = ladders.frames[table].get_column(PERSON).filter(mask).to_numpy()
    item, width = item_codes([ladders.codes(column, levels[column]).filter(mask) for column in columns])
    distinct, _ = _distinct_pairs(person, item, width)
    alive = population.alive.to_numpy()
    keys = np.zeros(alive.size, dtype=np.uint64)
    if distinct.size:
        owner = distinct // width
        starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        mixes = _mixed(distinct % width)
        keys[np.searchsorted(alive, owner[starts])] = np.bitwise_xor.reduceat(mixes, starts)
    return keys


@dataclass(frozen=True)
class ItemSizes:
    """Per released row of an items view's table: its number, its person, its item (a dense code of its
    values), the persons sharing the item (`single`), and the fewest sharing it, or (m = 2) it together
    with another item of the same person (`size`)."""

    row: NDArray[np.uint32]
    person: NDArray[np.uint32]
    item: Codes
    single: Codes
    size: Codes


def item_sizes(
    view: View, ladders: Ladders, levels: Mapping[str, int], population: Population, k: int | None = None
) -> ItemSizes:
    """`ItemSizes` for every released row of an items view's table. With `k`, pairs are made only of
    items that k persons share (a pair with a rarer item is rarer still, and that item goes anyway): the
    sizes once rare items go. Computed on arrays of codes: at 200,000 persons the terms view has about 4.5
    million rows, and frames of hashed structs joined back and forth held ten times their size."""
    mask = population.rows(ladders, view.table)
    frame = ladders.frames[view.table].select(ROW, PERSON).filter(mask)  # filtering the values copies them
    person = frame.get_column(PERSON).to_numpy()
    item, width = item_codes([ladders.codes(column, levels[column]).filter(mask) for column in view.columns])
    single, size = supports(person, item, width, view.m, k)
    give_back()
    return ItemSizes(frame.get_column(ROW).to_numpy(), person, item, single, size)


def supports(
    person: NDArray[np.uint32], item: Codes, width: int, m: int, k: int | None
) -> tuple[Codes, Codes]:
    """Per row, given by its person and its item's code (below `width`): `single` and `size` of
    `ItemSizes`. In 32 bits, and each temporary let go as soon as it is used: at 200,000 persons the
    terms view has 4.5 million rows, and each array of them in 64 bits is 35 MiB."""
    distinct, at = _distinct_pairs(person, item, width)
    owner, held = (distinct // width).astype(np.uint32), (distinct % width).astype(np.int32)
    del distinct
    single = np.bincount(held, minlength=width).astype(np.int32)[held]
    size = single.copy()
    if m == 2:
        paired = np.flatnonzero(single >= k) if k is not None else np.arange(held.size)
        fewest = _pair_minimum(owner[paired], held[paired], width)
        size[paired] = np.minimum(size[paired], fewest)
    return single[at], size[at]


def item_codes(columns: list[pl.Series]) -> tuple[Codes, int]:
    """One code per row for the values of `columns` together (a null is a value), and a bound on the codes:
    a column's codes are dense ranks from 1 (0: null); several columns' codes are made dense again (once,
    or before a product of codes could pass 2^62). Codes fit 32 bits: there are fewer than rows."""
    if len(columns) == 1:
        values = columns[0].fill_null(0).cast(pl.Int32).to_numpy()
        return values, int(values.max(initial=0)) + 1
    code, width = np.zeros(columns[0].len() if columns else 0, dtype=np.int64), 1
    for column in columns:
        values = column.fill_null(0).cast(pl.Int64).to_numpy()
        span = int(values.max(initial=0)) + 1
        if width * span > 2**62:
            renumbered, width = dense_codes(code)
            code = renumbered.astype(np.int64)
        code, width = code * span + values, width * span
    return dense_codes(code)


def dense_codes(code: NDArray[np.int64]) -> tuple[Codes, int]:
    """`code` renumbered 0, 1, ... in the order of its values, and how many distinct values it has. By a
    sort: `np.unique` hashes in numpy 2, several times slower on these arrays."""
    order = np.argsort(code)
    ordered = code[order]
    first = np.r_[True, ordered[1:] != ordered[:-1]] if code.size else np.ones(0, dtype=np.bool_)
    del ordered
    dense = np.empty(code.size, dtype=np.int32)
    dense[order] = np.cumsum(first, dtype=np.int32) - 1
    return dense, int(first.sum())


def _distinct_pairs(person: NDArray[np.uint32], item: Codes, width: int) -> tuple[NDArray[np.int64], Codes]:
    """The distinct (person, item) of the rows, as `person * width + item` sorted (by person, then item),
    and each row's place among them."""
    key = person.astype(np.int64) * width + item
    at, count = dense_codes(key)
    distinct = np.empty(count, dtype=np.int64)
    distinct[at] = key
    return distinct, at


def _pair_minimum(persons: NDArray[np.uint32], codes: Codes, width: int) -> Codes:
    """Over distinct (person, item) pairs sorted by person then item (`codes` dense, below `width`), per
    pair the fewest persons holding its item together with another of the person's items (the largest
    int32 for a person's only item). Each pair of items is one integer, so counting is `bincount`, not a
    join; pairs are made a chunk of persons at a time, and counted in a table of `_PAIR_TABLE` cells at
    most: where every pair does not fit, one block of first items at a time (memory stays flat)."""
    fewest = np.full(persons.size, np.iinfo(np.int32).max, dtype=np.int32)
    if persons.size == 0:
        return fewest
    starts = np.flatnonzero(np.r_[True, persons[1:] != persons[:-1]])
    spans = list(pairwise([*starts[::_PAIR_CHUNK].tolist(), persons.size]))

    def pairs(low: int, high: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Positions (first, second) of every pair of one person's items among rows low..high (codes are
        sorted within a person, so first's code is the smaller)."""
        owner = persons[low:high]
        ends = np.r_[np.flatnonzero(owner[1:] != owner[:-1]) + 1, owner.size]
        row = np.arange(owner.size)
        partners = np.repeat(ends, np.diff(np.r_[0, ends])) - row - 1
        first = np.repeat(row, partners)
        offsets = np.arange(first.size) - np.repeat(np.cumsum(partners) - partners, partners)
        return first + low, first + 1 + offsets + low

    block = max(1, _PAIR_TABLE // width)
    for low_code in range(0, width, block):
        high_code = min(low_code + block, width)
        counts = np.zeros((high_code - low_code) * width, dtype=np.int32)
        for low, high in spans:
            first, second = pairs(low, high)
            inside = (codes[first] >= low_code) & (codes[first] < high_code)
            cell = (codes[first[inside]] - low_code) * width + codes[second[inside]]
            counts += np.bincount(cell, minlength=counts.size)
        for low, high in spans:
            first, second = pairs(low, high)
            inside = (codes[first] >= low_code) & (codes[first] < high_code)
            first, second = first[inside], second[inside]
            sizes = counts[(codes[first] - low_code) * width + codes[second]]
            np.minimum.at(fewest, first, sizes)
            np.minimum.at(fewest, second, sizes)
    return fewest


def withheld_items(
    view: View, ladders: Ladders, levels: Mapping[str, int], population: Population, k: int
) -> pl.Series:
    """The rows of an items view's table to withhold so that every item left, and with m = 2 every pair
    of items of a person, is shared by at least k persons. Rare single items go at once; for pairs, each
    person first loses one item of their rarest pair, round by round (supports change as rows go), then,
    past a few rounds, every item still in a rare pair."""
    table = view.table
    gone = population.withheld.get(table, pl.Series(ROW, [], dtype=pl.UInt32))
    frame = ladders.frames[table]
    row, person = frame.get_column(ROW).to_numpy(), frame.get_column(PERSON).to_numpy()
    item, width = item_codes([ladders.codes(column, levels[column]) for column in view.columns])
    kept = np.flatnonzero(population.rows(ladders, table).to_numpy()).astype(np.int32)  # rows still released
    for round_number in range(10_000):
        single, size = supports(person[kept], item[kept], width, view.m, k)
        rare = size < k
        if not rare.any():
            give_back()
            return gone.sort()
        chosen = rare if view.m == 1 or round_number >= _ONE_AT_A_TIME else rare & (single < k)
        if chosen is not rare:  # and of each person's rare pairs, their rarest one's first item
            paired = np.flatnonzero(rare & (single >= k))
            owners, items = person[kept[paired]], item[kept[paired]]
            order = np.lexsort((items, size[paired], owners))
            first = order[np.r_[True, owners[order][1:] != owners[order][:-1]]] if order.size else order
            rarest = owners[first].astype(np.int64) * width + items[first]
            chosen[paired] |= np.isin(owners.astype(np.int64) * width + items, rarest)
        gone = pl.concat([gone, pl.Series(ROW, row[kept[chosen]])]).unique()
        kept = kept[~chosen]
    raise AssertionError("withheld_items did not settle")  # every round withholds at least one row


def withheld_sets(
    view: View, ladders: Ladders, levels: Mapping[str, int], population: Population, k: int
) -> tuple[pl.Series, NDArray[np.uint32]]:
    """`thinned_sets` to the end: the rows withheld and the persons still below k."""
    thinned = thinned_sets(view, ladders, levels, population, k)
    assert thinned is not None, "no bound was given"
    return thinned


def thinned_sets(
    view: View,
    ladders: Ladders,
    levels: Mapping[str, int],
    population: Population,
    k: int,
    at_most: int | None = None,
) -> tuple[pl.Series, NDArray[np.uint32]] | None:
    """The rows of a set view's table to withhold so that each person's set of items is shared by k
    persons, and the persons (numbers) still below k after it (only persons left with no item can be: their
    class is everyone else without a row, and the caller suppresses them if it is too small).

    A released set is a subset of the person's true set, so an attacker who holds the whole list and
    looks for the released sets inside it finds at least the persons whose released set is equal: the
    class counted here. Persons whose set k persons share keep it whole (their class only grows as others
    join it). Each person of a rarer set loses one item a round: the item whose removal lands them in a
    set k persons already share, the largest such, else their item the fewest persons hold, until every
    set left is shared or empty. With `at_most`: None as soon as more rows than that would surely go (each
    person of a rare set loses at least one row), for a search that has a better node already."""
    table = view.table
    gone = population.withheld.get(table, pl.Series(ROW, [], dtype=pl.UInt32))
    mask = population.rows(ladders, table)
    frame = ladders.frames[table].select(ROW, PERSON).filter(mask)
    item, width = item_codes([ladders.codes(column, levels[column]).filter(mask) for column in view.columns])
    distinct, at = _distinct_pairs(frame.get_column(PERSON).to_numpy(), item, width)
    alive = population.alive.to_numpy()
    owner = np.searchsorted(alive, distinct // width)
    thinned = _thin_sets(owner, distinct % width, width, alive.size, k, at_most)
    give_back()
    if thinned is None:
        return None
    dropped, below = thinned
    if dropped.any():
        withheld = pl.Series(ROW, frame.get_column(ROW).to_numpy()[dropped[at]])
        gone = pl.concat([gone, withheld]).unique()
    return gone.sort(), alive[below].astype(np.uint32)


def _thin_sets(
    owner: NDArray[np.intp], item: NDArray[np.int64], width: int, persons: int, k: int, at_most: int | None
) -> tuple[NDArray[np.bool_], NDArray[np.intp]] | None:
    """Over distinct (person, item) pairs given as `owner` (a person's position, 0..persons-1, sorted) and
    `item` (a code below `width`), which pairs to drop (see `thinned_sets`) and the positions of the persons
    who stay below `k`; None if the first round already drops more than `at_most` pairs.
    A set is keyed by the exclusive or of its items' 64-bit mixes, so the set less one item is a key away."""
    mixed = _mixed(item)
    key = np.zeros(persons, dtype=np.uint64)
    np.bitwise_xor.at(key, owner, mixed)
    dropped = np.zeros(item.size, dtype=np.bool_)
    while True:
        keys, counts = _counted(key)
        rare = counts[np.searchsorted(keys, key)] < k
        chosen = ~dropped & rare[owner]
        if not chosen.any():
            return dropped, np.flatnonzero(rare)
        pair = np.flatnonzero(chosen)
        if at_most is not None and not dropped.any() and 1 + np.count_nonzero(np.diff(owner[pair])) > at_most:
            return None
        support = np.bincount(item[~dropped], minlength=width)[item[pair]]
        landing = key[owner[pair]] ^ mixed[pair]
        at = np.minimum(np.searchsorted(keys, landing), keys.size - 1)
        joined = np.where(keys[at] == landing, counts[at], 0)
        joined = np.where(joined >= k, joined, 0).astype(np.int64)
        order = np.lexsort((item[pair], support, -joined, owner[pair]))
        first = order[np.r_[True, owner[pair][order][1:] != owner[pair][order][:-1]]]
        lose = pair[first]
        dropped[lose] = True
        key[owner[lose]] ^= mixed[lose]


def _counted(values: NDArray[np.uint64]) -> tuple[NDArray[np.uint64], NDArray[np.int64]]:
    """The distinct `values`, sorted, and how often each occurs (by a sort, like `dense`)."""
    ordered = np.sort(values)
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if values.size else np.zeros(0, np.intp)
    return ordered[starts], np.diff(np.r_[starts, values.size])


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""2^64 divided by the golden ratio, odd: multiplying by it permutes 64-bit numbers."""


def _mixed(code: NDArray[np.integer[Any]]) -> NDArray[np.uint64]:
    """A 64-bit mix of each code (splitmix64's finalizer): sets keyed by the exclusive or of their items'
    mixes collide only by chance, about one pair of sets in 2^64."""
    z = code.astype(np.uint64) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def withheld_sequences(
    view: View, ladders: Ladders, levels: Mapping[str, int], population: Population, k: int
) -> pl.Series:
    """The rows of a sequence view's table to withhold: every row of each person whose sequence fewer
    than k persons share (the person stays, without that table; if too few persons are left without it,
    they are below target and suppressed by the caller)."""
    table = view.table
    gone = population.withheld.get(table, pl.Series(ROW, [], dtype=pl.UInt32))
    sizes = class_sizes(view, ladders, levels, population)
    rare = sizes.filter(pl.col(SIZE) < k).get_column(PERSON)
    frame = ladders.frames[table].select(ROW, PERSON).filter(population.rows(ladders, table))
    rows = frame.filter(pl.col(PERSON).is_in(rare.implode())).get_column(ROW)
    return pl.concat([gone, rows]).unique().sort()


def _coded(
    ladders: Ladders,
    levels: Mapping[str, int],
    population: Population,
    table: str,
    columns: list[str],
    order: str | None = None,
) -> pl.DataFrame:
    """The released rows of `table`: `row`, `person` and each column's codes at its level."""
    frame = ladders.frames[table]
    coded = [frame.get_column(ROW), frame.get_column(PERSON)]
    coded += [ladders.codes(column, levels[column]) for column in columns]
    if order is not None:
        coded.append(frame.get_column(split_column(order)[1]).alias("_order"))
    return pl.DataFrame(coded).filter(population.rows(ladders, table))


@dataclass(frozen=True)
class Exposure:
    """A view's risk over the persons of a release (values never shown)."""

    persons: int
    smallest_k: int
    below_target: float
    """Share of persons in a class smaller than the target."""
    unique: float
    """Share of persons alone in their class."""
    prosecutor_risk: float
    """Mean over persons of 1 / class size: an attacker's chance of picking the right record."""

    @staticmethod
    def of(sizes: pl.DataFrame, k: int) -> Exposure:
        size = sizes.get_column(SIZE)
        if size.is_empty():
            return Exposure(0, 0, 0.0, 0.0, 0.0)
        # Summed as sizes and counts, exactly (fsum), so any computation of the figure rounds alike.
        counts = size.value_counts(name="count").iter_rows()
        risk = math.fsum(count / value for value, count in counts) / size.len()
        return Exposure(
            persons=size.len(),
            smallest_k=int(size.min()),  # type: ignore[arg-type]
            below_target=round(float((size < k).mean()), 4),  # type: ignore[arg-type]
            unique=round(float((size == 1).mean()), 4),  # type: ignore[arg-type]
            prosecutor_risk=round(risk, 4),
        )

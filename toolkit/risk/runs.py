"""k-anonymous text: every run of words the release keeps from a text column is shared by k persons.

A quoted search for a distinctive run of words finds the page it was copied from, and the page names the
person; removing names does not stop that. So a text column in `k_anonymous` mode keeps only runs of
words that at least k persons of the release hold (persons, not rows; any of the pass's columns).

- **Words** are maximal runs of letters, marks and digits, compared lower-cased; a scrubber's typed token
  (`<PROJECT>`) is one word. Punctuation does not break a run.
- **Counting, level by level** (`level_keys`, a kernel over one batch; `shared_keys`, the dataset-wide
  merge): level 1 counts every word and every whole cell (a cell: one value, or one item of a list);
  level n counts only the n-grams whose two (n-1)-grams are *ok*, so a run whose parts are already rare is
  never counted (Apriori pruning: memory follows the shared text, not the rare). A key is a 64-bit hash.
- **Ok** (`OkSets`): shared by k persons, or allowed without a count: a single word of the allow-list or
  of everyday vocabulary ("Kafka", "pipeline": a search finds millions of pages), or an n-gram that is
  one allowed term ("power bi"). A run of allowed words is not allowed: it needs k persons.
- **Cutting** (`cut_tables`): a cell whose whole word sequence k persons share is kept as it is. Any other
  cell is read left to right: from each word, the longest ok run of at most `max_run` words is kept and
  the next run starts after it; a word that opens no ok run is cut. Kept runs are joined by the marker
  (" … "), which also stands where words were cut, so no released run is longer than `max_run` words
  unless k persons hold the whole cell. A run of one word stands alone only if it is a technical term: an
  everyday word between two cuts tells a reader nothing. A cell left without a word is null (an item:
  left out).
- **Terms** (`term_rows`, a kernel): the allowed technical terms each person's free text mentions, the
  release's `terms` table, which the risk pass guards as items (`text_terms` in rules/risk.yaml).

Counts are of persons in the batch's rows as given: the caller passes only released rows (suppressed
persons and withheld rows left out), so a run is never counted for a person who does not release it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from toolkit.model import TERMS
from toolkit.rules import PrivacyRules, TextRules

MARKER = "…"
_SEED = 0x5EED_0F_7E87
_WORD = r"<[A-Z][A-Z_]*>|[\p{L}\p{M}\p{N}]+"
_PIECE = rf"{_WORD}|<|[^\p{{L}}\p{{M}}\p{{N}}<]+"
"""Words and what lies between them: every character of a text is in exactly one piece."""
_IS_WORD = rf"^(?:{_WORD})$"
_CELL_PREFIX = "\x1f"
"""Whole cells are keyed apart from n-grams: a cell shared whole says nothing of runs inside longer text."""
KEY_SCHEMA: dict[str, pl.DataType] = {"person": pl.String(), "key": pl.UInt64()}


def words_of(text: str) -> list[str]:
    """The words of `text`, lower-cased, as the pass reads them."""
    pieces = pl.Series([text]).str.extract_all(_PIECE).explode()
    return [piece.lower() for piece in pieces.filter(pieces.str.contains(_IS_WORD)).to_list()]


@dataclass(frozen=True)
class OkSets:
    """Per run length (1..max_run), the keys of runs that may be released; the whole cells k persons
    share; and the `terms`, the single words that may stand alone (technical terms: an everyday word
    between two cuts tells a reader nothing, and is cut too)."""

    runs: dict[int, pl.Series]
    cells: pl.Series
    terms: pl.Series

    @staticmethod
    def allowed(vocabulary: Iterable[str], max_run: int) -> dict[int, pl.Series]:
        """Keys of the allowed terms per length: each term read as text reads it ("node.js": node js)."""
        return TermVocabulary.of(vocabulary, max_run).keys


@dataclass(frozen=True)
class Cells:
    """The cells of the pass's columns in one batch: `cell`, `person`, `column`, `row`, `item` (null for a
    text column), `text`, `pieces` (list), `is_word` (per piece) and `words` (lower-cased, list)."""

    frame: pl.DataFrame


def cells_of(tables: Mapping[str, pl.DataFrame], columns: Sequence[str]) -> Cells:
    """Every non-null value (or list item) of `columns` (`table.column`) in `tables`."""
    frames = []
    for column in columns:
        table, _, name = column.partition(".")
        frame = tables.get(table)
        if frame is None or name not in frame.columns or frame.is_empty():
            continue
        rows = frame.select(pl.col("profile_id").alias("person"), pl.col(name).alias("text")).with_row_index(
            "row"
        )
        if frame.schema[name] == pl.List(pl.String):
            rows = rows.with_columns(
                pl.col("text").list.eval(pl.int_range(pl.len(), dtype=pl.UInt32)).alias("item")
            ).explode("text", "item")
        else:
            rows = rows.with_columns(pl.lit(None, dtype=pl.UInt32).alias("item"))
        frames.append(rows.with_columns(pl.lit(column).alias("column")).drop_nulls("text"))
    if not frames:
        empty = {
            "person": pl.String,
            "row": pl.UInt32,
            "text": pl.String,
            "item": pl.UInt32,
            "column": pl.String,
        }
        frames.append(pl.DataFrame(schema=empty))
    found = pl.concat(frames).with_columns(pl.col("text").str.extract_all(_PIECE).alias("pieces"))
    found = found.with_columns(
        pl.col("pieces").list.eval(pl.element().str.contains(_IS_WORD)).alias("is_word"),
        pl.col("pieces")
        .list.eval(pl.element().filter(pl.element().str.contains(_IS_WORD)).str.to_lowercase())
        .alias("words"),
    )
    return Cells(found.with_row_index("cell"))


def _word_rows(cells: Cells) -> pl.DataFrame:
    """One row per word, in order: `person`, `cell`, `word`."""
    return (
        cells.frame.select("person", "cell", "words")
        .explode("words")
        .drop_nulls("words")
        .rename({"words": "word"})
    )


def _gram(n: int) -> pl.Expr:
    """The key of the n-gram that starts at each word (null where the cell ends first)."""
    if n == 1:
        return pl.col("word").hash(_SEED)
    same = pl.col("cell").shift(-(n - 1)) == pl.col("cell")
    words = [pl.col("word").shift(-j) for j in range(n)]
    return pl.when(same).then(pl.concat_str(words, separator=" ").hash(_SEED))


def level_keys(cells: Cells, level: int, ok: OkSets | None) -> pl.DataFrame:
    """(`person`, `key`), distinct: at level 1 every word and whole cell, at level n the n-grams whose two
    (n-1)-grams are in `ok` (the sets of the levels below)."""
    words = _word_rows(cells)
    if level == 1:
        whole = cells.frame.select(
            "person",
            (pl.lit(_CELL_PREFIX) + pl.col("words").list.join(" ")).hash(_SEED).alias("key"),
        ).filter(cells.frame.get_column("words").list.len() > 0)
        found = pl.concat([words.select("person", _gram(1).alias("key")), whole])
    else:
        assert ok is not None, "levels above 1 need the ok runs of the level below"
        below = ok.runs.get(level - 1, pl.Series("key", [], pl.UInt64))
        part_ok = _gram(level - 1).is_in(below.implode())
        found = words.select(
            "person",
            _gram(level).alias("key"),
            (part_ok & part_ok.shift(-1)).alias("candidate"),
        ).filter(pl.col("candidate") & pl.col("key").is_not_null())
    return found.select("person", "key").unique().cast(KEY_SCHEMA)  # type: ignore[arg-type]


def shared_keys(keys: pl.LazyFrame, k: int, persons_distinct: bool, buckets: int = 1) -> pl.Series:
    """The keys held by at least `k` persons, from the `level_keys` of every batch (lazy, streamed).
    With `persons_distinct` the caller vouches that no person has rows in two batches: a key's persons
    are then its rows. `buckets` > 1 counts the keys in that many hash ranges, one at a time (memory)."""
    persons = pl.len() if persons_distinct else pl.col("person").n_unique()
    found = []
    for bucket in range(buckets):
        part = keys if buckets == 1 else keys.filter(pl.col("key") % buckets == bucket)
        counted = part.group_by("key").agg(persons.alias("persons")).filter(pl.col("persons") >= k)
        found.append(counted.select("key").collect(engine="streaming").get_column("key"))
    return pl.concat(found).sort() if found else pl.Series("key", [], pl.UInt64)


@dataclass
class ColumnFigures:
    """What the pass did to one column (released rows only)."""

    cells: int = 0
    cells_whole: int = 0
    """Cells kept as they are (k persons hold the whole cell, or every word of it is one ok run)."""
    cells_cut: int = 0
    """Cells left without a word (null, or an item left out)."""
    words_kept: int = 0
    words_cut: int = 0
    runs_cut: int = 0
    """Places where words were cut (each is one marker)."""
    longest_run: int = 0
    persons_kept: set[str] = field(default_factory=set)

    def merge(self, other: ColumnFigures) -> None:
        for name in ("cells", "cells_whole", "cells_cut", "words_kept", "words_cut", "runs_cut"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.longest_run = max(self.longest_run, other.longest_run)
        self.persons_kept |= other.persons_kept

    def to_json(self) -> dict[str, int]:
        return {
            "cells": self.cells,
            "cells_kept_whole": self.cells_whole,
            "cells_cut_whole": self.cells_cut,
            "words_kept": self.words_kept,
            "words_cut": self.words_cut,
            "runs_cut": self.runs_cut,
            "longest_kept_run": self.longest_run,
            "persons_with_text_kept": len(self.persons_kept),
        }


@dataclass
class CutResult:
    tables: dict[str, pl.DataFrame]
    figures: dict[str, ColumnFigures]
    fingerprints: dict[str, str]
    """Per released person with text kept: a digest of the set of runs kept (the residual figure)."""


def cut_tables(
    tables: Mapping[str, pl.DataFrame],
    rules: TextRules,
    columns: Sequence[str],
    ok: OkSets,
    released: Mapping[str, pl.Series] | None = None,
) -> CutResult:
    """`tables` with `columns` cut to their ok runs (every row); figures and fingerprints count only the
    rows `released` marks (a boolean mask per table; all rows where it has none)."""
    cells = cells_of(tables, columns)
    words = _word_rows(cells).with_columns(
        pl.lit(0, dtype=pl.UInt8).alias("longest"), _gram(1).is_in(ok.terms.implode()).alias("term")
    )
    for n in range(1, rules.max_run + 1):
        ok_n = ok.runs.get(n)
        if ok_n is not None and ok_n.len():
            words = words.with_columns(
                pl.when(_gram(n).is_in(ok_n.implode())).then(pl.lit(n, dtype=pl.UInt8)).otherwise("longest")
                .alias("longest")
            )  # fmt: skip
    longest = words.group_by("cell", maintain_order=True).agg("longest", "term")
    frame = cells.frame.join(longest, on="cell", how="left").with_columns(
        (pl.lit(_CELL_PREFIX) + pl.col("words").list.join(" "))
        .hash(_SEED)
        .is_in(ok.cells.implode())
        .alias("whole")
    )
    out: dict[str, list[str | None]] = {}
    figures = {column: ColumnFigures() for column in columns}
    kept_runs: dict[str, set[str]] = {}
    masks = {table: mask.to_list() for table, mask in (released or {}).items()}
    for column, row, person, pieces, is_word, words_, lengths, terms, whole in frame.select(
        "column", "row", "person", "pieces", "is_word", "words", "longest", "term", "whole"
    ).iter_rows():
        lengths = [
            0 if length == 1 and not term else length
            for length, term in zip(lengths or [], terms or [], strict=True)
        ]
        text, runs, as_is = _cut(pieces, is_word, words_, lengths, bool(whole), rules.max_run)
        out.setdefault(column, []).append(text)
        mask = masks.get(column.partition(".")[0])
        if mask is not None and not mask[row]:
            continue
        _count(figures[column], person, words_, runs, text, as_is)
        kept_runs.setdefault(person, set()).update(runs)
    result = dict(tables)
    for column in columns:
        if column not in out:
            continue
        table, _, name = column.partition(".")
        mine = (
            frame.filter(pl.col("column") == column)
            .select("row", "item")
            .with_columns(pl.Series("text", out[column], pl.String))
        )
        result[table] = _put(result[table], name, mine)
    fingerprints = {
        person: hashlib.blake2b("\x1e".join(sorted(runs)).encode(), digest_size=8).hexdigest()
        for person, runs in kept_runs.items()
        if runs
    }
    return CutResult(result, figures, fingerprints)


def _cut(
    pieces: list[str], is_word: list[bool], words: list[str], lengths: list[int], whole: bool, max_run: int
) -> tuple[str | None, list[str], bool]:
    """One cell: its released text (None: nothing kept), its kept runs (lower-cased words), and whether it
    is kept as it is."""
    if not words:
        return "".join(pieces), [], True
    if whole or (len(lengths) == len(words) and lengths[0] >= len(words)):
        return "".join(pieces), [" ".join(words)], True
    starts = [index for index, flag in enumerate(is_word) if flag]
    if len(lengths) != len(words) or len(starts) != len(words):  # cannot happen; if it did, trust nothing
        return None, [], False
    out: list[str] = []
    runs: list[str] = []
    at = 0
    cut_before = MARKER in "".join(pieces[: starts[0]])  # a marker of an earlier pass stays
    while at < len(words):
        length = min(lengths[at], max_run, len(words) - at)
        if length == 0:
            cut_before = True
            at += 1
            continue
        if out or cut_before:
            out.append(MARKER)
        out.append("".join(pieces[starts[at] : starts[at + length - 1] + 1]))
        runs.append(" ".join(words[at : at + length]))
        cut_before = False
        at += length
    if not out:
        return None, [], False
    if cut_before or MARKER in "".join(pieces[starts[-1] + 1 :]):
        out.append(MARKER)
    return " ".join(out), runs, False


def _count(figures: ColumnFigures, person: str, words: list[str], runs: list[str], text: str | None,
           whole: bool) -> None:  # fmt: skip
    figures.cells += 1
    kept = sum(run.count(" ") + 1 for run in runs)
    figures.words_kept += kept
    figures.words_cut += len(words) - kept
    figures.cells_whole += whole
    figures.cells_cut += text is None
    figures.runs_cut += 1 if text is None else text.count(MARKER) if not whole else 0
    figures.longest_run = max([figures.longest_run, *(run.count(" ") + 1 for run in runs)])
    if runs:
        figures.persons_kept.add(person)


def _put(frame: pl.DataFrame, name: str, cells: pl.DataFrame) -> pl.DataFrame:
    """`frame` with column `name` replaced by the cut `cells` (`row`, `item`, `text`)."""
    indexed = frame.with_row_index("_row")
    if frame.schema[name] == pl.List(pl.String):
        lists = (
            cells.drop_nulls("text")
            .sort("row", "item")
            .group_by("row", maintain_order=True)
            .agg(pl.col("text").alias("_new"))
        )
        had = frame.get_column(name).is_not_null()
        joined = indexed.join(lists, left_on="_row", right_on="row", how="left")
        new = (
            pl.when(pl.col("_new").is_not_null()).then("_new").when(had).then(pl.lit([], pl.List(pl.String)))
        )
        return joined.with_columns(new.alias(name)).drop("_row", "_new")
    joined = indexed.join(cells.select("row", pl.col("text").alias("_new")), left_on="_row", right_on="row",
                          how="left")  # fmt: skip
    return joined.with_columns(pl.col("_new").alias(name)).drop("_row", "_new")


@dataclass(frozen=True)
class TermVocabulary:
    """The technical terms a text may mention, keyed as runs: per length the keys, and each key's term."""

    keys: dict[int, pl.Series]
    terms: pl.DataFrame
    """`key` (UInt64) -> `term` (the vocabulary's spelling, lower-cased; the first in sort order)."""

    @staticmethod
    def of(vocabulary: Iterable[str], max_run: int) -> TermVocabulary:
        frame = (
            pl.DataFrame({"term": sorted({term.lower() for term in vocabulary})}, schema={"term": pl.String})
            .with_columns(
                pl.col("term")
                .str.extract_all(_WORD)
                .list.eval(pl.element().str.to_lowercase())
                .alias("words")
            )
            .filter(pl.col("words").list.len().is_between(1, max_run))
            .with_columns(
                pl.col("words").list.join(" ").hash(_SEED).alias("key"), pl.col("words").list.len().alias("n")
            )
            .unique("key", keep="first", maintain_order=True)
        )
        keys = {int(n): group.get_column("key").sort() for (n,), group in frame.group_by("n")}
        return TermVocabulary(keys, frame.select("key", "term"))


def term_rows(
    tables: Mapping[str, pl.DataFrame], columns: Sequence[str], vocabulary: TermVocabulary
) -> pl.DataFrame:
    """The `terms` table of one batch: per person, each term of `vocabulary` the text of `columns` mentions
    (the longest one where terms overlap: "apache spark", not also "spark"), in order of first mention;
    persons in the order of `profiles` (so that the table does not depend on how persons are batched)."""
    cells = cells_of(tables, columns)
    words = _word_rows(cells).with_columns(
        pl.lit(None, dtype=pl.UInt64).alias("term_key"), pl.lit(0).alias("n")
    )
    for n in sorted(vocabulary.keys):
        gram = _gram(n)
        found = gram.is_in(vocabulary.keys[n].implode())
        words = words.with_columns(
            pl.when(found).then(gram).otherwise("term_key").alias("term_key"),
            pl.when(found).then(pl.lit(n)).otherwise("n").alias("n"),
        )
    longest = max(vocabulary.keys, default=1)
    covered = pl.lit(False)
    for back in range(1, longest):
        covered = covered | (
            (pl.col("cell").shift(back) == pl.col("cell")) & (pl.col("n").shift(back) > back)
        ).fill_null(False)
    persons = (
        tables["profiles"].select(pl.col("profile_id").alias("person")).unique(maintain_order=True)
        if "profiles" in tables
        else pl.DataFrame(schema={"person": pl.String})
    ).with_row_index("order")
    listed = (
        words.with_row_index("at")
        .filter(pl.col("term_key").is_not_null() & ~covered)
        .join(vocabulary.terms, left_on="term_key", right_on="key")
        .join(persons, on="person", how="left")
        .sort("order", "at", nulls_last=True)
        .select(pl.col("person").alias("profile_id"), "term")
        .unique(maintain_order=True)
    )
    return listed.cast(TERMS)  # type: ignore[arg-type]


def technical_terms(privacy: PrivacyRules, function_words: Iterable[str] = ()) -> frozenset[str]:
    """The allow-list's technical terms: less its plain words (roles, sentence starters), `function_words`
    (a tool list may hold 'a' or 'he') and the names of human languages."""
    dropped = privacy.plain_words | {word.lower() for word in function_words} | privacy.spoken_languages
    return privacy.allow_list - dropped


def term_vocabulary(
    privacy: PrivacyRules, max_run: int, function_words: Iterable[str] = ()
) -> TermVocabulary:
    """The technical terms a text may mention, for the `terms` table."""
    return TermVocabulary.of(technical_terms(privacy, function_words), max_run)


def allowed_sets(
    privacy: PrivacyRules, max_run: int, function_words: Iterable[str] = ()
) -> tuple[dict[int, pl.Series], pl.Series]:
    """Per length, the keys of runs allowed without a count (allowed terms, technical or everyday single
    words), and the keys of the single words that may stand alone: the technical terms."""
    allowed = OkSets.allowed(privacy.allow_list | privacy.common_words, max_run)
    alone = OkSets.allowed(technical_terms(privacy, function_words), 1)
    return allowed, alone.get(1, pl.Series("key", [], pl.UInt64))


def ok_runs(shared: pl.Series, allowed: pl.Series | None) -> pl.Series:
    """The keys of one level that may be released: shared by k persons, or allowed."""
    if allowed is None or allowed.is_empty():
        return shared.rename("key")
    return pl.concat([shared.rename("key"), allowed.rename("key")]).unique().sort()


def withhold(tables: Mapping[str, pl.DataFrame], columns: Iterable[str]) -> dict[str, pl.DataFrame]:
    """`tables` with `columns` (`table.column`) null."""
    result = dict(tables)
    for column in columns:
        table, _, name = column.partition(".")
        if table in result and name in result[table].columns:
            frame = result[table]
            result[table] = frame.with_columns(pl.lit(None, dtype=frame.schema[name]).alias(name))
    return result


def anonymize_text(
    tables: Mapping[str, pl.DataFrame],
    rules: TextRules,
    k: int,
    allowed: Mapping[int, pl.Series],
    terms: pl.Series,
) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    """The whole pass over tables held in memory (every row released, each person in them once): the
    tables with their text cut and withheld, and the report's `text` section."""
    columns = rules.columns("k_anonymous")
    cells = cells_of(tables, columns)
    runs: dict[int, pl.Series] = {}
    ok: OkSets | None = None
    for level in range(1, rules.max_run + 1):
        shared = shared_keys(level_keys(cells, level, ok).lazy(), k, persons_distinct=False)
        runs[level] = ok_runs(shared, allowed.get(level))
        ok = OkSets(runs, shared if ok is None else ok.cells, terms)
    assert ok is not None, "max_run is at least 1"
    cut = cut_tables(tables, rules, columns, ok)
    ids = [frame.get_column("profile_id") for frame in tables.values() if "profile_id" in frame.columns]
    persons = pl.concat(ids).n_unique() if ids else 0
    report = text_report(rules, k, cut.figures, cut.fingerprints.values(), persons)
    return withhold(cut.tables, rules.withheld()), report


def text_report(
    rules: TextRules,
    k: int,
    figures: Mapping[str, ColumnFigures],
    fingerprints: Iterable[str],
    persons: int,
) -> dict[str, Any]:
    """The report's `text` section: per column its mode and figures, and the residual."""
    columns: dict[str, object] = {}
    for column, mode in sorted(rules.modes.items()):
        entry: dict[str, object] = {"mode": mode}
        if column in rules.withheld_by:
            entry["follows"] = rules.withheld_by[column]
        if mode == "k_anonymous":
            entry |= figures.get(column, ColumnFigures()).to_json()
        columns[column] = entry
    return {
        "ran": True,
        "k": k,
        "max_run": rules.max_run,
        "columns": columns,
        "residual": fingerprint_figures(fingerprints, persons),
    }


def fingerprint_figures(fingerprints: Iterable[str], persons: int) -> dict[str, float | int]:
    """The residual: of `persons` released, how many hold a set of kept runs no other person holds."""
    counts = Counter(fingerprints)
    unique = sum(1 for count in counts.values() if count == 1)
    return {
        "persons": persons,
        "unique_run_sets": unique,
        "unique_share": round(unique / persons, 4) if persons else 0.0,
    }


__all__: Sequence[str] = (
    "MARKER",
    "Cells",
    "ColumnFigures",
    "CutResult",
    "OkSets",
    "TermVocabulary",
    "allowed_sets",
    "anonymize_text",
    "cells_of",
    "cut_tables",
    "fingerprint_figures",
    "level_keys",
    "ok_runs",
    "shared_keys",
    "term_rows",
    "term_vocabulary",
    "text_report",
    "withhold",
    "words_of",
)

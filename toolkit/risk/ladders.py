"""Each quasi-identifier's ladder of generalizations, fitted to one release, as Polars expressions.

Level 0 is the value as released, level i applies the i-th step of the column's ladder in
`rules/risk.yaml` to the released value, and the level after the last step withholds the column (null).
Every level above 0 is text. A column recoded locally (`LOCAL`) has a level per person instead (an items
view's column: per row), and is text.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl
import regex

from toolkit.generalize import band, year_span
from toolkit.rules import Classification, RiskRules, Step
from toolkit.text import fold

PERSON = "person"
"""The column that numbers the persons of the release (0, 1, ...) in the risk pass's frames."""
ROW = "row"
"""The column that numbers a table's released rows in the order of its staged parts."""
LOCAL = -1
"""The level of a column recoded person by person (each person's level is in `Ladders.local`) or row by row
(each row's level is in `Ladders.local_rows`)."""
KEYED_TOKEN = r"<[A-Z][A-Z_]*_[0-9a-f]{8}>"
"""A keyed token of the scrubber: a value holding one is never kept because k persons share it (the same
token in k records is a join key between releases made with the same key)."""


def split_column(column: str) -> tuple[str, str]:
    table, _, name = column.partition(".")
    return table, name


class Classifier:
    """A value -> the label of the first group of a classification with a term in it (whole words,
    accents and case folded), else the classification's default."""

    def __init__(self, classification: Classification) -> None:
        self.default = classification.default
        self.groups = [
            (label, regex.compile(r"(?<![\p{L}\p{N}])(?:" + "|".join(
                regex.escape(fold(term)) for term in sorted(terms, key=len, reverse=True)
            ) + r")(?![\p{L}\p{N}])"))
            for label, terms in classification.groups.items()
        ]  # fmt: skip

    def __call__(self, value: str) -> str | None:
        folded = fold(value)
        for label, pattern in self.groups:
            if pattern.search(folded):
                return label
        return self.default


class Ladders:
    """The levels of every ladder column for one release.

    `frames` hold, per table, the columns `row`, `person` and the released values of the quasi-identifiers. A
    `frequent` step keeps the values of the level below that at least k persons share (k: the largest
    target of the views that read the column), and gives the others the next step's value; a `classify`
    step maps each distinct value to its group. Both are fitted here, once, to the persons of `frames`.
    """

    def __init__(self, rules: RiskRules, frames: Mapping[str, pl.DataFrame], ids: pl.Series) -> None:
        self.rules = rules
        self.frames = frames
        self.ids = ids
        """The released `profile_id` of each person, in person order."""
        self.local: dict[str, pl.Series] = {}
        """Per column recoded locally, each person's level (indexed by person)."""
        self.local_rows: dict[str, pl.Series] = {}
        """Per column recoded row by row, each row's level (indexed by `row`)."""
        self.dtypes = {c: frames[split_column(c)[0]].schema[split_column(c)[1]] for c in rules.ladders}
        self.classifiers = {name: Classifier(c) for name, c in rules.classifications.items()}
        self._mappings: dict[tuple[str, int], tuple[pl.Series, pl.Series]] = {}
        self._by_row: dict[tuple[str, int], tuple[pl.Series, pl.Series]] = {}
        self._frequent: dict[tuple[str, int], pl.Series] = {}
        self._codes: dict[tuple[str, int], pl.Series] = {}
        self._single: dict[str, bool] = {}
        for column, steps in rules.ladders.items():
            for level, step in enumerate(steps, start=1):
                if step.frequent:
                    self._frequent[(column, level)] = self._shared_values(column, level - 1)

    def settle(self, levels: Mapping[str, int]) -> None:
        """Keep only what `expr` needs to apply `levels` (the values each step maps, the rows a classify
        step labels) and let go of the frames and the codes: a plan outlives its search, and at 200,000
        persons these hold about 270 MiB the publishing phases would carry. Other levels need frames
        afterwards and fail."""
        for column, level in levels.items():
            if level:
                self.expr(column, level)
        self.frames = {}
        self._codes.clear()
        self._single.clear()

    def forget_codes(self, levels: Mapping[str, int]) -> None:
        """Let go of the codes of every level but `levels` (they are made again if asked for): once the
        lattice search has chosen, what comes after reads mostly those (at 200,000 persons, 109 MiB of
        codes at 59 levels, 35 MiB of them at the chosen ones)."""
        for column, level in list(self._codes):
            if levels.get(column) != level:
                del self._codes[(column, level)]

    def one_row_per_person(self, table: str) -> bool:
        """Whether no person has two rows in `table` (its keys need no grouping, and are cheap to redo)."""
        if table not in self._single:
            persons = self.frames[table].get_column(PERSON)
            self._single[table] = persons.n_unique() == persons.len()
        return self._single[table]

    def top(self, column: str) -> int:
        """The highest level of `column`: withheld."""
        return len(self.rules.ladders[column]) + 1

    def localize(self, column: str, levels: pl.Series) -> None:
        """Recode `column` person by person: person i at `levels[i]` (`expr(column, LOCAL)`)."""
        self.local[column] = levels.cast(pl.UInt8)
        self._codes.pop((column, LOCAL), None)

    def localize_rows(self, column: str, levels: pl.Series) -> None:
        """Recode `column` row by row: the row numbered i at `levels[i]` (`expr(column, LOCAL)`)."""
        self.local_rows[column] = levels.cast(pl.UInt8)
        self._codes.pop((column, LOCAL), None)

    def unlocalize(self) -> None:
        """Every column back to its global level: no column recoded person by person or row by row."""
        for column in (*self.local, *self.local_rows):
            self._codes.pop((column, LOCAL), None)
        self.local.clear()
        self.local_rows.clear()

    def label(self, column: str, level: int) -> str:
        if level == LOCAL:
            return "local:rows" if column in self.local_rows else "local"
        if level == 0:
            return "released"
        if level == self.top(column):
            return "withheld"
        return self.rules.ladders[column][level - 1].label

    def expr(self, column: str, level: int, person: pl.Expr | None = None) -> pl.Expr:
        """`column` (its bare name) at `level`, computed from the released value (a step that classifies
        another column: from that column as these frames hold it, looked up by the row's `row` number, since
        the text pass may rewrite it later); at `LOCAL`, at the level of the row's person, whose number is
        `person` (default: the frames' `person` column), or of the row (by its `row` number)."""
        name = split_column(column)[1]
        value = pl.col(name)
        if level == LOCAL:
            if column in self.local_rows:
                at = pl.lit(self.local_rows[column]).gather(pl.col(ROW))
            else:
                at = pl.lit(self.local[column]).gather(pl.col(PERSON) if person is None else person)
            steps = [self.expr(column, finer).cast(pl.String) for finer in range(self.top(column))]
            return pl.coalesce(pl.when(at == finer).then(step) for finer, step in enumerate(steps)).alias(
                name
            )
        if level == 0:
            return value
        if level >= self.top(column):
            return pl.when(pl.lit(False)).then(value.cast(pl.String)).alias(name)  # null in every row
        step: Step = self.rules.ladders[column][level - 1]
        if step.frequent:
            below = self.expr(column, level - 1).cast(pl.String)
            shared = self._frequent[(column, level)]
            above = self.expr(column, level + 1).cast(pl.String)
            return pl.when(below.is_in(shared.implode())).then(below).otherwise(above).alias(name)
        if step.band:
            return band(value, step.band).alias(name)
        if step.span is not None:
            return year_span(value, step.span, self.dtypes[column]).alias(name)
        if step.of not in ("value", "previous"):
            rows, labels = self._row_labels(column, level)
            return pl.col(ROW).replace_strict(rows, labels, default=None, return_dtype=pl.String).alias(name)
        values, labels = self._mapping(column, level)
        return value.replace_strict(values, labels, default=None, return_dtype=pl.String).alias(name)

    def codes(self, column: str, level: int) -> pl.Series:
        """`column` at `level` as dense integer codes, one per row of its table (nulls stay null)."""
        key = (column, level)
        if key not in self._codes:
            table, name = split_column(column)
            values = self.frames[table].select(self.expr(column, level)).to_series()
            self._codes[key] = values.rank("dense").alias(name)
        return self._codes[key]

    def _shared_values(self, column: str, level: int) -> pl.Series:
        table, name = split_column(column)
        k = self.rules.column_k(column)
        counted = (
            self.frames[table]
            .select(PERSON, self.expr(column, level).cast(pl.String).alias(name))
            .drop_nulls(name)
            .filter(~pl.col(name).str.contains(KEYED_TOKEN))
            .group_by(name)
            .agg(pl.col(PERSON).n_unique().alias("persons"))
        )
        return counted.filter(pl.col("persons") >= k).get_column(name).sort()

    def _row_labels(self, column: str, level: int) -> tuple[pl.Series, pl.Series]:
        """A classify step `of` another column: the `row` numbers of `column`'s table and each row's label,
        from the other column as the frames hold it."""
        key = (column, level)
        if key not in self._by_row:
            table = split_column(column)[0]
            step = self.rules.ladders[column][level - 1]
            values, labels = self._mapping(column, level)
            frame = self.frames[table]
            labelled = frame.select(
                self._source(step.of).replace_strict(values, labels, default=None, return_dtype=pl.String)
            )
            self._by_row[key] = (frame.get_column(ROW), labelled.to_series())
        return self._by_row[key]

    def _source(self, column: str) -> pl.Expr:
        """Another column of the row, as the text a classify step `of` it reads (a list: its items joined)."""
        table, name = split_column(column)
        if self.frames[table].schema[name] == pl.List(pl.String):
            return pl.col(name).list.join(" ")
        return pl.col(name)

    def _mapping(self, column: str, level: int) -> tuple[pl.Series, pl.Series]:
        """The distinct released values of `column` (or of the column the step is `of`) and their labels
        at `level`, a classify step (of them, or of the labels of the classify step before it)."""
        key = (column, level)
        if key not in self._mappings:
            table, name = split_column(column)
            step = self.rules.ladders[column][level - 1]
            if step.of in ("value", "previous"):
                values = self.frames[table].get_column(name).drop_nulls().unique().sort()
            else:
                values = (
                    self.frames[table].select(self._source(step.of)).to_series().drop_nulls().unique().sort()
                )
            inputs = self._mapping(column, level - 1)[1] if step.of == "previous" else values
            labels = []
            for value in inputs:
                found = [self.classifiers[file](value) for file in step.classify] if value is not None else []
                labels.append(" ".join(label for label in found if label) or None)
            self._mappings[key] = (values, pl.Series(name, labels, dtype=pl.String))
        return self._mappings[key]


def person_frames(
    tables: Mapping[str, pl.LazyFrame], rules: RiskRules, ids: pl.DataFrame
) -> dict[str, pl.DataFrame]:
    """Per table: `row`, `person` and the released values of its quasi-identifiers (and the columns that
    order a sequence or that a classify step reads)."""
    wanted: dict[str, list[str]] = {}
    read = [
        column for view in rules.views.values() for column in (*view.columns, *filter(None, [view.order]))
    ]
    read += [
        step.of for steps in rules.ladders.values() for step in steps if step.of not in ("value", "previous")
    ]
    for column in read:
        table, name = split_column(column)
        if name not in wanted.setdefault(table, []):
            wanted[table].append(name)
    return {
        table: tables[table]
        .select("profile_id", *names)
        .with_row_index(ROW)
        .join(ids.lazy(), on="profile_id", how="inner")
        .select(ROW, PERSON, *names)
        .sort(ROW)
        .collect()
        for table, names in wanted.items()
    }

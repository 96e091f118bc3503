"""Scrub stage: the privacy policy applied to the parsed tables, giving the tables of a release.

Only this package imports Presidio. `anonymize` is a function of (tables, rules, key): the same input and
key give the same release, in any process, with no shared state.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import polars as pl

from toolkit.model import TABLE_SCHEMAS, ProfileSet, other_people
from toolkit.rules import ColumnPolicy, PrivacyRules
from toolkit.scrub.columns import generalize, pseudonymize
from toolkit.scrub.keys import Keyring, keyring
from toolkit.scrub.shapes import shape_test

if TYPE_CHECKING:
    from toolkit.scrub.text import Seeds, TextScrubber

__all__ = [
    "RELEASED_TABLES",
    "Anonymized",
    "ColumnAction",
    "Keyring",
    "anonymize",
    "keyring",
    "scrub_frame",
    "scrubber_for",
    "vocabulary_of",
]

RELEASED_TABLES = tuple(table for table in TABLE_SCHEMAS if table != "rejects")


@dataclass(frozen=True)
class ColumnAction:
    table: str
    column: str
    action: str
    values: int
    """Non-null values in the column before the action."""
    changed: int
    """Values the action changed (for drop: every non-null value)."""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "column": self.column, "action": self.action, "values": self.values,
                "changed": self.changed}  # fmt: skip


@dataclass
class Anonymized:
    tables: dict[str, pl.DataFrame]
    actions: list[ColumnAction]
    entities: Counter[str] = field(default_factory=Counter)
    """Replacements made in free text, per entity type."""
    span_filters: Counter[str] = field(default_factory=Counter)
    """Per span filter, the spans it decided (`TextScrubResult.span_filters`)."""
    recognizers: Counter[str] = field(default_factory=Counter)
    """Per recognizer (and NER), the spans it found that were replaced (`TextScrubResult.recognizers`)."""
    span_adjusters: Counter[str] = field(default_factory=Counter)
    """Per span adjuster, the spans to replace it changed or added (`TextScrubResult.span_adjusters`)."""


def scrubber_for(rules: PrivacyRules, keys: Keyring) -> TextScrubber:
    """The text scrubber; Presidio and spaCy are imported and loaded here, on first use, once per process."""
    from toolkit.detectors import declared_order
    from toolkit.scrub.engine import engine_for
    from toolkit.scrub.text import TextScrubber

    engine = engine_for(
        rules.policy.nlp,
        rules.recognizers,
        rules.first_names if "first_name_gazetteer" in rules.built_in else frozenset(),
        rules.allow_list,
        rules.common_words,
        rules.english_words,
        rules.address_words,
        rules.place_name_joiners,
        rules.spoken_languages,
        rules.places if "place_gazetteer" in rules.built_in else frozenset(),
        rules.span_adjusters,
        "NER" in rules.built_in,
    )
    return TextScrubber(
        engine,
        keys,
        rules.policy.text_entities,
        rules.allow_list,
        rules.common_words,
        rules.first_names,
        rules.product_words,
        rules.technical_given_names,
        rules.vendors,
        declared_order(rules.recognizers),
        rules.span_filters,
    )


def anonymize(tables: ProfileSet, rules: PrivacyRules, keys: Keyring) -> Anonymized:
    """Apply the policy to every released table; free text of one profile is scrubbed as one record."""
    frames = {name: frame for name, frame in tables.tables() if name in RELEASED_TABLES}
    scrubbed = _scrub_free_text(frames, rules, keys)
    release: dict[str, pl.DataFrame] = {}
    actions: list[ColumnAction] = []
    for table, frame in frames.items():
        exprs = []
        for column in frame.columns:
            if column not in TABLE_SCHEMAS[table]:
                continue  # not in the contract, so not in the policy: never released
            policy = rules.policy.column(table, column)
            values = frame.height - frame.get_column(column).null_count()
            if policy.action == "drop":
                actions.append(ColumnAction(table, column, "drop", values, values))
                continue
            if (table, column) in scrubbed.columns:
                expr = pl.lit(scrubbed.columns[(table, column)]).alias(column)
            elif policy.action == "keep":
                expr = pl.col(column)
            elif policy.action == "pseudonymize":
                expr = pseudonymize(frame, column, keys)
            elif policy.action == "generalize":
                assert policy.hierarchy is not None
                expr = generalize(column, rules.policy.hierarchies[policy.hierarchy])
            else:
                expr = pl.lit(scrubbed.columns[(table, column)]).alias(column)
            exprs.append(expr.alias(column))
            label = _label(policy)
            actions.append(ColumnAction(table, column, label, values, 0))
        release[table] = frame.select(exprs)
    actions = [_count_changes(action, frames, release) for action in actions]
    return Anonymized(
        release,
        actions,
        scrubbed.entities,
        scrubbed.span_filters,
        scrubbed.recognizers,
        scrubbed.span_adjusters,
    )


def _label(policy: ColumnPolicy) -> str:
    argument = policy.hierarchy or policy.shape
    return f"{policy.action}:{argument}" if argument else policy.action


@dataclass(frozen=True)
class _Scrubbed:
    columns: dict[tuple[str, str], pl.Series]
    entities: Counter[str]
    span_filters: Counter[str] = field(default_factory=Counter)
    recognizers: Counter[str] = field(default_factory=Counter)
    span_adjusters: Counter[str] = field(default_factory=Counter)


def _scrub_free_text(frames: dict[str, pl.DataFrame], rules: PrivacyRules, keys: Keyring) -> _Scrubbed:
    """Scrub columns are scrubbed whole. A kept column with a shape: its values without the shape are
    scrubbed as free text, the others only searched for the record's own identifiers."""
    columns: list[tuple[str, str, Callable[[str], bool] | None, bool]] = []
    for table, frame in frames.items():
        for column in frame.columns:
            if column not in TABLE_SCHEMAS[table]:
                continue
            policy = rules.policy.column(table, column)
            if policy.action == "scrub":
                columns.append((table, column, None, False))
            elif policy.action == "keep" and policy.shape is not None:
                closed = bool(rules.policy.shapes[policy.shape].known)
                columns.append((table, column, shape_test(policy.shape, rules), closed))
    items: list[tuple[Hashable, str]] = []
    places: list[_Place] = []
    kept: list[tuple[Hashable, str]] = []
    kept_places: list[_Place] = []
    for table, column, has_shape, closed in columns:
        frame = frames[table]
        ids = frame.get_column("profile_id").to_list()
        for row, value in enumerate(frame.get_column(column).to_list()):
            cells = enumerate(value) if isinstance(value, list) else [(None, value)]
            for element, text in cells:
                if text is None:
                    continue
                if has_shape is None or not has_shape(text):
                    items.append((ids[row], text))
                    places.append((table, column, row, element))
                elif not closed:  # a known country or language is that, not somebody's name
                    kept.append((ids[row], text))
                    kept_places.append((table, column, row, element))
    if not items and not kept:  # nothing to read: no need to load the NLP engine
        return _Scrubbed({(t, c): frames[t].get_column(c) for t, c, _, _ in columns}, Counter())
    result = scrubber_for(rules, keys).scrub(items, _seeds(frames), vocabulary_of(frames), kept=kept)
    replaced: dict[tuple[str, str], list[Any]] = {
        (t, c): [list(v) if isinstance(v, list) else v for v in frames[t].get_column(c).to_list()]
        for t, c, _, _ in columns
    }
    for (table, column, row, element), text in zip(
        [*places, *kept_places], [*result.texts, *result.kept_texts], strict=True
    ):
        if element is None:
            replaced[(table, column)][row] = text
        else:
            replaced[(table, column)][row][element] = text
    series = {(t, c): pl.Series(c, values, dtype=frames[t].schema[c]) for (t, c), values in replaced.items()}
    return _Scrubbed(series, result.entities, result.span_filters, result.recognizers, result.span_adjusters)


_Place = tuple[str, str, int, int | None]
"""Table, column, row, and the position in a list (None for a plain value)."""


def _seeds(frames: dict[str, pl.DataFrame]) -> dict[Hashable, Seeds]:
    from toolkit.scrub.text import Seeds

    named = other_people(frames["profiles"], frames["experience"])
    others = dict(named.group_by("profile_id", maintain_order=True).agg("name").iter_rows())
    profiles = frames["profiles"]
    unparsed = pl.col("unparsed_lines") if "unparsed_lines" in profiles.columns else pl.lit(None)
    stated = pl.col("contacts") if "contacts" in profiles.columns else pl.lit(None)
    names = profiles.select(
        "profile_id", "name", unparsed.alias("unparsed"), stated.alias("contacts")
    ).drop_nulls("profile_id")
    seeds: dict[Hashable, Seeds] = {}
    for profile_id, name, header, contacts in names.iter_rows():
        seeds[profile_id] = Seeds(
            own_names=(name,) if name else (),
            other_people=tuple(others.get(profile_id, ())),
            read_only=tuple(header or ()),
            contacts=tuple(contacts or ()),
        )
    return seeds


def vocabulary_of(frames: Mapping[str, pl.DataFrame]) -> dict[Hashable, set[str]]:
    """Each profile's own technical words: its skills, tags, and the project part of its repositories'
    names. They are allowed in that profile's text only: a word one profile calls a project ("jordan")
    may be a person in another's."""
    words: dict[Hashable, set[str]] = defaultdict(set)
    for profile_id, skill in frames["skills"].select("profile_id", "skill").drop_nulls().iter_rows():
        words[profile_id].add(skill)
    contributions = frames["contributions"].select("profile_id", "repository", "tags")
    for profile_id, repository, tags in contributions.iter_rows():
        if repository:
            words[profile_id].add(repository.rpartition("/")[2])
        words[profile_id].update(tag for tag in tags or () if tag)
    return dict(words)


def _count_changes(
    action: ColumnAction, before: dict[str, pl.DataFrame], after: dict[str, pl.DataFrame]
) -> ColumnAction:
    if action.action in ("drop", "keep"):
        return action
    old = before[action.table].get_column(action.column)
    new = after[action.table].get_column(action.column)
    if old.dtype != new.dtype:
        return ColumnAction(action.table, action.column, action.action, action.values, action.values)
    changed = int((old.ne_missing(new)).sum())
    return ColumnAction(action.table, action.column, action.action, action.values, changed)


def scrub_frame(
    frame: pl.DataFrame, text_columns: list[str], rules: PrivacyRules, keys: Keyring
) -> tuple[pl.DataFrame, Counter[str]]:
    """Scrub free-text columns of any table; each row is one record (a name found anywhere in the row is
    replaced everywhere in it). Row order, other columns and dtypes are kept; nulls stay null."""
    items: list[tuple[Hashable, str]] = []
    places: list[tuple[str, int]] = []
    for column in text_columns:
        for row, value in enumerate(frame.get_column(column).to_list()):
            if value is not None:
                items.append((row, value))
                places.append((column, row))
    result = scrubber_for(rules, keys).scrub(items)
    columns = {column: frame.get_column(column).to_list() for column in text_columns}
    for (column, row), text in zip(places, result.texts, strict=True):
        columns[column][row] = text
    scrubbed = frame.with_columns(
        pl.Series(column, values, dtype=pl.String) for column, values in columns.items()
    )
    return scrubbed, result.entities

"""The data contract: the parsed tables, their columns and dtypes, and the ProfileSet that holds them.

Every table is keyed by `profile_id`, except `rejects`, which describes inputs that produced no profile.
Dates have month precision: "Aug 2019" is stored as 2019-08-01. Nulls mean "the source does not say".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields

import polars as pl

Schema = Mapping[str, pl.DataType]

PROFILES: Schema = {
    "profile_id": pl.String(),
    "source": pl.String(),
    "layout": pl.String(),
    "encoding": pl.String(),
    "name": pl.String(),
    "headline": pl.String(),
    "title": pl.String(),
    "employer": pl.String(),
    "location": pl.String(),
    "city": pl.String(),
    "region": pl.String(),
    "country": pl.String(),
    "summary": pl.String(),
    "badges": pl.List(pl.String()),
    "coding_years": pl.Int32(),
    "employment_years": pl.Int32(),
    "spoken_languages": pl.List(pl.String()),
    "declared_skills": pl.Int32(),
    "declared_programming_languages": pl.Int32(),
    "declared_contributions": pl.Int32(),
    "unparsed_lines": pl.List(pl.String()),
    "contacts": pl.List(pl.String()),
    "other_people": pl.List(pl.String()),
    "skipped_files": pl.List(pl.String()),
}
EDUCATION: Schema = {
    "profile_id": pl.String(),
    "degree": pl.String(),
    "field": pl.String(),
    "institution": pl.String(),
}
SKILLS: Schema = {
    "profile_id": pl.String(),
    "kind": pl.String(),
    "skill": pl.String(),
    "score": pl.Int32(),
}
CONTRIBUTIONS: Schema = {
    "profile_id": pl.String(),
    "repository": pl.String(),
    "description": pl.String(),
    "start": pl.Date(),
    "end": pl.Date(),
    "role": pl.String(),
    "commits": pl.Int64(),
    "duration_months": pl.Int32(),
    "summary": pl.String(),
    "tags": pl.List(pl.String()),
}
EXPERIENCE: Schema = {
    "profile_id": pl.String(),
    "position": pl.Int32(),
    "title": pl.String(),
    "organization": pl.String(),
    "supervisor": pl.String(),
    "bullets": pl.List(pl.String()),
    "start": pl.Date(),
    "end": pl.Date(),
}
AWARDS: Schema = {
    "profile_id": pl.String(),
    "title": pl.String(),
    "issuer": pl.String(),
}
REJECTS: Schema = {
    "source": pl.String(),
    "reason": pl.String(),
    "detail": pl.String(),
}

TABLE_SCHEMAS: dict[str, Schema] = {
    "profiles": PROFILES,
    "education": EDUCATION,
    "skills": SKILLS,
    "contributions": CONTRIBUTIONS,
    "experience": EXPERIENCE,
    "awards": AWARDS,
    "rejects": REJECTS,
}
"""Table name -> schema, in the order tables are written and reported."""

TERMS_TABLE = "terms"
TERMS: Schema = {
    "profile_id": pl.String(),
    "term": pl.String(),
}
"""A release's table that no input has: the technical terms a person's free text mentions (`term`: the
allowed term as the vocabulary writes it, lower-cased), one row per person and term, in order of first
mention. Made from the scrubbed text by the k-anonymous text pass (`toolkit.risk.runs`), so that
analysts keep what a bio is about where its words are cut."""

SKILL_KINDS = ("github_skill", "programming_language", "listed_skill")


def other_people(profiles: pl.DataFrame, experience: pl.DataFrame) -> pl.DataFrame:
    """(profile_id, name) for every other person a record names: its supervisors, and the referees,
    recommenders and former names that structured formats state (`profiles.other_people`)."""
    frames = [experience.select("profile_id", pl.col("supervisor").alias("name"))]
    if "other_people" in profiles.columns:
        stated = profiles.select("profile_id", pl.col("other_people").alias("name")).explode("name")
        frames.append(stated.cast({"name": pl.String}))
    return pl.concat(frames).drop_nulls()


def empty_frame(table: str) -> pl.DataFrame:
    """An empty frame of `table` with its contract schema."""
    return pl.DataFrame(schema=dict(TABLE_SCHEMAS[table]))


@dataclass(frozen=True)
class ProfileSet:
    """The parsed tables of a batch of inputs, one Polars frame per contract table."""

    profiles: pl.DataFrame
    education: pl.DataFrame
    skills: pl.DataFrame
    contributions: pl.DataFrame
    experience: pl.DataFrame
    awards: pl.DataFrame
    rejects: pl.DataFrame

    @classmethod
    def from_frames(cls, frames: Mapping[str, pl.DataFrame]) -> ProfileSet:
        """Build from a mapping of table name to frame; missing tables become empty frames."""
        unknown = set(frames) - set(TABLE_SCHEMAS)
        if unknown:
            raise ValueError(f"unknown tables: {sorted(unknown)}")
        return cls(**{name: frames.get(name, empty_frame(name)) for name in TABLE_SCHEMAS})

    def tables(self) -> Iterator[tuple[str, pl.DataFrame]]:
        """(name, frame) pairs in contract order."""
        for field in fields(self):
            yield field.name, getattr(self, field.name)

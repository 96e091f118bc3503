"""Valid tables to plant defects in: parsed from fictional documents, cleaned of the generator's
deliberate warnings (declared counts that disagree, degrees written twice)."""

from __future__ import annotations

import polars as pl

from toolkit.parse import parse_bytes
from toolkit.parse.collect import collect
from toolkit.rules import load_parsing_rules
from tools.profiles import profiles


def valid_tables() -> dict[str, pl.DataFrame]:
    """A talent page first (row 0 of profiles, with skills, contributions and education), then others."""
    rules = load_parsing_rules()
    docs = [doc for doc in profiles(40, seed=21) if doc.layout == "talent_page"][:3]
    docs += [doc for doc in profiles(40, seed=21) if doc.layout == "resume"][:2]
    tables = collect(parse_bytes(f"doc{i}.txt", doc.text.encode(), rules) for i, doc in enumerate(docs))
    frames = dict(tables.tables())
    skills, contributions = frames["skills"], frames["contributions"]

    def listed(children: pl.DataFrame, name: str) -> pl.Expr:
        counts = children.group_by("profile_id").len()
        return (
            pl.col("profile_id")
            .replace_strict(counts["profile_id"], counts["len"], default=0, return_dtype=pl.Int32)
            .alias(name)
        )

    frames["profiles"] = frames["profiles"].with_columns(
        pl.when(pl.col("layout") == "talent_page").then(expr).otherwise(None).alias(expr.meta.output_name())
        for expr in (
            listed(skills.filter(pl.col("kind") == "github_skill"), "declared_skills"),
            listed(skills.filter(pl.col("kind") == "programming_language"), "declared_programming_languages"),
            listed(contributions, "declared_contributions"),
        )
    )
    frames["education"] = frames["education"].with_columns(
        pl.col("field").str.split(", ").list.first().alias("field")
    )
    assert frames["profiles"]["layout"][0] == "talent_page"
    assert frames["awards"].height > 0
    assert frames["experience"].height > 0
    return frames

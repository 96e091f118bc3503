"""Turn parsed documents and rejects into the contract's Polars frames."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import polars as pl

from toolkit.model import TABLE_SCHEMAS, ProfileSet, Schema
from toolkit.parse.document import Document, ParsedProfile, Reject, Row

_CHILD_TABLES = ("education", "skills", "contributions", "experience", "awards")


def collect(results: Iterable[tuple[Document, ParsedProfile] | Reject]) -> ProfileSet:
    """One frame per table, rows in input order; a column a layout does not fill is null."""
    rows: dict[str, list[Row]] = {name: [] for name in TABLE_SCHEMAS}
    for result in results:
        if isinstance(result, Reject):
            rows["rejects"].append(
                {"source": result.source, "reason": str(result.reason), "detail": result.detail}
            )
            continue
        doc, parsed = result
        rows["profiles"].append(
            {
                **parsed.profile,
                "profile_id": doc.profile_id,
                "source": doc.source,
                "encoding": doc.encoding,
                "unparsed_lines": parsed.unparsed_lines,
                "contacts": parsed.contacts,
                "other_people": parsed.other_people,
                "skipped_files": parsed.skipped_files,
            }
        )
        for table in _CHILD_TABLES:
            rows[table].extend({**row, "profile_id": doc.profile_id} for row in getattr(parsed, table))
    return ProfileSet.from_frames({name: _frame(rows[name], TABLE_SCHEMAS[name]) for name in TABLE_SCHEMAS})


def _frame(rows: Sequence[Row], schema: Schema) -> pl.DataFrame:
    columns = {name: [row.get(name) for row in rows] for name in schema}
    return pl.DataFrame(columns, schema=dict(schema))

"""Delimited tables (CSV, TSV and their `;` and `|` cousins) read strictly, every cell as text.

    read_delimited(path, delimiter="auto") -> polars.DataFrame
        The table: its header's names as columns, every column `pl.String`, an empty cell null. Blank lines
        are skipped. Raises `TableError` (a `UsageError`) whose message names the file and the line:
        `a.csv: line 4: 3 fields where the header has 2`.
    read_table(path, delimiter="auto") -> Table
        The same, with the line of the file where each data row starts (`Table.lines`, 1-based) and the
        delimiter used.
    resolve_delimiter(path, delimiter="auto") -> str
        The delimiter `read_delimited` would use.

`delimiter` is one of `,` `;` `|` and a tab (`\\t`, also accepted as the two characters `\\t` or the word
`tab`), or `auto`: `csv.Sniffer` chooses among those four on the first lines, and when it cannot tell (or
picks one the header does not hold) a `.tsv` file is read with tabs and any other with commas.

Refused, never guessed: a row with more or fewer fields than the header, a header that names a column twice
(a silent rename to `email_duplicated_0` would hide which column is which), a quote that is never closed,
bytes that are not UTF-8 (a byte-order mark is allowed).
"""

from __future__ import annotations

import csv
import io
import sys
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from toolkit.errors import UsageError

DELIMITERS = (",", ";", "\t", "|")
"""The delimiters `read_delimited` accepts, and the ones `auto` chooses among."""
DELIMITER_NAMES = {"auto": "auto", "tab": "\t", "\\t": "\t"} | {d: d for d in DELIMITERS}
"""What `delimiter` may be, and the delimiter each stands for (`auto` for sniffing)."""
_SNIFFED_LINES = 50


class TableError(UsageError):
    """A delimited file that cannot be read as a table; the message names the file and, where there is
    one, the line."""

    def __init__(self, path: Path | str, line: int | None, problem: str) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem
        super().__init__(f"{path}: line {line}: {problem}" if line is not None else f"{path}: {problem}")


@dataclass(frozen=True)
class Table:
    frame: pl.DataFrame
    lines: tuple[int, ...]
    """The 1-based line of the file where each data row starts (a quoted cell may span several lines)."""
    delimiter: str


def read_delimited(path: Path | str, delimiter: str = "auto") -> pl.DataFrame:
    """The table of a delimited file, every column as text (see the module's documentation)."""
    return read_table(path, delimiter).frame


def resolve_delimiter(path: Path | str, delimiter: str = "auto") -> str:
    """`delimiter` itself, or for `auto` the one sniffed from the file's first lines."""
    chosen = DELIMITER_NAMES.get(delimiter)
    if chosen is None:
        raise UsageError(f"delimiter {delimiter!r} is not one of: auto , ; | tab")
    if chosen != "auto":
        return chosen
    return _sniff(Path(path), _text(Path(path)))


def read_table(path: Path | str, delimiter: str = "auto") -> Table:
    """The table of a delimited file with the line where each row starts (see the module's documentation)."""
    path = Path(path)
    chosen = DELIMITER_NAMES.get(delimiter)
    if chosen is None:
        raise UsageError(f"delimiter {delimiter!r} is not one of: auto , ; | tab")
    text = _text(path)
    if chosen == "auto":
        chosen = _sniff(path, text)
    header, header_line, rows, lines = _records(path, text, chosen)
    seen: dict[str, int] = {}
    for number, name in enumerate(header, start=1):
        if name in seen:
            raise TableError(
                path,
                header_line,
                f"the header names column {name!r} twice (fields {seen[name]} and {number})",
            )
        seen[name] = number
    columns: list[list[str | None]] = [[] for _ in header]
    for row in rows:
        for index, cell in enumerate(row):
            columns[index].append(cell if cell != "" else None)
    frame = pl.DataFrame(
        {name: pl.Series(name, values, dtype=pl.String) for name, values in zip(header, columns, strict=True)}
    )
    return Table(frame, tuple(lines), chosen)


def _text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TableError(path, line, "not UTF-8 text") from None


def _sniff(path: Path, text: str) -> str:
    fallback = "\t" if path.suffix.lower() == ".tsv" else ","
    sample = "".join(text.splitlines(keepends=True)[:_SNIFFED_LINES])
    if not sample.strip():
        return fallback
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        return fallback
    header = sample.splitlines()[0]
    return sniffed if sniffed in header else fallback


def _records(path: Path, text: str, delimiter: str) -> tuple[list[str], int, list[list[str]], list[int]]:
    """The header and its line, the data rows and the line where each starts; blank lines are skipped."""
    limit = csv.field_size_limit()
    csv.field_size_limit(sys.maxsize)  # a long text cell is data, not an error
    try:
        return _strict_records(path, text, delimiter)
    finally:
        csv.field_size_limit(limit)


def _strict_records(
    path: Path, text: str, delimiter: str
) -> tuple[list[str], int, list[list[str]], list[int]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    header_line = 1
    rows: list[list[str]] = []
    lines: list[int] = []
    while True:
        start = reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if "unexpected end of data" in str(exc):
                raise TableError(path, start, "a quoted cell is never closed") from None
            raise TableError(path, reader.line_num, str(exc)) from None
        if not record:
            continue
        if header is None:
            header, header_line = record, start
        elif len(record) != len(header):
            raise TableError(path, start, f"{_fields(len(record))} where the header has {len(header)}")
        else:
            rows.append(record)
            lines.append(start)
    return header or [], header_line, rows, lines


def _fields(count: int) -> str:
    return f"{count} field" if count == 1 else f"{count} fields"

"""`toolkit.tabular`: delimited tables read strictly, every cell as text, errors naming the file and line."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from toolkit.errors import UsageError
from toolkit.tabular import TableError, read_delimited, read_table, resolve_delimiter


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize(
    ("name", "text", "delimiter"),
    [
        ("a.csv", "id;text\n1;Hello, Ada\n2;Bye, Ada\n", ";"),
        ("a.csv", 'id,text\n1,"Hello; Ada"\n2,Bye\n', ","),
        ("a.csv", "id|text\n1|Hello, Ada\n", "|"),
        ("a.csv", "id\ttext\n1\tHello, Ada\n", "\t"),
        ("a.tsv", "id\ttext\n1\tHello, Ada\n", "\t"),
        ("a.csv", "bio\nWorked with Ada Byron on Kafka; twice.\n", ","),  # one column: the extension's
        ("a.tsv", "bio\nWorked with Ada Byron, twice.\n", "\t"),
        ("a.csv", "", ","),
    ],
)
def test_auto_sniffs_among_four_delimiters_and_falls_back_by_extension(
    tmp_path: Path, name: str, text: str, delimiter: str
) -> None:
    path = _file(tmp_path, name, text)
    assert resolve_delimiter(path) == delimiter
    assert read_table(path).delimiter == delimiter


def test_cells_are_text_with_nulls_for_empty_cells_and_lines_where_rows_start(tmp_path: Path) -> None:
    path = _file(tmp_path, "a.csv", '\ufeffid;note\n\n007;"two\nlines"\n8;\n')
    table = read_table(path)
    assert table.frame.schema == pl.Schema({"id": pl.String, "note": pl.String})
    assert table.frame.rows() == [("007", "two\nlines"), ("8", None)]
    assert table.lines == (3, 5)  # a blank line is skipped; a quoted cell spans lines 3 and 4
    assert read_delimited(path).equals(table.frame)


def test_an_explicit_delimiter_is_used_as_given(tmp_path: Path) -> None:
    path = _file(tmp_path, "a.csv", "id;text\n1;a,b\n")
    assert read_delimited(path, ";").columns == ["id", "text"]
    assert read_delimited(path, "tab").rows() == [("1;a,b",)]
    with pytest.raises(TableError, match="line 2: 2 fields where the header has 1"):
        read_delimited(path, ",")
    with pytest.raises(UsageError, match="delimiter ':' is not one of"):
        read_delimited(path, ":")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a,b\n1,2\n1,2,3\n", "a.csv: line 3: 3 fields where the header has 2"),
        ("a,b\n1,2\n\n1\n", "a.csv: line 4: 1 field where the header has 2"),
        ("email,name,email\nada@example.org,Ada,x\n", "a.csv: line 1: the header names column 'email' twice"),
        ('a,b\n1,2\n3,"never closed\n4,5\n', "a.csv: line 3: a quoted cell is never closed"),
        ('a,b\n1,"x"y\n', "a.csv: line 2: "),
    ],
)
def test_a_table_that_is_not_one_is_refused_naming_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = _file(tmp_path, "a.csv", text)
    with pytest.raises(TableError) as raised:
        read_delimited(path)
    assert str(raised.value).startswith(f"{path.parent}/{message}")
    assert "\n" not in str(raised.value)
    assert isinstance(raised.value, UsageError)


def test_bytes_that_are_not_utf8_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"a,b\n1,2\n3,\xff\n")
    with pytest.raises(TableError, match=r"a\.csv: line 3: not UTF-8 text$"):
        read_delimited(path)


def test_long_cells_are_data(tmp_path: Path) -> None:
    path = _file(tmp_path, "a.csv", "bio\n" + "x" * 300_000 + "\n")
    assert read_delimited(path).get_column("bio").str.len_chars().to_list() == [300_000]

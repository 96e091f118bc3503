"""The card tells the truth: what it says each column holds, the tokens it explains and the shares in its
banner are compared with the released files, read here with plain Polars and `re` (no toolkit code), on the
sample data; the cells before the risk pass are counted in releases made without it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml

from tests.conftest import pseudonymizing_rules
from toolkit.card import percent
from toolkit.cli import main

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "sample_data"
TOKEN = re.compile(r"<[A-Z][A-Z_]*?(?:_[0-9a-f]{8})?>")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("truth") / "release"
    assert main(["run", str(SAMPLE), "--out", str(out), "--jobs", "1"]) in (0, 1)
    return out


@pytest.fixture(scope="module")
def unguarded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Neither pass: the contract's columns as scrubbing and verification leave them."""
    folder = tmp_path_factory.mktemp("unguarded")
    rules = pseudonymizing_rules(folder / "rules")
    out = folder / "release"
    assert main(["run", str(SAMPLE), "--out", str(out), "--jobs", "1", "--rules", str(rules)]) in (0, 1)
    return out


def _tables(folder: Path) -> dict[str, pl.DataFrame]:
    return {path.stem: pl.read_parquet(path) for path in sorted(folder.glob("*.parquet"))}


def _texts(series: pl.Series) -> list[str]:
    if series.dtype == pl.List(pl.String):
        return [text for texts in series.drop_nulls().to_list() for text in texts if text is not None]
    if series.dtype == pl.String:
        return list(series.drop_nulls().to_list())
    return []


def _token_counts(series: pl.Series) -> dict[str, int]:
    counts: dict[str, int] = {}
    for text in _texts(series):
        for token in TOKEN.findall(text):
            form = re.sub(r"_[0-9a-f]{8}>$", "_…>", token)
            counts[form] = counts.get(form, 0) + 1
    return counts


def _unescape(cell: str) -> str:
    return re.sub(r"\\(.)", r"\1", cell.strip())


def _column_rows(card: str) -> dict[str, dict[str, str]]:
    """`table.column` -> the cells of its row in the card's "What each column became" tables."""
    section = card.split("## What each column became", 1)[1].split("### Removed and empty columns", 1)[0]
    rows: dict[str, dict[str, str]] = {}
    table = ""
    header: list[str] = []
    for line in section.splitlines():
        if line.startswith("### "):
            table, header = line[4:].strip(), []
        elif line.startswith("| ") and not line.startswith("| ---"):
            cells = [_unescape(cell) for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not header:
                header = cells
            else:
                rows[f"{table}.{cells[0]}"] = dict(zip(header, cells, strict=True))
    return rows


def _said(values: int, rows: int, distinct: int, tokens: dict[str, int], cut: int) -> str:
    if not rows:
        return "no rows"
    if not values:
        return "no value: null in every row"
    said = [f"a value in {values} of {rows} rows, {distinct} distinct"]
    if tokens:
        said.append("tokens " + ", ".join(f"{form} ({count})" for form, count in sorted(tokens.items())))
    if cut:
        said.append(f"words cut (…) in {cut}")
    return "; ".join(said)


def test_every_column_row_says_what_the_released_file_holds(release: Path) -> None:
    card = (release / "README.md").read_text(encoding="utf-8")
    rows = _column_rows(card)
    checked = 0
    for table, frame in _tables(release).items():
        for column in frame.columns:
            series = frame.get_column(column)
            items = series.explode() if series.dtype == pl.List(pl.String) else series
            expected = _said(
                values=int(series.is_not_null().sum()),
                rows=frame.height,
                distinct=items.drop_nulls().n_unique(),
                tokens=_token_counts(series),
                cut=sum(1 for text in _texts(series) if "…" in text),
            )
            assert rows[f"{table}.{column}"]["In the release"] == expected, f"{table}.{column}"
            checked += 1
    assert checked > 40
    dropped = [name for name, cells in rows.items() if cells["Action"] == "drop"]
    assert dropped
    assert all(rows[name]["In the release"] == "not in the release" for name in dropped)


def test_every_token_in_the_data_is_explained_with_its_count(release: Path) -> None:
    card = (release / "README.md").read_text(encoding="utf-8")
    section = card.split("### Tokens in the data", 1)[1].split("\n## ", 1)[0]
    explained: dict[str, tuple[str, int]] = {}
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith(("| ---", "| Token")):
            form, meaning, count, _ = (_unescape(cell) for cell in re.split(r"(?<!\\)\|", line)[1:-1])
            explained[form] = (meaning, int(count))
    found: dict[str, int] = {}
    for frame in _tables(release).values():
        for column in frame.columns:
            for token, occurrences in _token_counts(frame.get_column(column)).items():
                found[token] = found.get(token, 0) + occurrences
    assert found, "the sample release holds tokens: this test must see some"
    assert {form: count for form, (_, count) in explained.items()} == found
    for form, (meaning, _) in explained.items():
        assert "a value of type" not in meaning, f"{form} is not explained"


def test_empty_columns_are_the_columns_null_in_every_row(release: Path) -> None:
    card = (release / "README.md").read_text(encoding="utf-8")
    said = card.split("In the release, but null in every row: ", 1)[1].split("\n", 1)[0]
    listed = {_unescape(part).split(" (", 1)[0] for part in re.split(r"\), ", said)}
    empty = {
        f"{table}.{column}"
        for table, frame in _tables(release).items()
        if frame.height
        for column in frame.columns
        if frame.get_column(column).is_not_null().sum() == 0
    }
    assert listed == empty


def _cells(tables: dict[str, pl.DataFrame], columns: list[str]) -> int:
    total = 0
    for name in columns:
        table, _, column = name.partition(".")
        if table in tables and column in tables[table].columns:
            total += int(tables[table].get_column(column).is_not_null().sum())
    return total


def test_the_banner_shares_match_the_files(release: Path, unguarded: Path) -> None:
    views = yaml.safe_load((REPO / "rules" / "risk.yaml").read_text(encoding="utf-8"))["views"]
    columns = [column for view in views.values() for column in view["columns"]]
    terms = [column for column in columns if column.startswith("terms.")]
    report: dict[str, Any] = json.loads((release / "report.json").read_text(encoding="utf-8"))
    cells = report["release"]["quasi_identifiers"]
    released = _cells(_tables(release), columns)
    assert cells["cells_released"] == released
    # Before the risk pass: the contract's columns as a release without the passes holds them; the terms
    # table's rows (made by the text pass) are the ones released, those of persons the risk pass
    # suppressed, and those its view withheld (some of which may be a suppressed person's too).
    before = cells["cells_before"]
    terms_before = before - _cells(_tables(unguarded), [column for column in columns if column not in terms])
    private = release.with_name(release.name + ".private") / "risk_suppressed"
    kept_or_gone = _cells(_tables(release), terms) + _cells(_tables(private), terms)
    withheld_terms = report["risk"]["views"]["text_terms"]["rows_withheld"]
    assert kept_or_gone <= terms_before <= kept_or_gone + withheld_terms
    actions = {f"{c['table']}.{c['column']}": c["action"] for c in report["privacy"]["columns"]}
    free_text = {name for name, action in actions.items() if action == "scrub" or action.startswith("keep:")}
    words = [
        (entry.get("words_kept", 0), entry.get("words_cut", 0))
        for column, entry in report["text"]["columns"].items()
        if column in free_text  # the banner counts the words of free text, not of codes ('utf-8')
    ]
    kept_words, cut_words = sum(kept for kept, _ in words), sum(cut for _, cut in words)
    withheld = (before - released) / before
    for name in ("README.md", "report.html"):
        card = (release / name).read_text(encoding="utf-8")
        assert f"{withheld * 100:.1f}%".replace(".0%", "%") + " of the quasi-identifier cells" in card
        assert f"{before - released} of the {before} cells" in card
        assert f"{cut_words / (kept_words + cut_words) * 100:.1f}%".replace(".0%", "%") in card
        assert ("A release this small keeps little" in card) == (withheld > 0.5)


def test_each_views_cells_match_the_files(release: Path, unguarded: Path) -> None:
    views = yaml.safe_load((REPO / "rules" / "risk.yaml").read_text(encoding="utf-8"))["views"]
    report: dict[str, Any] = json.loads((release / "report.json").read_text(encoding="utf-8"))
    cells = report["release"]["quasi_identifiers"]
    assert set(cells["views"]) == set(views)
    for name, view in views.items():
        figures = cells["views"][name]
        assert figures["cells_released"] == _cells(_tables(release), view["columns"])
        if not any(column.startswith("terms.") for column in view["columns"]):  # the terms: see above
            assert figures["cells_before"] == _cells(_tables(unguarded), view["columns"])
        share = figures["cells_released"] / figures["cells_before"] if figures["cells_before"] else None
        assert figures["informative"] == (round(share, 4) if share is not None else None)
        shown = percent(share) if share is not None else "-"
        row = next(line for line in (release / "README.md").read_text(encoding="utf-8").splitlines()
                   if line.startswith(f"| {name} |") and line.count("|") == 10)  # the views' table  # fmt: skip
        assert row.rstrip(" |").endswith(shown)
    assert sum(figures["cells_released"] for figures in cells["views"].values()) == cells["cells_released"]

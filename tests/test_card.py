"""The release card (toolkit/card.py) rendered from real reports of `toolkit run` on the sample data, with
the risk pass on and off: its HTML structure and chart, its Markdown tables, that no personal value of the
data reaches it, that odd names are escaped, and what a real browser makes of the page."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from tests.conftest import pseudonymizing_rules
from toolkit.card import explain_step, md_escape, percent, render_card
from toolkit.cli import main
from toolkit.rules import SPAN_ADJUSTERS

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "sample_data"
SVG = "http://www.w3.org/2000/svg"


def _run(out: Path, *options: str) -> dict[str, Any]:
    assert main(["run", str(SAMPLE), "--out", str(out), "--jobs", "1", *options]) in (0, 1)
    envelope: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    private = json.loads((out.with_name(out.name + ".private") / "report.json").read_text(encoding="utf-8"))
    envelope["private_findings"] = private["quality"]["findings"]  # with their examples, for the test
    return envelope


@pytest.fixture(scope="module")
def envelope(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The release report of the sample data, risk pass on."""
    return _run(tmp_path_factory.mktemp("card") / "release")


@pytest.fixture(scope="module")
def envelope_off(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The release report of the sample data with the risk pass off (pseudonymized only)."""
    folder = tmp_path_factory.mktemp("card_off")
    rules = pseudonymizing_rules(folder / "rules")
    return _run(folder / "release", "--rules", str(rules))


@pytest.fixture(scope="module")
def card(envelope: dict[str, Any]) -> dict[str, str]:
    return render_card(envelope)


@pytest.fixture(scope="module")
def card_off(envelope_off: dict[str, Any]) -> dict[str, str]:
    return render_card(envelope_off)


# --- a small tree of the page, from the standard library's HTML parser ---------------------------------

_VOID = frozenset({"meta", "br", "wbr", "hr", "img", "link", "input"})


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def iter(self, tag: str | None = None, cls: str | None = None) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                if (tag is None or child.tag == tag) and (cls is None or cls in child.classes):
                    yield child
                yield from child.iter(tag, cls)

    def find(self, tag: str, cls: str | None = None) -> list[Node]:
        return list(self.iter(tag, cls))

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        assert tag in [node.tag for node in self.stack], f"</{tag}> closes nothing"
        while self.stack.pop().tag != tag:
            pass

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(text: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    assert builder.stack == [builder.root], "unclosed elements: " + ", ".join(
        n.tag for n in builder.stack[1:]
    )
    return builder.root


def rows_of(table: Node) -> list[list[str]]:
    """The body rows of a table, as the text of their cells."""
    return [
        [cell.text().strip() for cell in row.find("td")]
        for body in table.find("tbody")
        for row in body.find("tr")
    ]


def percent_in(text: str) -> float:
    match = re.search(r"(\d+(?:\.\d+)?)%", text)
    assert match, text
    return float(match.group(1)) / 100


# --- HTML ---------------------------------------------------------------------------------------------


def test_html_lists_every_table_with_its_rows(card: dict[str, str], envelope: dict[str, Any]) -> None:
    (table,) = parse_html(card["report.html"]).find("table", "tables")
    assert {name: int(rows) for name, rows in rows_of(table)} == envelope["release"]["tables"]
    assert sum(envelope["release"]["tables"].values()) > 0


def test_html_gives_every_column_its_action(card: dict[str, str], envelope: dict[str, Any]) -> None:
    page = parse_html(card["report.html"])
    shown = {
        (table.attrs["data-table"], row[0], row[1])
        for table in page.find("table", "columns")
        for row in rows_of(table)
    }
    expected = {
        (column["table"], column["column"], column["action"]) for column in envelope["privacy"]["columns"]
    }
    made_by_the_text_pass = {("terms", "profile_id", "-"), ("terms", "term", "-")}
    assert shown == expected | made_by_the_text_pass
    actions = {action.partition(":")[0] for _, _, action in expected}
    assert {"keep", "drop", "pseudonymize", "generalize", "scrub"} <= actions
    (removed,) = [section.text() for section in page.find("section") if section.attrs["id"] == "columns"]
    for column in envelope["privacy"]["columns"]:
        if column["action"] == "drop":
            assert f"{column['table']}.{column['column']}" in removed


def test_html_charts_each_view_before_and_after(card: dict[str, str], envelope: dict[str, Any]) -> None:
    page = parse_html(card["report.html"])
    (svg,) = page.find("svg")
    assert svg.attrs["xmlns"] == SVG
    views = envelope["risk"]["views"]
    groups = svg.find("g", "view")
    assert [group.attrs["data-view"] for group in groups] == list(views)
    for group in groups:
        view = views[group.attrs["data-view"]]
        bars = group.find("rect", "bar")
        assert [bar.attrs["data-when"] for bar in bars] == ["before", "after"]
        for bar in bars:
            when = bar.attrs["data-when"]
            share = view[when]["below_target"]
            (title,) = bar.find("title")
            assert f"below k={view['k']} {when}" in title.text()
            assert percent_in(title.text()) == pytest.approx(share, abs=0.00051)  # shown to 0.1%
            (label,) = [text for text in group.find("text", "value") if text.attrs["data-when"] == when]
            assert percent_in(label.text()) == pytest.approx(share, abs=0.00051)
            assert float(bar.attrs["width"]) >= 2
        assert float(bars[0].attrs["width"]) >= float(bars[1].attrs["width"]) or (
            view["before"]["below_target"] < view["after"]["below_target"]
        )
    table = page.find("table", "views")[0]
    assert [row[0] for row in rows_of(table)] == list(views)


def test_html_is_standalone(card: dict[str, str], card_off: dict[str, str]) -> None:
    for page in (card["report.html"], card_off["report.html"]):
        tree = parse_html(page)
        assert not tree.find("script")
        assert not tree.find("link")
        assert not tree.find("img")
        assert not re.search(r"(?:src|href)\s*=|url\(|@import|https?://(?!www\.w3\.org/2000/svg)", page)


def test_an_anonymized_card_says_so(card: dict[str, str], envelope: dict[str, Any]) -> None:
    text = parse_html(card["report.html"]).text()
    said = f"Anonymized release of {envelope['release']['tables']['profiles']} persons."
    assert said in text
    assert "not anonymized" not in text
    assert said in card["README.md"]


def test_a_card_without_the_risk_pass_says_pseudonymized_and_draws_no_chart(
    card_off: dict[str, str], envelope_off: dict[str, Any]
) -> None:
    assert envelope_off["risk"] == {"ran": False}
    page = parse_html(card_off["report.html"])
    assert "pseudonymized, not anonymized" in " ".join(page.text().split())
    assert "pseudonymized, not anonymized" in card_off["README.md"]
    assert not page.find("svg")
    assert "<svg" not in card_off["report.html"]
    assert "Anonymized release" not in card_off["README.md"]


def test_pseudonyms_say_whether_they_link(card: dict[str, str], envelope: dict[str, Any]) -> None:
    assert envelope["privacy"]["key"]["linkable_across_runs"] is False
    assert "do not link across releases" in card["README.md"]
    linked = copy.deepcopy(envelope)
    linked["privacy"]["key"] = {"source": "TOOLKIT_SECRET", "linkable_across_runs": True}
    assert "link across releases" in render_card(linked)["README.md"]
    assert "do not link" not in render_card(linked)["README.md"]


def test_units_switched_off_in_the_rules_are_named(card: dict[str, str], envelope: dict[str, Any]) -> None:
    assert envelope["privacy"]["switched_off"] == {}
    assert envelope["privacy"]["span_filters"]["allowed_words"] > 0
    adjusted = envelope["privacy"]["span_adjusters"]
    assert list(adjusted) == list(SPAN_ADJUSTERS)
    assert adjusted["surname_after_a_name"] > 0
    found_by = envelope["privacy"]["recognizers"]
    assert found_by["NER"] > 0
    assert found_by["first_name_gazetteer"] > 0
    assert min(found_by.values()) > 0
    assert "Switched off" not in card["README.md"]
    off = copy.deepcopy(envelope)
    off["privacy"]["switched_off"] = {
        "recognizers": ["iban", "url"],
        "span_filters": ["english_words"],
        "span_adjusters": ["phone_extension"],
    }
    rendered = render_card(off)
    for page in (rendered["README.md"], rendered["report.html"]):
        assert "Switched off in the rules" in page
        assert "recognizers iban, url; span filters english" in page
        assert "span adjusters phone" in page


# --- no personal value --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def personal_values(tmp_path_factory: pytest.TempPathFactory, envelope: dict[str, Any]) -> set[str]:
    """Names, places and supervisors of the parsed sample data, whole and word by word, and the (masked)
    examples of the report's quality findings."""
    parsed = tmp_path_factory.mktemp("parsed")
    assert main(["parse", str(SAMPLE), "--out", str(parsed)]) == 0
    profiles = pl.read_parquet(parsed / "profiles.parquet")
    experience = pl.read_parquet(parsed / "experience.parquet")
    values = {
        value
        for series in (profiles["name"], profiles["location"], profiles["city"], experience["supervisor"])
        for value in series.drop_nulls().to_list()
    }
    values |= {Path(source).name for source in profiles["source"].to_list()}
    words = {word for value in values for word in re.findall(r"\w{4,}", value) if word[0].isupper()}
    examples = {
        value
        for finding in envelope["private_findings"]
        for example in finding["examples"]
        for value in example.values()
        if isinstance(value, str)
    }
    assert len(values) > 20
    assert len(words) > 20
    assert examples
    return values | words | examples


def test_no_personal_value_in_the_card(
    card: dict[str, str], card_off: dict[str, str], personal_values: set[str]
) -> None:
    for rendered in (card, card_off):
        page = parse_html(rendered["report.html"])
        attributes = " ".join(value for node in page.iter() for value in node.attrs.values())
        for text in (rendered["README.md"], rendered["report.html"], page.text(), attributes):
            found = sorted(
                value for value in personal_values if re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text)
            )
            assert not found


def test_the_card_shows_no_pseudonym_of_a_suppressed_person(envelope: dict[str, Any]) -> None:
    suppressed = copy.deepcopy(envelope)
    suppressed["verification"]["suppressed"] = [{"profile_id": "p0123456789abcdef", "reason": "contact"}]
    suppressed["verification"]["persons_suppressed"] = 1
    suppressed["inputs"] = ["/home/Ana Lima/cv.txt"]
    suppressed["rejects"] = [{"source": "/home/Ana Lima/cv.txt", "reason": "unreadable"}]
    for text in render_card(suppressed).values():
        assert "p0123456789abcdef" not in text
        assert "Ana Lima" not in text


# --- Markdown -----------------------------------------------------------------------------------------

_PIPE = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r"\|(?: *:?-{3,}:? *\|)+")


def markdown_tables(text: str) -> list[list[str]]:
    tables: list[list[str]] = []
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables


def assert_well_formed_tables(text: str) -> int:
    tables = markdown_tables(text)
    for table in tables:
        assert len(table) >= 3, table
        assert _SEPARATOR.fullmatch(table[1]), table[1]
        pipes = {len(_PIPE.findall(line)) for line in table}
        assert len(pipes) == 1, table
        assert all(line.endswith("|") and not line.endswith("\\|") for line in table)
    return len(tables)


def test_markdown_has_its_sections_and_well_formed_tables(
    card: dict[str, str], card_off: dict[str, str]
) -> None:
    headings = [line for line in card["README.md"].splitlines() if line.startswith("#")]
    assert headings[0] == "# Release card"
    for heading in (
        "## What this dataset is",
        "## What each column became",
        "### Removed and empty columns",
        "### Tokens in the data",
        "## Re-identification risk",
        "### Columns coarsened by the risk pass",
        "## Free text",
        "## Verification",
        "## Pseudonyms",
        "## Data quality",
        "## What remains at risk",
    ):
        assert heading in headings
    assert assert_well_formed_tables(card["README.md"]) >= 10
    assert assert_well_formed_tables(card_off["README.md"]) >= 8
    assert "### Columns coarsened by the risk pass" not in card_off["README.md"]


def test_markdown_lists_tables_columns_and_findings(card: dict[str, str], envelope: dict[str, Any]) -> None:
    text = card["README.md"]
    for table, rows in envelope["release"]["tables"].items():
        assert f"| {md_escape(table)} | {rows} |" in text
    for column in envelope["privacy"]["columns"]:
        assert f"| {md_escape(column['column'])} | {md_escape(column['action'])} |" in text
    for finding in envelope["quality"]["findings"]:
        assert f"| {md_escape(finding['rule'])} | {finding['severity']} | {finding['rows']} |" in text
    assert f"toolkit {envelope['tool']['version']}, report version {envelope['report_version']}" in text
    assert envelope["counts"]["export_files_not_read"] == {
        "other people's contacts": 5,
        "private messages": 5,
    }
    assert "never read into any table, by why: other people's contacts 5, private messages 5." in text
    html = card["report.html"]
    assert "never read into any table, by why: other people&#39;s contacts 5, private messages 5." in html


ODD = "a|b<i>c</i>`d`\nnext *e* _f_ [g](h) \\"


def test_odd_names_are_escaped(envelope: dict[str, Any]) -> None:
    odd = copy.deepcopy(envelope)
    odd["release"]["tables"][ODD] = 3
    odd["privacy"]["columns"].append(
        {"table": ODD, "column": ODD, "action": f"keep:{ODD}", "values": 1, "changed": 0}
    )
    odd["risk"]["views"][ODD] = odd["risk"]["views"]["github"]
    odd["quality"]["findings"].append(
        {"rule": ODD, "table": ODD, "column": ODD, "severity": "warning", "description": ODD, "rows": 1}
    )
    rendered = render_card(odd)
    markdown = rendered["README.md"]
    for markup in ("<i>", "`d`", "[g](h)", "*e*"):
        assert markup not in markdown
    assert assert_well_formed_tables(markdown) >= 10
    assert md_escape(ODD) in markdown
    page = rendered["report.html"]
    assert "<i>" not in page
    tree = parse_html(page)
    assert not tree.find("i")
    assert ODD in [table.attrs["data-table"] for table in tree.find("table", "columns")]
    assert ODD in [group.attrs["data-view"] for group in tree.find("g", "view")]


def test_md_escape() -> None:
    assert md_escape("profile_id") == "profile_id"
    assert md_escape("a|b") == "a\\|b"
    assert md_escape("<PERSON_1a2b3c4d>") == "\\<PERSON_1a2b3c4d\\>"
    assert md_escape("`x`") == "\\`x\\`"
    assert md_escape("_x_ *y*") == "\\_x\\_ \\*y\\*"
    assert md_escape("one\n two\r\nthree") == "one two three"
    assert md_escape(5) == 5


# --- runs without a release ---------------------------------------------------------------------------


def test_a_blocked_run_renders_and_says_no_release(envelope: dict[str, Any]) -> None:
    blocked = copy.deepcopy(envelope)
    blocked["release"] = {"written": False, "folder": "x", "tables": {}}
    blocked["verification"].update(blocked=True, persons_suppressed=3, suppression_budget=0)
    del blocked["risk"]["views"]
    rendered = render_card(blocked)
    assert "No release was written." in rendered["README.md"]
    assert "Verification kept 3 persons out" in rendered["README.md"]
    page = parse_html(rendered["report.html"])
    assert "No release was written." in page.text()
    assert not page.find("svg")
    assert assert_well_formed_tables(rendered["README.md"]) >= 5


def test_a_run_blocked_by_the_risk_pass_says_why(envelope: dict[str, Any]) -> None:
    blocked = copy.deepcopy(envelope)
    blocked["release"]["written"] = False
    blocked["risk"].update(suppressed=4, budget=1, target_met=False)
    text = render_card(blocked)["README.md"]
    assert "without suppressing 4 persons, more than the budget of 1" in text


def test_a_missing_key_is_an_error(envelope: dict[str, Any]) -> None:
    broken = copy.deepcopy(envelope)
    del broken["privacy"]["key"]
    with pytest.raises(KeyError):
        render_card(broken)


# --- a real browser -----------------------------------------------------------------------------------


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("TOOLKIT_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is not installed and TOOLKIT_REQUIRE_BROWSER=1")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def _browse(chromium: str, page: Path, profile: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = [
        chromium,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--window-size=1200,2000",
        *options,
        page.as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.mark.parametrize("which", ["card", "card_off"])
def test_a_browser_draws_the_page(which: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    chromium = _chromium()
    rendered: dict[str, str] = request.getfixturevalue(which)
    page = tmp_path / "report.html"
    page.write_text(rendered["report.html"], encoding="utf-8")
    shot = tmp_path / "card.png"
    _browse(chromium, page, tmp_path / "profile", f"--screenshot={shot}")
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 50_000
    dom = _browse(chromium, page, tmp_path / "profile", "--dump-dom").stdout
    assert "Release card" in dom
    if which == "card":
        assert re.search(r"<svg[^>]*class=\"chart\"", dom)
        assert dom.count('class="view"') == len(re.findall(r'class="view"', rendered["report.html"]))
    else:
        assert "<svg" not in dom
        assert "pseudonymized, not anonymized" in dom


@pytest.mark.parametrize(
    ("value", "escaped"),
    [
        ("~~gone~~", "\\~\\~gone\\~\\~"),
        ("&lt;b&gt;", "\\&lt;b\\&gt;"),
        ("ada@example.org", "ada\\@example.org"),
        ("see https://example.org", "see https\\://example.org"),
        ("www.example.org", "www\\.example.org"),
        ("keep:organisation", "keep:organisation"),
        ("profile_id", "profile_id"),
    ],
)
def test_markdown_values_show_as_themselves(value: str, escaped: str) -> None:
    assert md_escape(value) == escaped


@pytest.mark.parametrize(
    ("key", "shown", "meaning"),
    [
        ("persons_per_step", "(6 persons released; 4 classify:industries; 3 withheld)", "person by person"),
        ("rows_per_step", "(6 rows released; 4 classify:industries; 3 withheld)", "row by row"),
    ],
)
def test_a_locally_recoded_column_shows_its_persons_or_rows_per_step(
    envelope: dict[str, Any], key: str, shown: str, meaning: str
) -> None:
    local = copy.deepcopy(envelope)
    column = local["risk"]["columns"]["profiles.employer"]
    step = "local:rows" if key == "rows_per_step" else "local"
    column.update({"step": step, key: {"released": 6, "classify:industries": 4, "withheld": 3}})
    card = render_card(local)
    for page in ("README.md", "report.html"):
        assert shown in card[page]
        assert f"coarsened {meaning}" in card[page]


@pytest.mark.parametrize(
    ("step", "meaning"),
    [
        ("classify:regions", "replaced by its group (regions)"),
        (
            "classify:title_seniority+title_function",
            "replaced by its group (title_seniority, title_function)",
        ),
        ("classify:regions of previous", "replaced by the group of the previous step's label (regions)"),
        (
            "classify:repository_categories of contributions.tags",
            "replaced by the group of the row's contributions.tags (repository_categories)",
        ),
        ("band:1,10", "numbers replaced by bands (edges 1, 10)"),
    ],
)
def test_each_step_is_said_in_plain_words(step: str, meaning: str) -> None:
    assert explain_step(step) == meaning


@pytest.mark.parametrize(
    ("view", "compares"),
    [
        ("github", "a person's whole list of contributions rows at once"),
        ("career", "a person's experience rows in their order"),
        ("awards", "a person's whole list of awards rows at once"),
        ("text_terms", "any two of a person's terms rows"),
        ("talent_site", "any two of a person's skills rows"),
        ("professional_network", "these columns of a person together"),
    ],
)
def test_each_view_says_what_it_compares(card: dict[str, str], view: str, compares: str) -> None:
    assert any(line.startswith(f"| {view} | {compares} |") for line in card["README.md"].splitlines())
    assert f'<td class="name">{view}</td><td>{compares}</td>' in card["report.html"].replace("&#39;", "'")


def test_the_card_says_what_lists_guarded_item_by_item_leave(
    card: dict[str, str], envelope: dict[str, Any]
) -> None:
    residual = {
        name: view["whole_list"] for name, view in envelope["risk"]["views"].items() if "whole_list" in view
    }
    assert set(residual) == {"talent_site", "text_terms"}
    for page in ("README.md", "report.html"):
        text = card[page].replace("<code>", "`").replace("</code>", "`")
        assert "What these views do not stop." in text
        for name, figures in residual.items():
            assert f"`{name}` leaves {percent(figures['below_target'])} of persons with a whole list" in text


def test_a_card_without_lists_guarded_item_by_item_says_nothing_of_them(envelope: dict[str, Any]) -> None:
    whole = copy.deepcopy(envelope)
    for view in whole["risk"]["views"].values():
        view.pop("whole_list", None)
    assert "What these views do not stop" not in render_card(whole)["README.md"]

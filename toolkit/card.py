"""The release card: a README.md and a report.html that an analyst reads before the data.

Both are rendered from the release's report envelope (`toolkit.report.job_envelope`) through an allow-list:
`card_facts` copies out the few fields a card shows (table and column names, actions, counts and risk
figures) and the templates see nothing else. The envelope's `inputs`, `rejects`, the examples of quality
findings, the release folder's path and the pseudonyms of suppressed persons never reach a template, so a
card holds no personal value even if the report around it does.

Every value is escaped: the HTML environment autoescapes, and the Markdown one escapes every `{{ }}`
output through `md_escape` (its `finalize`), so a table or column name cannot break a table or open a tag.
Templates use `StrictUndefined`: a fact the templates ask for and `card_facts` did not give is an error.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import Any

import jinja2
import markupsafe
import regex

from toolkit.model import TERMS_TABLE

TEMPLATES = {"README.md": "card.md.j2", "report.html": "card.html.j2"}

_MD_SPECIAL = regex.compile(
    r"[\\`*|<>\[\]~&@]|:(?=//)|(?<=\bwww)\.|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])", regex.IGNORECASE
)
"""Markdown's characters that can end a table cell, open a tag, a code span or an entity (`&lt;`), start a
strikethrough (`~~`), emphasis or an autolink (an e-mail's `@`, the `:` of `http://`, the dot of `www.`);
an underscore inside a word (`profile_id`) starts nothing in CommonMark and stays as it is, for legibility."""
_TERMS_COLUMN = f"{TERMS_TABLE}.term"
SMALL_RELEASE = 0.5
"""A release that withholds more than this share of its quasi-identifier cells is called small on its card,
which then quotes how much releases of more persons keep (`toolkit/data/retention.json`)."""
ENTITY_MEANINGS = {
    "PERSON": "a person's name",
    "LOCATION": "a place",
    "ORGANIZATION": "an organisation",
    "EMAIL_ADDRESS": "an e-mail address",
    "PHONE_NUMBER": "a phone number",
    "URL": "a web address",
    "IP_ADDRESS": "an IP address",
    "HANDLE": "a user name or handle",
    "CREDIT_CARD": "a payment card number",
    "IBAN_CODE": "a bank account number (IBAN)",
    "STREET_ADDRESS": "a street address",
    "DATE_OF_BIRTH": "a date of birth",
    "NATIONAL_ID": "an identity, tax or passport number",
    "AWARD": "an award, prize, scholarship or fellowship",
    "ORG": "an organisation, lab, school or company",
    "PROJECT": "a project, product or other named thing",
    "NUMBER": "a number",
    "WITHHELD": "a cell in which a contact was still found after scrubbing",
}
"""What each token type stands for, in the card's words (types of `rules/privacy.yaml`'s `text_entities`
and of `rules/risk.yaml`'s phrases)."""
_TEXT_MODES = {
    "k_anonymous": "text pass: runs of words fewer than k persons hold cut (…)",
    "terms": "text pass: withheld; its technical terms are in the terms table",
    "drop": "text pass: withheld",
    "scrubbed": "text pass: released verbatim",
}
_BREAKS = regex.compile(r"([.:_])")
_LINE_BREAKS = regex.compile(r"\s*[\r\n\u2028\u2029]+\s*")


def render_card(envelope: Mapping[str, Any]) -> dict[str, str]:
    """File name -> text: {"README.md": ..., "report.html": ...}. Pure: no I/O beyond reading the packaged
    templates."""
    facts = card_facts(envelope)
    return {
        name: _environment(html=name.endswith(".html")).get_template(template).render(facts)
        for name, template in TEMPLATES.items()
    }


@functools.cache
def _environment(html: bool) -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("toolkit", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=html,
        finalize=None if html else md_escape,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters["percent"] = percent
    environment.filters["breakable"] = breakable
    return environment


def md_escape(value: Any) -> Any:
    """A value as Markdown text that shows as itself, on one line (a line break would end a table row);
    anything but a string (a number) passes as it is."""
    if not isinstance(value, str):
        return value
    return _MD_SPECIAL.sub(lambda match: "\\" + match.group(), _LINE_BREAKS.sub(" ", value))


def breakable(name: str) -> markupsafe.Markup:
    """A name (`table.column_name`, `keep:shape`) for HTML, escaped, that a narrow cell may wrap after a
    dot, a colon or an underscore."""
    return markupsafe.Markup("").join(
        markupsafe.escape(part) + (markupsafe.Markup("<wbr/>") if part in {".", ":", "_"} else "")
        for part in _BREAKS.split(name)
    )


def percent(share: float) -> str:
    """0.5833 -> '58.3%'; a share above zero never shows as 0."""
    if 0 < share < 0.001:
        return "<0.1%"
    return f"{share * 100:.1f}%".replace(".0%", "%")


def card_facts(envelope: Mapping[str, Any]) -> dict[str, Any]:
    """What the templates may show, copied field by field out of `envelope`."""
    release = envelope["release"]
    privacy = envelope["privacy"]
    risk = envelope["risk"]
    ran = bool(risk.get("ran", True))
    risk_columns = risk.get("columns", {}) if ran else {}
    tables = {str(table): int(rows) for table, rows in release["tables"].items()}
    view_cells = release.get("quasi_identifiers", {}).get("views", {})
    views = _views(risk.get("views", {}), view_cells) if ran else []
    contents = release.get("columns", {})
    text = envelope.get("text", {"ran": False})
    modes = {str(column): str(entry["mode"]) for column, entry in text.get("columns", {}).items()}
    rewritten = frozenset(str(column) for column in risk.get("phrase_columns", [])) if ran else frozenset()
    return {
        "tool_version": str(envelope["tool"]["version"]),
        "report_version": int(envelope["report_version"]),
        "written": bool(release["written"]),
        "anonymized": bool(envelope["anonymized"]),
        "risk_ran": ran,
        "tables": tables,
        "persons": tables.get("profiles", 0),
        "not_read": {
            str(why): int(count)
            for why, count in envelope.get("counts", {}).get("export_files_not_read", {}).items()
        },
        "kept": _kept(release, text, _free_text(privacy["columns"])),
        "k": sorted({view["k"] for view in views}),
        "empty_tables": _empty_tables(tables, views),
        "columns": _columns(privacy["columns"], risk_columns, tables, contents, modes, rewritten),
        "dropped": [
            f"{column['table']}.{column['column']}"
            for column in privacy["columns"]
            if column["action"] == "drop"
        ],
        "empty": _empty(contents, risk_columns, modes),
        "tokens": _tokens(contents, privacy["entities_replaced"], risk_columns),
        "coarsened": _coarsened(risk_columns),
        "views": views,
        "residual": [view for view in views if view["whole_list"] is not None],
        "chart": _chart(views) if views else None,
        "risk_suppressed": int(risk.get("suppressed", 0)) if ran else 0,
        "risk_budget": int(risk.get("budget", 0)) if ran else 0,
        "risk_target_met": bool(risk.get("target_met", True)) if ran else True,
        "phrases": _phrases(risk.get("phrases", {})) if ran else [],
        "text": _text(text, views),
        "entities": {str(kind): int(count) for kind, count in privacy["entities_replaced"].items()},
        "switched_off": {
            str(kind).replace("_", " "): [str(name) for name in names]
            for kind, names in privacy.get("switched_off", {}).items()
        },
        "verification": _verification(envelope["verification"]),
        "key": {
            "source": str(privacy["key"]["source"]),
            "linkable": bool(privacy["key"]["linkable_across_runs"]),
        },
        "quality_ran": int(envelope["quality"]["rules_checked"]) > 0,
        "findings": [
            {
                "rule": str(finding["rule"]),
                "severity": str(finding["severity"]),
                "rows": int(finding["rows"]),
                "description": str(finding["description"]),
            }
            for finding in envelope["quality"]["findings"]
        ],
    }


def explain_action(action: str) -> str:
    """The privacy policy's action on a column, in plain words."""
    verb, _, argument = action.partition(":")
    if verb == "keep" and argument:
        return (
            f"kept as it is where the value has the expected shape ({argument}); "
            "a value without it was scrubbed as free text"
        )
    if verb == "keep":
        return "kept as it is"
    if verb == "drop":
        return "removed: not in the release"
    if verb == "pseudonymize":
        return "replaced by a keyed pseudonym (HMAC): equal values get equal pseudonyms"
    if verb == "generalize":
        return f"replaced by a coarser value (hierarchy {argument})"
    if verb == "scrub":
        return "free text: personal data found in it replaced by typed tokens (see Tokens in the data)"
    return f"action {action}"


def explain_step(step: str) -> str:
    """A risk-pass ladder step (`toolkit.risk.ladders.Ladders.label`), in plain words."""
    kind, _, argument = step.partition(":")
    if kind == "released":
        return "a quasi-identifier, released as it is (an items view may withhold some of its rows)"
    if kind == "withheld":
        return "withheld: every value null in the release"
    if kind == "local" and argument == "rows":
        return (
            "coarsened row by row: each item keeps the finest step at which it, and each pair of items of "
            "its person, is shared by at least k persons"
        )
    if kind == "local":
        return "coarsened person by person: each group of at least k persons keeps the finest step it shares"
    if kind == "frequent":
        return "kept where at least k persons share the value, else coarser (null past the last step)"
    if kind == "classify":
        files, _, source = argument.partition(" of ")
        read = {"": "its group", "previous": "the group of the previous step's label"}.get(
            source, f"the group of the row's {source}"
        )
        return f"replaced by {read} ({', '.join(files.split('+'))})"
    if kind == "band":
        return f"numbers replaced by bands (edges {', '.join(argument.split(','))})"
    if kind == "span":
        return f"years replaced by spans of {argument} years"
    return f"step {step}"


def _columns(
    columns: Iterable[Mapping[str, Any]],
    risk_columns: Mapping[str, Any],
    tables: Mapping[str, int],
    contents: Mapping[str, Mapping[str, Any]],
    modes: Mapping[str, str],
    rewritten: frozenset[str],
) -> dict[str, list[dict[str, Any]]]:
    """Per table (the release's tables first, in their order), its columns: what the policy did to them,
    what the passes did then, and what the release holds, counted from its files. A column no policy
    names (the terms table's) is listed as the text pass made it."""
    grouped: dict[str, list[dict[str, Any]]] = {table: [] for table in tables}
    named = set()
    for column in columns:
        name = f"{column['table']}.{column['column']}"
        named.add(name)
        grouped.setdefault(str(column["table"]), []).append(
            {
                "column": str(column["column"]),
                "action": str(column["action"]),
                "meaning": explain_action(str(column["action"])),
                "nonnull": int(column["values"]),
                "changed": int(column["changed"]),
                "then": _then(name, risk_columns, modes, rewritten),
                "holds": explain_contents(contents.get(name)),
            }
        )
    for name, entry in contents.items():
        if name not in named:
            table, _, bare = name.partition(".")
            grouped.setdefault(table, []).append(
                {
                    "column": bare,
                    "action": "-",
                    "meaning": "made by the text pass: the technical terms each person's free text mentions",
                    "nonnull": "-",
                    "changed": "-",
                    "then": _then(name, risk_columns, modes, rewritten),
                    "holds": explain_contents(entry),
                }
            )
    return {table: rows for table, rows in grouped.items() if rows}


def _then(
    name: str, risk_columns: Mapping[str, Any], modes: Mapping[str, str], rewritten: frozenset[str]
) -> str:
    """What the dataset-wide passes did to a column after the policy, in plain words ('-' for nothing)."""
    steps = []
    level = risk_columns.get(name)
    if level:
        steps.append(f"risk pass: {explain_step(str(level['step']))}")
    if name in rewritten:
        steps.append("risk pass: phrases fewer than k persons share replaced by tokens like <PROJECT>")
    if name in modes:
        steps.append(_TEXT_MODES.get(modes[name], f"text pass: {modes[name]}"))
    return "; ".join(steps) or "-"


def explain_contents(found: Mapping[str, Any] | None) -> str:
    """What a release holds in a column (its `release.columns` entry), in plain words."""
    if found is None:
        return "not in the release"
    rows, values = int(found["rows"]), int(found["values"])
    if not rows:
        return "no rows"
    if not values:
        return "no value: null in every row"
    said = [f"a value in {values} of {rows} rows, {int(found['distinct'])} distinct"]
    tokens = found.get("tokens", {})
    if tokens:
        said.append("tokens " + ", ".join(f"{form} ({count})" for form, count in sorted(tokens.items())))
    if int(found.get("cells_cut", 0)):
        said.append(f"words cut (…) in {int(found['cells_cut'])}")
    return "; ".join(said)


def _empty(
    contents: Mapping[str, Mapping[str, Any]], risk_columns: Mapping[str, Any], modes: Mapping[str, str]
) -> list[dict[str, str]]:
    """The release's columns that hold no value in any row, each with why."""
    empty = []
    for name, found in contents.items():
        if int(found["rows"]) and not int(found["values"]):
            level = risk_columns.get(name)
            if level and level["step"] == "withheld":
                why = "withheld by the risk pass"
            elif modes.get(name) in ("terms", "drop"):
                why = "withheld by the text pass"
            else:
                why = "no value left after scrubbing and the passes"
            empty.append({"column": name, "why": why})
    return empty


def _free_text(columns: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    """The columns the policy reads as text: scrubbed, or kept while they have a shape (a value without it
    is scrubbed); not the plain `keep` columns of codes ('talent_page', 'utf-8')."""
    return frozenset(
        f"{column['table']}.{column['column']}"
        for column in columns
        if column["action"] == "scrub" or str(column["action"]).startswith("keep:")
    )


def _empty_tables(tables: Mapping[str, int], views: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The release's tables without a row, each with why (a view that withheld rows of it, else none came)."""
    empty = []
    for table, rows in tables.items():
        if rows:
            continue
        withheld = [view["name"] for view in views if view["rows_withheld"] and any(
            column.startswith(f"{table}.") for column in view["columns"]
        )]  # fmt: skip
        why = (
            f"rows withheld by the risk pass, view {', '.join(withheld)}" if withheld else "no row to release"
        )
        empty.append({"table": table, "why": why})
    return empty


def _kept(release: Mapping[str, Any], text: Mapping[str, Any], free_text: frozenset[str]) -> dict[str, Any]:
    """How much of what an attacker could look a person up by was withheld, and of the free text (the
    columns of `free_text`) cut; and, for a small release, how much releases of more persons keep."""
    cells = release.get("quasi_identifiers", {"cells_before": 0, "cells_released": 0})
    before, released = int(cells["cells_before"]), int(cells["cells_released"])
    words = {"kept": 0, "cut": 0}
    for column, entry in text.get("columns", {}).items():
        if column in free_text:
            words["kept"] += int(entry.get("words_kept", 0))
            words["cut"] += int(entry.get("words_cut", 0))
    withheld = (before - released) / before if before else 0.0
    small = withheld > SMALL_RELEASE
    curve = retention_curve() if small else None
    return {
        "cells_before": before,
        "cells_withheld": before - released,
        "withheld": withheld,
        "words": words["kept"] + words["cut"],
        "words_cut": words["cut"] / (words["kept"] + words["cut"]) if words["kept"] + words["cut"] else 0.0,
        "small": small,
        "curve": [
            {"persons": f"{int(point['persons']):,}", "withheld": float(point["quasi_identifiers_withheld"])}
            for point in curve["points"]
        ]
        if curve
        else [],
        "curve_source": {key: str(curve[key]) for key in ("command", "date")} if curve else {},
    }


@functools.cache
def retention_curve() -> dict[str, Any]:
    """What releases of growing size keep, measured by `benchmarks/retention.py` (packaged with the code)."""
    text = resources.files("toolkit").joinpath("data", "retention.json").read_text(encoding="utf-8")
    curve: dict[str, Any] = json.loads(text)
    return curve


def _tokens(
    contents: Mapping[str, Mapping[str, Any]], scrubbed: Iterable[str], risk_columns: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Every token form the release holds, what it stands for, how often and in which columns."""
    found: dict[str, dict[str, Any]] = {}
    for column, entry in contents.items():
        for form, count in entry.get("tokens", {}).items():
            token = found.setdefault(form, {"form": form, "count": 0, "columns": []})
            token["count"] += int(count)
            token["columns"].append(column)
    coarsened: dict[str, list[str]] = {}
    for name, level in risk_columns.items():
        if int(level["level"]) and level["step"] != "released":
            coarsened.setdefault(name.partition(".")[2].upper(), []).append(name)
    for token in found.values():
        token["meaning"] = explain_token(token["form"], set(scrubbed), coarsened)
    return sorted(found.values(), key=lambda token: (-token["count"], token["form"]))


def explain_token(form: str, scrubbed: Iterable[str], coarsened: Mapping[str, list[str]]) -> str:
    """What a token form (`<PERSON_…>`, `<PROJECT>`, `<EMPLOYER>`) stands for, in plain words; `scrubbed`
    are the entity types the scrubber replaced, `coarsened` the token types of coarsened columns."""
    keyed = form.endswith("_…>")
    kind = form.strip("<>").removesuffix("_…")
    what = ENTITY_MEANINGS.get(kind, f"a value of type {kind}")
    if keyed:
        return f"{what} the scrubber found, as a keyed token: the same value gives the same token"
    if kind in coarsened:
        return (
            f"a value of {', '.join(sorted(coarsened[kind]))} named in free text: the risk pass coarsened "
            "that column, so its values are not shown in text either"
        )
    if kind == "NUMBER":
        return "a number fewer than k persons share, or of years or months (columns give those in bands)"
    if kind in scrubbed:
        return f"{what} the scrubber found, without its key: a keyed token would let releases be joined on it"
    return f"{what} that fewer than k persons share: a web search for it could find the person"


def _per_step(counts: Mapping[str, int], what: str) -> str:
    """' (6 persons released; 3 withheld)' for a column recoded locally, else nothing."""
    told = [
        f"{count} {what} {step}" if at == 0 else f"{count} {step}"
        for at, (step, count) in enumerate(counts.items())
    ]
    return f" ({'; '.join(told)})" if counts else ""


def _coarsened(risk_columns: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "column": str(name),
            "level": int(column["level"]),
            "step": str(column["step"]),
            "meaning": explain_step(str(column["step"]))
            + _per_step(column.get("persons_per_step", {}), "persons")
            + _per_step(column.get("rows_per_step", {}), "rows"),
            "distinct_before": int(column["distinct_before"]),
            "distinct_after": int(column["distinct_after"]),
            "information_loss": float(column["information_loss"]),
        }
        for name, column in sorted(risk_columns.items())
    ]


def _views(
    views: Mapping[str, Mapping[str, Any]], cells: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Each attacker view's figures, with the share of its cells that still hold a value (None where the
    view's columns held none)."""

    def exposure(figures: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "below_target": float(figures["below_target"]),
            "smallest_k": int(figures["smallest_k"]),
            "unique": float(figures["unique"]),
            "prosecutor_risk": float(figures["prosecutor_risk"]),
        }

    found = []
    for name, view in views.items():
        columns = [str(column) for column in view.get("columns", [])]
        m = int(view.get("m", 1))
        found.append({
            "name": str(name),
            "k": int(view["k"]),
            "before": exposure(view["before"]),
            "after": exposure(view["after"]),
            "rows_withheld": int(view.get("rows_withheld", 0)),
            "m": m,
            "columns": columns,
            "sees": _view_sees(str(view.get("kind", "record")), m, columns),
            "whole_list": exposure(view["whole_list"]) if "whole_list" in view else None,
            "informative": _informative(cells.get(str(name), {})),
        })  # fmt: skip
    return found


def _informative(cells: Mapping[str, Any]) -> float | None:
    share = cells.get("informative")
    return float(share) if share is not None else None


def _view_sees(kind: str, m: int, columns: Sequence[str]) -> str:
    """What one attacker view compares, in the card's words."""
    table = str(columns[0]).partition(".")[0] if columns else "its table"
    if kind == "set":
        return f"a person's whole list of {table} rows at once"
    if kind == "sequence":
        return f"a person's {table} rows in their order"
    if kind == "items":
        return f"any {'two' if m == 2 else 'one'} of a person's {table} rows"
    return "these columns of a person together"


def _phrases(phrases: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"type": str(kind), "kept": int(counts["kept"]), "replaced": int(counts["replaced"])}
        for kind, counts in sorted(phrases.items())
    ]


def _text(text: Mapping[str, Any], views: list[dict[str, Any]]) -> dict[str, Any]:
    """The k-anonymous text pass: per column its mode and what it kept, the verbatim columns, the residual,
    and the attacker view that guards the `terms` table (None if none does)."""
    if not text.get("ran"):
        return {"ran": False, "columns": [], "verbatim": [], "unique_share": 0.0, "terms_view": None}
    columns = [
        {
            "column": str(column),
            "mode": str(entry["mode"]),
            "words_kept": int(entry.get("words_kept", 0)),
            "words_cut": int(entry.get("words_cut", 0)),
            "persons": int(entry.get("persons_with_text_kept", 0)),
            "longest": int(entry.get("longest_kept_run", 0)),
            "follows": str(entry.get("follows", "")),
        }
        for column, entry in sorted(text["columns"].items())
    ]
    return {
        "ran": True,
        "k": int(text["k"]),
        "max_run": int(text["max_run"]),
        "columns": columns,
        "verbatim": [column["column"] for column in columns if column["mode"] == "scrubbed"],
        "unique_share": float(text["residual"]["unique_share"]),
        "terms_view": next((view for view in views if _TERMS_COLUMN in view["columns"]), None),
    }


def _verification(verification: Mapping[str, Any]) -> dict[str, Any]:
    """The leak check's counts; its `suppressed` list (pseudonyms) is counted, never copied."""
    return {
        "persons_checked": int(verification["persons_checked"]),
        "persons_suppressed": int(verification["persons_suppressed"]),
        "budget": int(verification["suppression_budget"]),
        "blocked": bool(verification["blocked"]),
        "hits": [
            {
                "table": str(hit["table"]),
                "column": str(hit["column"]),
                "kind": str(hit["kind"]),
                "values": int(hit["values"]),
            }
            for hit in verification["hits"]
        ],
    }


CHART_WIDTH = 880
_LABEL_WIDTH = 190
_VALUE_WIDTH = 130
_BAR = 16
_GAP = 4
_GROUP_GAP = 18
_TOP = 40
_AXIS = 34
_LONGEST_LABEL = 24


def _chart(views: list[dict[str, Any]]) -> dict[str, Any]:
    """The geometry of the bar chart of persons below k per view, before and after the risk pass: one
    group of two horizontal bars per view on a 0-100% axis."""
    plot = CHART_WIDTH - _LABEL_WIDTH - _VALUE_WIDTH
    group = 2 * _BAR + _GAP
    groups = []
    for index, view in enumerate(views):
        top = _TOP + index * (group + _GROUP_GAP)
        name = view["name"]
        groups.append(
            {
                "name": name,
                "label": name if len(name) <= _LONGEST_LABEL else name[: _LONGEST_LABEL - 1] + "…",
                "k": view["k"],
                "label_y": top + group / 2,
                "bars": [
                    {
                        "when": when,
                        "share": view[when]["below_target"],
                        "y": top + offset,
                        "width": round(max(0.0, min(1.0, view[when]["below_target"])) * plot, 1),
                    }
                    for when, offset in (("before", 0), ("after", _BAR + _GAP))
                ],
            }
        )
    bottom = _TOP + len(views) * (group + _GROUP_GAP) - _GROUP_GAP
    return {
        "width": CHART_WIDTH,
        "height": bottom + _AXIS,
        "left": _LABEL_WIDTH,
        "plot": plot,
        "bar": _BAR,
        "top": _TOP,
        "bottom": bottom,
        "ticks": [{"share": share, "x": _LABEL_WIDTH + share * plot} for share in (0, 0.25, 0.5, 0.75, 1)],
        "groups": groups,
    }

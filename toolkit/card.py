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
from collections.abc import Iterable, Mapping
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
    views = _views(risk.get("views", {})) if ran else []
    return {
        "tool_version": str(envelope["tool"]["version"]),
        "report_version": int(envelope["report_version"]),
        "written": bool(release["written"]),
        "anonymized": bool(envelope["anonymized"]),
        "risk_ran": ran,
        "tables": tables,
        "columns": _columns(privacy["columns"], risk_columns, tables),
        "dropped": [
            f"{column['table']}.{column['column']}"
            for column in privacy["columns"]
            if column["action"] == "drop"
        ],
        "withheld": sorted(name for name, column in risk_columns.items() if column["step"] == "withheld"),
        "coarsened": _coarsened(risk_columns),
        "views": views,
        "chart": _chart(views) if views else None,
        "risk_suppressed": int(risk.get("suppressed", 0)) if ran else 0,
        "risk_budget": int(risk.get("budget", 0)) if ran else 0,
        "risk_target_met": bool(risk.get("target_met", True)) if ran else True,
        "phrases": _phrases(risk.get("phrases", {})) if ran else [],
        "text": _text(envelope.get("text", {"ran": False}), views),
        "entities": {str(kind): int(count) for kind, count in privacy["entities_replaced"].items()},
        "verification": _verification(envelope["verification"]),
        "key": {
            "source": str(privacy["key"]["source"]),
            "linkable": bool(privacy["key"]["linkable_across_runs"]),
        },
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
        return "free text: personal data found in it replaced by typed tokens like <PERSON_1a2b3c4d>"
    return f"action {action}"


def explain_step(step: str) -> str:
    """A risk-pass ladder step (`toolkit.risk.ladders.Ladders.label`), in plain words."""
    kind, _, argument = step.partition(":")
    if kind == "released":
        return "a quasi-identifier, released as it is"
    if kind == "withheld":
        return "withheld: every value null in the release"
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
    columns: Iterable[Mapping[str, Any]], risk_columns: Mapping[str, Any], tables: Mapping[str, int]
) -> dict[str, list[dict[str, Any]]]:
    """Per table (the release's tables first, in their order), its columns: what the policy did to them and
    then what the risk pass did."""
    grouped: dict[str, list[dict[str, Any]]] = {table: [] for table in tables}
    for column in columns:
        name = f"{column['table']}.{column['column']}"
        level = risk_columns.get(name)
        grouped.setdefault(str(column["table"]), []).append(
            {
                "column": str(column["column"]),
                "action": str(column["action"]),
                "meaning": explain_action(str(column["action"])),
                "nonnull": int(column["values"]),
                "changed": int(column["changed"]),
                "risk": explain_step(str(level["step"])) if level else "",
            }
        )
    return {table: rows for table, rows in grouped.items() if rows}


def _persons_per_step(counts: Mapping[str, int]) -> str:
    """' (6 released; 3 withheld)' for a column recoded locally, else nothing."""
    return f" ({'; '.join(f'{persons} {step}' for step, persons in counts.items())})" if counts else ""


def _coarsened(risk_columns: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "column": str(name),
            "level": int(column["level"]),
            "step": str(column["step"]),
            "meaning": explain_step(str(column["step"]))
            + _persons_per_step(column.get("persons_per_step", {})),
            "distinct_before": int(column["distinct_before"]),
            "distinct_after": int(column["distinct_after"]),
            "information_loss": float(column["information_loss"]),
        }
        for name, column in sorted(risk_columns.items())
    ]


def _views(views: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    def exposure(figures: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "below_target": float(figures["below_target"]),
            "smallest_k": int(figures["smallest_k"]),
            "unique": float(figures["unique"]),
            "prosecutor_risk": float(figures["prosecutor_risk"]),
        }

    return [
        {
            "name": str(name),
            "k": int(view["k"]),
            "before": exposure(view["before"]),
            "after": exposure(view["after"]),
            "rows_withheld": int(view.get("rows_withheld", 0)),
            "m": int(view.get("m", 1)),
            "columns": [str(column) for column in view.get("columns", [])],
        }
        for name, view in views.items()
    ]


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

"""Parse stage: raw profile documents in, the contract's tables out (see `toolkit.model`).

`parse_record` handles one source record (a file's bytes, or an export folder's files) and never raises
for bad input: a record may hold several profiles (a JSON array, JSON Lines) or none (a reject).
`parse_paths` reads many inputs and collects every profile and every reject into one `ProfileSet`.
Formats are told apart by content, never by file name: a zip archive or a folder of CSVs is a LinkedIn
export; JSON is a JSON Resume or a GitHub user; other text is one of the line layouts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from toolkit.errors import RejectReason
from toolkit.io import InputFile, ReadFailure, discover, read_input
from toolkit.model import ProfileSet
from toolkit.parse import linkedin
from toolkit.parse.collect import collect
from toolkit.parse.decode import Decoded, decode
from toolkit.parse.document import Document, ParsedProfile, Reject
from toolkit.parse.fields import cut_footer
from toolkit.parse.registry import DOCUMENT_FORMATS, LAYOUTS, detect_layout
from toolkit.rules import ParsingRules
from toolkit.text import clean_lines

__all__ = [
    "LAYOUTS",
    "parse_bytes",
    "parse_inputs",
    "parse_paths",
    "parse_record",
    "profile_id_for",
    "record_folders",
]

Parsed = tuple[Document, ParsedProfile] | Reject
_JSON_STARTS = ("{", "[")
_CSV_SNIFF = 4096
"""A lone file is tried as an export's profile CSV (a header of three columns or more) only when its first
characters hold two commas or more."""


def profile_id_for(data: bytes) -> str:
    """A stable id from the document's bytes: the same document gets the same id in every run."""
    return "p" + hashlib.blake2b(data, digest_size=8).hexdigest()


def parse_bytes(source: str, data: bytes, rules: ParsingRules) -> Parsed:
    """One document that holds one profile (the first of several; see `parse_record`)."""
    return parse_record(source, data, rules)[0]


def parse_record(source: str, data: bytes | linkedin.Files, rules: ParsingRules) -> list[Parsed]:
    """Decode, recognise the format and parse one source record: a file's bytes, or the files of an export
    folder (name -> bytes, or why they could not be read). Bad input becomes a `Reject`, never an
    exception; the list holds at least one item."""
    if isinstance(data, Mapping):
        files_id = hashlib.blake2b(digest_size=8)
        for name in sorted(data):
            item = data[name]
            files_id.update(name.encode("utf-8", "surrogateescape") + b"\0")
            files_id.update(item if isinstance(item, bytes) else item.encode() + b"\1")
        return [_export(source, data, "p" + files_id.hexdigest(), "utf-8", rules)]
    if len(data) > rules.max_input_bytes:
        return [Reject(source, RejectReason.TOO_LARGE, f"{len(data)} bytes > limit {rules.max_input_bytes}")]
    if data.startswith(linkedin.ZIP_MAGIC):
        files = linkedin.unzip(data, rules)
        if isinstance(files, Reject):
            return [replace(files, source=source)]
        return [_export(source, files, profile_id_for(data), "zip", rules)]
    decoded = decode(data)
    if not isinstance(decoded, Decoded):
        return [Reject(source, decoded.reason, decoded.detail)]
    text = decoded.text
    documents = _json_documents(text) if text.lstrip().startswith(_JSON_STARTS) else None
    if documents == []:
        return [Reject(source, RejectReason.EMPTY, "a JSON array with no documents")]
    if isinstance(documents, list):
        return [_document(source, doc, index, decoded.encoding, rules) for index, doc in documents]
    kind = (
        linkedin.sniff_text(text, rules.linkedin, min_cells=3)
        if text.count(",", 0, _CSV_SNIFF) >= 2
        else None
    )
    if kind == "profile":
        name = PurePosixPath(source.replace("\\", "/")).name or source
        return [_export(source, {name: data}, profile_id_for(data), decoded.encoding, rules)]
    lines = [cut_footer(line, rules.site_footers) for line in clean_lines(text)]
    layout = detect_layout(lines)
    if layout is None:
        if documents is not None:
            return [Reject(source, RejectReason.MALFORMED, f"invalid JSON: {documents}")]
        kind = kind or linkedin.sniff_text(text, rules.linkedin)
        if kind is not None:
            detail = f"a LinkedIn export's {kind} file without the export's profile file beside it"
            return [Reject(source, RejectReason.TRUNCATED, detail)]
        known = ", ".join([*(candidate.name for candidate in LAYOUTS), *DOCUMENT_FORMATS, linkedin.LAYOUT])
        return [Reject(source, RejectReason.UNKNOWN_LAYOUT, f"matches none of: {known}")]
    doc = Document(source=source, profile_id=profile_id_for(data), encoding=decoded.encoding, lines=lines)
    parsed = layout.parse(doc, rules)
    if isinstance(parsed, Reject):
        return [parsed]
    parsed.profile["layout"] = layout.name
    return [(doc, parsed)]


def _json_documents(text: str) -> list[tuple[int, Any]] | str:
    """The JSON documents of a text (a document, an array of them, or JSON Lines) with their positions
    (1-based; 0 for a lone document), or why the text is not JSON. In JSON Lines, a line that does not
    parse is a `_BadLine` in its place: the other lines are still read."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        whole = str(exc).partition("\n")[0] if isinstance(exc, ValueError) else "nested too deeply"
        lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) < 2:
            return whole
        documents: list[tuple[int, Any]] = []
        for number, line in lines:
            try:
                documents.append((number, json.loads(line)))
            except (ValueError, RecursionError) as line_exc:
                why = str(line_exc).partition("\n")[0] if isinstance(line_exc, ValueError) else "too deep"
                documents.append((number, _BadLine(why)))
        if all(isinstance(document, _BadLine) for _, document in documents):
            return whole
        return documents
    if isinstance(value, list):
        return list(enumerate(value, start=1))
    return [(0, value)]


@dataclass(frozen=True, slots=True)
class _BadLine:
    """A line of JSON Lines that is not JSON, and why."""

    why: str


def _document(source: str, document: Any, index: int, encoding: str, rules: ParsingRules) -> Parsed:
    where = f"document {index}: " if index else ""
    if isinstance(document, _BadLine):
        return Reject(source, RejectReason.MALFORMED, f"{where}invalid JSON: {document.why}")
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")
    for name, (detect, parse) in DOCUMENT_FORMATS.items():
        if detect(document):
            parsed = parse(document, rules)
            parsed.profile["layout"] = name
            doc = Document(source=source, profile_id=profile_id_for(canonical), encoding=encoding, lines=[])
            return doc, parsed
    known = ", ".join(DOCUMENT_FORMATS)
    return Reject(source, RejectReason.UNKNOWN_LAYOUT, f"{where}a JSON document that is none of: {known}")


def _export(
    source: str, files: linkedin.Files, profile_id: str, encoding: str, rules: ParsingRules
) -> Parsed:
    parsed = linkedin.parse(files, rules)
    if isinstance(parsed, Reject):
        return replace(parsed, source=source)
    parsed.profile["layout"] = linkedin.LAYOUT
    return Document(source=source, profile_id=profile_id, encoding=encoding, lines=[]), parsed


def parse_inputs(
    inputs: Iterable[InputFile | ReadFailure],
    rules: ParsingRules,
    on_progress: Callable[[], None] | None = None,
) -> ProfileSet:
    """Parse every input (read failures become rejects) into one ProfileSet, in input order."""
    results: list[Parsed] = []
    for item in inputs:
        data = item if isinstance(item, ReadFailure) else read_input(item, rules.max_input_bytes)
        if isinstance(data, ReadFailure):
            results.append(Reject(data.source, data.reason, data.detail))
        else:
            results.extend(parse_record(item.source, data, rules))
        if on_progress is not None:
            on_progress()
    return collect(results)


def record_folders(rules: ParsingRules) -> Callable[[Path], bool]:
    """Which folders are one record when inputs are walked: LinkedIn exports (`toolkit.io.iter_inputs`)."""
    return partial(linkedin.is_export_folder, rules=rules)


def parse_paths(paths: Iterable[str], rules: ParsingRules) -> ProfileSet:
    """Find the input files under `paths` (files or folders, recursively) and parse them all."""
    return parse_inputs(discover(paths, record_folders(rules)), rules)

"""Parse stage: raw profile documents in, the contract's tables out (see `toolkit.model`).

`parse_bytes` handles one document and never raises for bad input; `parse_paths` reads many files and
collects every profile and every reject into one `ProfileSet`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from toolkit.errors import RejectReason
from toolkit.io import InputFile, ReadFailure, discover, read_input
from toolkit.model import ProfileSet
from toolkit.parse.collect import collect
from toolkit.parse.decode import Decoded, decode
from toolkit.parse.document import Document, ParsedProfile, Reject
from toolkit.parse.fields import cut_footer
from toolkit.parse.registry import LAYOUTS, detect_layout
from toolkit.rules import ParsingRules
from toolkit.text import clean_lines

__all__ = ["LAYOUTS", "parse_bytes", "parse_inputs", "parse_paths", "profile_id_for"]

Parsed = tuple[Document, ParsedProfile] | Reject


def profile_id_for(data: bytes) -> str:
    """A stable id from the document's bytes: the same document gets the same id in every run."""
    return "p" + hashlib.blake2b(data, digest_size=8).hexdigest()


def parse_bytes(source: str, data: bytes, rules: ParsingRules) -> Parsed:
    """Decode, detect the layout and parse one document. Bad input becomes a `Reject`, never an exception."""
    if len(data) > rules.max_input_bytes:
        return Reject(source, RejectReason.TOO_LARGE, f"{len(data)} bytes > limit {rules.max_input_bytes}")
    decoded = decode(data)
    if not isinstance(decoded, Decoded):
        return Reject(source, decoded.reason, decoded.detail)
    lines = [cut_footer(line, rules.site_footers) for line in clean_lines(decoded.text)]
    layout = detect_layout(lines)
    if layout is None:
        known = ", ".join(candidate.name for candidate in LAYOUTS)
        return Reject(source, RejectReason.UNKNOWN_LAYOUT, f"matches none of: {known}")
    doc = Document(source=source, profile_id=profile_id_for(data), encoding=decoded.encoding, lines=lines)
    parsed = layout.parse(doc, rules)
    if isinstance(parsed, Reject):
        return parsed
    parsed.profile["layout"] = layout.name
    return doc, parsed


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
            results.append(parse_bytes(item.source, data, rules))
        if on_progress is not None:
            on_progress()
    return collect(results)


def parse_paths(paths: Iterable[str], rules: ParsingRules) -> ProfileSet:
    """Find the input files under `paths` (files or folders, recursively) and parse them all."""
    return parse_inputs(discover(paths), rules)

"""What a layout parser receives (a decoded document) and what it returns (a profile or a reject)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolkit.errors import RejectReason

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Document:
    """One decoded input. `lines` are cleaned (NFC, spaces folded, footers cut); blank lines are ""."""

    source: str
    profile_id: str
    encoding: str
    lines: list[str]


@dataclass(slots=True)
class ParsedProfile:
    """The rows one document contributes to each table; `profile_id` is added when frames are built.

    `unparsed_lines` holds every line the layout could not place, so nothing the source says is lost.
    Structured formats state identifiers outright: `contacts` (e-mails, phones, sites, handles) and
    `other_people` (referees, recommenders) seed the scrubber and verification and are never released;
    `skipped_files` names the files of an export that were not read into a table, and why.
    """

    profile: Row
    education: list[Row] = field(default_factory=list)
    skills: list[Row] = field(default_factory=list)
    contributions: list[Row] = field(default_factory=list)
    experience: list[Row] = field(default_factory=list)
    awards: list[Row] = field(default_factory=list)
    unparsed_lines: list[str] = field(default_factory=list)
    contacts: list[str] = field(default_factory=list)
    other_people: list[str] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Reject:
    """An input that produced no profile, and why (a stable reason code plus a human detail)."""

    source: str
    reason: RejectReason
    detail: str

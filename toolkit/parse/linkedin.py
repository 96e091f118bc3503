"""Layout `linkedin_export`: a LinkedIn "Download your data" export, one person's folder or `.zip` of CSVs.

Each CSV is recognised by its header (`rules/formats.yaml`: the header names each column goes by in any
export year or language), never by its file name or column position; notes above the header, a BOM,
Windows line ends and blank padding rows are skipped. Mapping (docs/formats.md has the whole table):

    profile: first + last name, headline,    profiles.name, headline, summary, location, city, region,
      summary, geo location                    country
    profile: maiden name                     profiles.other_people (searched for like anyone named)
    profile: address, zip code, twitter,     profiles.contacts (never released; they seed the scrubber
      websites, messengers; e-mails;           and verification); a website labelled COMPANY is the
      phones; certification URLs and           employer's and is dropped
      licence numbers
    profile: industry                        profiles.unparsed_lines (never released)
    profile: birth date                      dropped
    positions                                experience (title, organization, bullets: description);
                                               the first open position gives profiles.title, employer
    education                                education (degree, field, institution)
    skills                                   skills, kind listed_skill
    languages                                profiles.spoken_languages
    honors, certifications                   awards (title, issuer)
    projects at a code host                  contributions (repository owner/name, description, dates)
    recommendations                          profiles.other_people (their words are dropped)
    messages, connections, invitations,      never read: counted in profiles.skipped_files with why
      searches, ads, any other file

Dates come as 'Mon YYYY', 'YYYY', 'DD Mon YYYY' or 'M/D/YY' (`toolkit.parse.values.date_of`).
"""

from __future__ import annotations

import csv
import io
import os
import re
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolkit.errors import RejectReason
from toolkit.parse.decode import Decoded, decode
from toolkit.parse.document import ParsedProfile, Reject, Row
from toolkit.parse.fields import split_location
from toolkit.parse.values import date_of, line, repository_of, text_of
from toolkit.rules import ExportFileKind, ParsingRules
from toolkit.text import strip_accents

LAYOUT = "linkedin_export"
ZIP_MAGIC = b"PK\x03\x04"
SNIFF_BYTES = 65536
"""A file's kind is read from its first bytes; only files of a kind that is read are read whole."""
_FOLDER_SNIFF_BYTES = 8192
_LONGEST_HEADER = 64
MAX_MEMBERS = 5000
_HEADER_WITHIN = 20
"""Rows searched for a header (notes above it are skipped)."""
_URL = re.compile(r"https?://[^\s,\]\[]+")
_LIST_ITEM = re.compile(r"[\[\],]")
NOT_A_KIND = "not a kind this toolkit reads"

Files = Mapping[str, bytes | str]
"""A person's export: file name -> its bytes, or why they could not be read."""


@dataclass(frozen=True, slots=True)
class _Table:
    kind: str
    rows: list[dict[str, str]]


def header_key(name: str) -> str:
    """How header names are compared: case, accents, BOM, '_' and '-' and spacing ignored."""
    name = strip_accents(name.replace("\ufeff", "")).casefold()
    return " ".join(name.replace("_", " ").replace("-", " ").split())


def kind_of(header: list[str], kinds: Mapping[str, ExportFileKind]) -> tuple[str, dict[str, int]] | None:
    """The kind a header row is (every needed column present; the most columns present wins; the kind
    listed first on a tie), with each of its columns' position in the row."""
    names = _header_names(kinds)
    found: dict[str, dict[str, int]] = {}
    for index, cell in enumerate(header):
        if len(cell) > _LONGEST_HEADER:
            continue
        for kind_name, column in names.get(header_key(cell), ()):
            found.setdefault(kind_name, {}).setdefault(column, index)
    best: tuple[str, dict[str, int]] | None = None
    for name, kind in kinds.items():
        columns = found.get(name, {})
        if all(need in columns for need in kind.needs) and (best is None or len(columns) > len(best[1])):
            best = (name, columns)
    return best


_COMPILED: dict[int, tuple[Mapping[str, ExportFileKind], dict[str, list[tuple[str, str]]]]] = {}


def _header_names(kinds: Mapping[str, ExportFileKind]) -> dict[str, list[tuple[str, str]]]:
    """Compared header name -> the (kind, column) pairs it names; built once per rules."""
    cached = _COMPILED.get(id(kinds))
    if cached is not None and cached[0] is kinds:
        return cached[1]
    names: dict[str, list[tuple[str, str]]] = {}
    for kind_name, kind in kinds.items():
        for column, written in kind.columns.items():
            for key in dict.fromkeys(header_key(name) for name in written):
                names.setdefault(key, []).append((kind_name, column))
    _COMPILED[id(kinds)] = (kinds, names)
    return names


def sniff(data: bytes, kinds: Mapping[str, ExportFileKind]) -> str | None:
    """The kind of an export file from its first bytes, or None."""
    text = _text(data[:SNIFF_BYTES])
    return None if text is None else sniff_text(text, kinds)


def sniff_text(text: str, kinds: Mapping[str, ExportFileKind], min_cells: int = 1) -> str | None:
    """The kind of an export file from its decoded text, or None; only header rows of `min_cells` cells
    or more are tried."""
    for row in _rows(text[:SNIFF_BYTES], _HEADER_WITHIN):
        if len(row) < min_cells:
            continue
        found = kind_of(row, kinds)
        if found is not None:
            return found[0]
    return None


def is_export_folder(folder: Path, rules: ParsingRules) -> bool:
    """A folder holding (directly) a `.csv` file whose header is an export's profile file. Only `.csv`
    names are opened, and only their first bytes read: walking a folder of a million pages costs nothing."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(
                entry.path
                for entry in listing
                if entry.name.lower().endswith(".csv") and not entry.name.startswith(".") and entry.is_file()
            )
    except OSError:
        return False
    for path in entries:
        try:
            with open(path, "rb") as handle:
                head = handle.read(_FOLDER_SNIFF_BYTES)
        except OSError:
            continue
        if sniff(head, rules.linkedin) == "profile":
            return True
    return False


def unzip(data: bytes, rules: ParsingRules) -> dict[str, bytes | str] | Reject:
    """The members of a zipped export (a folder inside it included). Members of a kind that is never read
    are sniffed, not read whole; the whole read stays within the parser's size limit."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        return Reject("", RejectReason.MALFORMED, f"not a readable zip archive ({exc.__class__.__name__})")
    if len(members) > MAX_MEMBERS:
        return Reject("", RejectReason.TOO_LARGE, f"{len(members)} files in the archive > {MAX_MEMBERS}")
    files: dict[str, bytes | str] = {}
    budget = rules.max_input_bytes
    for member in members:
        name = member.filename
        if any(part.startswith(".") or part == "__MACOSX" for part in name.split("/")):
            continue
        try:
            with archive.open(member) as handle:
                head = handle.read(SNIFF_BYTES)
                kind = sniff(head, rules.linkedin)
                if kind is None or rules.linkedin[kind].never_read is not None:
                    files[name] = head
                    continue
                rest = handle.read(budget - len(head) + 1)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as exc:
            files[name] = f"cannot be unpacked ({exc.__class__.__name__})"
            continue
        budget -= len(head) + len(rest)
        if budget < 0:
            return Reject("", RejectReason.TOO_LARGE, f"unpacks to more than {rules.max_input_bytes} bytes")
        files[name] = head + rest
    return files


def parse(files: Files, rules: ParsingRules) -> ParsedProfile | Reject:
    """One person's export. Without a profile file it is a `truncated` reject."""
    tables: list[_Table] = []
    skipped: list[str] = []
    for name in sorted(files):
        data = files[name]
        if isinstance(data, str):
            skipped.append(f"{name}: {data}")
            continue
        text = _text(data)
        table = None if text is None else _table(text, rules.linkedin)
        if table is None:
            skipped.append(f"{name}: {NOT_A_KIND if text is not None else 'not text'}")
        elif (why := rules.linkedin[table.kind].never_read) is not None:
            skipped.append(f"{name}: {why}")
        elif table.kind == "profile" and any(t.kind == "profile" for t in tables):
            skipped.append(f"{name}: a second profile file")
        elif table.kind != "profile" and table.kind not in _READERS:
            skipped.append(f"{name}: {table.kind} files have no reader in this version")
        else:
            tables.append(table)
    profile = next((table for table in tables if table.kind == "profile"), None)
    if profile is None or not profile.rows:
        kinds = sorted({table.kind for table in tables})
        return Reject(
            "",
            RejectReason.TRUNCATED,
            f"a LinkedIn export without its profile file (found: {', '.join(kinds) or 'nothing readable'})",
        )
    parsed = ParsedProfile(profile=_profile(profile.rows[0], rules), skipped_files=skipped)
    _profile_identifiers(profile.rows[0], parsed)
    for table in tables:
        for row in table.rows:
            if table.kind != "profile":
                _READERS[table.kind](row, parsed)
    current = next((row for row in parsed.experience if row["end"] is None and row["start"]), None)
    if current is not None:
        parsed.profile["title"], parsed.profile["employer"] = current["title"], current["organization"]
    return parsed


def _text(data: bytes) -> str | None:
    decoded = decode(data)
    return decoded.text if isinstance(decoded, Decoded) else None


def _rows(text: str, limit: int | None = None) -> Iterator[list[str]]:
    reader = csv.reader(io.StringIO(text))
    try:
        for count, row in enumerate(reader):
            if limit is not None and count >= limit:
                return
            yield row
    except csv.Error:
        return


def _table(text: str, kinds: Mapping[str, ExportFileKind]) -> _Table | None:
    rows = _rows(text)
    for _ in range(_HEADER_WITHIN):
        header = next(rows, None)
        if header is None:
            return None
        found = kind_of(header, kinds)
        if found is None:
            continue
        kind, positions = found
        records = []
        for row in rows:
            if not any(cell.strip() for cell in row):
                continue  # blank padding rows
            records.append({column: row[i] for column, i in positions.items() if i < len(row)})
        return _Table(kind, records)
    return None


def _profile(row: dict[str, str], rules: ParsingRules) -> Row:
    name = " ".join(part for part in (text_of(row.get("first_name")), text_of(row.get("last_name"))) if part)
    location = text_of(row.get("geo_location"))
    city, region, country = split_location(location)
    return {
        "name": name or None,
        "headline": text_of(row.get("headline")),
        "summary": text_of(row.get("summary")),
        "location": location,
        "city": city,
        "region": region,
        "country": country,
    }


def _profile_identifiers(row: dict[str, str], parsed: ParsedProfile) -> None:
    if (maiden := text_of(row.get("maiden_name"))) is not None:
        first = text_of(row.get("first_name"))
        parsed.other_people.append(f"{first} {maiden}" if first else maiden)
    for column in ("address", "zip_code"):
        parsed.contacts.extend(filter(None, [text_of(row.get(column))]))
    for handle in _items(row.get("twitter")):
        parsed.contacts.append(f"@{handle.lstrip('@')}")
    for site in _items(row.get("websites")):  # '[PERSONAL:https://…,COMPANY:https://…]'
        label, _, url = site.partition(":")
        if _URL.fullmatch(url) and label.strip().upper() != "COMPANY":
            parsed.contacts.append(url)
        elif _URL.fullmatch(site):
            parsed.contacts.append(site)
    for item in _items(row.get("messengers")):
        parsed.contacts.append(item.rpartition(":")[2].strip() or item)
    parsed.unparsed_lines.extend(filter(None, [line("industry", row.get("industry"))]))


def _items(value: Any) -> list[str]:
    """'[a,b]' or 'a, b' or 'a' -> ['a', 'b']."""
    text = text_of(value) or ""
    return [item.strip() for item in _LIST_ITEM.split(text) if item.strip()]


def _position(row: dict[str, str], parsed: ParsedProfile) -> None:
    description = text_of(row.get("description"))
    parsed.experience.append(
        {
            "position": len(parsed.experience) + 1,
            "title": text_of(row.get("title")),
            "organization": text_of(row.get("company")),
            "bullets": [description] if description else None,
            "start": date_of(row.get("started")),
            "end": date_of(row.get("finished")),
        }
    )
    parsed.unparsed_lines.extend(filter(None, [line("position location", row.get("location"))]))


def _education(row: dict[str, str], parsed: ParsedProfile) -> None:
    entry = {
        "degree": text_of(row.get("degree")),
        "field": text_of(row.get("field")),
        "institution": text_of(row.get("school")),
    }
    if any(entry.values()):
        parsed.education.append(entry)
    for column in ("notes", "activities", "started", "finished"):
        parsed.unparsed_lines.extend(filter(None, [line(f"education {column}", row.get(column))]))


def _skill(row: dict[str, str], parsed: ParsedProfile) -> None:
    skill = text_of(row.get("skill"))
    if skill and all(known["skill"].casefold() != skill.casefold() for known in parsed.skills):
        parsed.skills.append({"kind": "listed_skill", "skill": skill, "score": None})


def _language(row: dict[str, str], parsed: ParsedProfile) -> None:
    language = text_of(row.get("language"))
    if language:
        parsed.profile["spoken_languages"] = [*(parsed.profile.get("spoken_languages") or []), language]


def _honor(row: dict[str, str], parsed: ParsedProfile) -> None:
    if (title := text_of(row.get("title"))) is not None:
        parsed.awards.append({"title": title, "issuer": text_of(row.get("issuer"))})
    parsed.unparsed_lines.extend(filter(None, [line("honor", row.get("description"))]))


def _certification(row: dict[str, str], parsed: ParsedProfile) -> None:
    if (name := text_of(row.get("name"))) is not None:
        parsed.awards.append({"title": name, "issuer": text_of(row.get("authority"))})
    parsed.contacts.extend(filter(None, [text_of(row.get("url")), text_of(row.get("license_number"))]))


def _project(row: dict[str, str], parsed: ParsedProfile) -> None:
    repository = repository_of(row.get("url"))
    if repository is None:
        parsed.unparsed_lines.extend(
            filter(None, [line("project", [row.get("title"), row.get("description")])])
        )
        parsed.contacts.extend(filter(None, [text_of(row.get("url"))]))
        return
    parsed.contributions.append(
        {
            "repository": repository,
            "description": text_of(row.get("description")),
            "start": date_of(row.get("started")),
            "end": date_of(row.get("finished")),
        }
    )


def _contact(column: str) -> Any:
    def read(row: dict[str, str], parsed: ParsedProfile) -> None:
        parsed.contacts.extend(filter(None, [text_of(row.get(column))]))

    return read


def _recommendation(row: dict[str, str], parsed: ParsedProfile) -> None:
    name = " ".join(filter(None, [text_of(row.get("first_name")), text_of(row.get("last_name"))]))
    if name:
        parsed.other_people.append(name)


_READERS = {
    "positions": _position,
    "education": _education,
    "skills": _skill,
    "languages": _language,
    "honors": _honor,
    "certifications": _certification,
    "projects": _project,
    "emails": _contact("email"),
    "phones": _contact("number"),
    "recommendations": _recommendation,
}

"""Layout `talent_page`: a developer's page scraped from a talent-search site.

Shape, top to bottom (blank lines carry no meaning here):
    name / headline ("Title at Employer") / location ("City, Region, Country")
    "Summary", badge lines (emoji icons and labels), the bio (the last badge label glued to its start)
    "N years of coding experience", "N years of employment ...", education lines, spoken languages
    "Github Skills (N)" then "skill<score>" lines; "Programming languages (N)" then the same
    "Github contributions (N)" then one block per repository: owner/name, period, description,
    "Role in this project:" role, "<role>Contributions:N commits in ...", "Contributions summary:...",
    and the glued tags.
Declared counts are kept as written even when fewer items follow (pages truncate lists).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from toolkit.errors import RejectReason
from toolkit.parse.document import Document, ParsedProfile, Reject, Row
from toolkit.parse.fields import (
    looks_like_tags,
    parse_commit_stats,
    parse_period,
    split_location,
    split_score,
    split_tags,
)
from toolkit.rules import ParsingRules

LAYOUT = "talent_page"

_SUMMARY = "summary"
# Numbers are bounded in the patterns so every value fits its column's dtype; longer ones stay unparsed.
_CODING = re.compile(r"^(?P<n>\d{1,4})\+? years? of coding experience$", re.IGNORECASE)
_EMPLOYMENT = re.compile(r"^(?P<n>\d{1,4})\+? years? of employment\b.*$", re.IGNORECASE)
_SECTION = re.compile(
    r"^(?P<section>github skills|programming languages|github contributions)(?: ?\((?P<n>\d{1,9})\))?$",
    re.IGNORECASE,
)
_SECTION_KIND = {
    "github skills": "github_skill",
    "programming languages": "programming_language",
    "github contributions": "contributions",
}
_REPOSITORY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$")
_ROLE = re.compile(r"^role in this project ?:(?P<role>.*)$", re.IGNORECASE)
_STATS = re.compile(r"^(?P<role>.*?)contributions ?:(?P<stats>.*)$", re.IGNORECASE)
_CONTRIBUTION_SUMMARY = re.compile(r"^contributions summary ?:(?P<text>.*)$", re.IGNORECASE)
# Degree words in any case; abbreviations only as written ("M.Sc", "BA"): "me", "be", "ma" are words.
_DEGREE = re.compile(
    r"\b(?i:bachelor|master|doctor|ph\.? ?d|b\.? ?tech|m\.? ?tech|mba|associate|diploma|degree"
    r"|licen[cs]e|engineer's)\b"
    r"|\b(?:B\.? ?Sc?|M\.? ?Sc?|B\.? ?A|M\.? ?A|B\.? ?E|M\.? ?E|B\.? ?Eng|M\.? ?Eng)\b"
)
_INSTITUTION = re.compile(
    r"\b(?:universit|college|institut|school|academy|polytechnic|hochschule|escuela|[ée]cole|politecnico"
    r"|conservator|seminary|lyc[ée]e|gymnasium)",
    re.IGNORECASE,
)
_MARKERS = (
    re.compile(r"^summary$", re.IGNORECASE),
    _CODING,
    _EMPLOYMENT,
    _SECTION,
    _ROLE,
    _CONTRIBUTION_SUMMARY,
)
_DEGREE_LINE = re.compile(
    r"^(?:bachelor|master|doctor|associate|diploma|ph\.? ?d|mba|b\.? ?sc?|m\.? ?sc?)\b.{0,200} at .{1,120}$",
    re.IGNORECASE,
)
_LANGUAGE_NAME = re.compile(r"^[^\W\d_][^\W\d_'-]*(?:[ -][^\W\d_][^\W\d_'-]*)?$")
_ENOUGH_MARKERS = 4
_BADGE_LINE_MAX = 40
_GLUED_BADGE_MAX = 40


def detect(lines: list[str]) -> int:
    """How many of the page's fixed markers the document holds, up to 4 (0: not this layout)."""
    found: set[int] = set()
    for line in lines:
        for index, marker in enumerate(_MARKERS):
            if index not in found and marker.match(line):
                found.add(index)
                if len(found) == _ENOUGH_MARKERS:
                    return _ENOUGH_MARKERS
    return len(found)


def parse(doc: Document, rules: ParsingRules) -> ParsedProfile | Reject:
    lines = [line for line in doc.lines if line]
    header_end = next((i for i, line in enumerate(lines) if _is_marker(line)), len(lines))
    header = lines[:header_end]
    if not header:
        return Reject(doc.source, RejectReason.TRUNCATED, "the page starts without a name")
    parsed = ParsedProfile(profile=_profile_header(header[:3]), unparsed_lines=header[3:])
    _Body(parsed, rules).read(lines[header_end:])
    return parsed


def _is_marker(line: str) -> bool:
    return any(marker.match(line) for marker in _MARKERS)


def _profile_header(header: list[str]) -> Row:
    """Name, then headline and location (either may be missing)."""
    name, rest = header[0], header[1:]
    headline = location = None
    if len(rest) == 1:
        if _looks_like_location(rest[0]):
            location = rest[0]
        else:
            headline = rest[0]
    elif rest:
        headline, location = rest[0], rest[1]
    title, employer = _split_headline(headline)
    city, region, country = split_location(location)
    return {
        "name": name,
        "headline": headline,
        "title": title,
        "employer": employer,
        "location": location,
        "city": city,
        "region": region,
        "country": country,
    }


def _looks_like_location(line: str) -> bool:
    parts = line.split(", ")
    return 2 <= len(parts) <= 3 and " at " not in line and not any(ch.isdigit() for ch in line)


def _split_headline(headline: str | None) -> tuple[str | None, str | None]:
    if headline is None:
        return None, None
    for separator in (" at ", " @ "):
        title, found, employer = headline.rpartition(separator)
        if found and title and employer:
            return title, employer
    return headline, None


def _is_emoji(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or char in "\u200d\ufe0f"


def _badge_labels(line: str) -> list[str]:
    """'Senior🎓' -> ['Senior']; '👤' -> []. Icons separate labels."""
    labels: list[str] = []
    current: list[str] = []
    for char in line:
        if _is_emoji(char):
            labels.append("".join(current))
            current = []
        else:
            current.append(char)
    labels.append("".join(current))
    return [label.strip() for label in labels if label.strip()]


class _Body:
    """Reads the lines after the header, section by section, into `parsed`."""

    def __init__(self, parsed: ParsedProfile, rules: ParsingRules) -> None:
        self.parsed = parsed
        self.rules = rules
        self.profile = parsed.profile
        self.profile.update(
            summary=None,
            badges=[],
            coding_years=None,
            employment_years=None,
            spoken_languages=[],
            declared_skills=None,
            declared_programming_languages=None,
            declared_contributions=None,
        )
        self.badges_lower = {badge.lower(): badge for badge in rules.badges}

    def read(self, lines: list[str]) -> None:
        sections = list(self._split_sections(lines))
        for kind, declared, body in sections:
            if kind == _SUMMARY:
                self._summary(body)
            elif kind == "facts":
                self._facts(body)
            elif kind == "contributions":
                self.profile["declared_contributions"] = declared
                self._contributions(body)
            else:
                key = "declared_skills" if kind == "github_skill" else "declared_programming_languages"
                self.profile[key] = declared
                self._skills(kind, body)

    def _split_sections(self, lines: list[str]) -> Iterator[tuple[str, int | None, list[str]]]:
        kind, declared, body = "facts", None, []
        for line in lines:
            section = _SECTION.match(line)
            if line.lower() == _SUMMARY:
                next_kind: str | None = _SUMMARY
            elif section:
                next_kind = _SECTION_KIND[section["section"].lower()]
            elif kind == _SUMMARY and self._ends_summary(line):
                next_kind = "facts"
            else:
                next_kind = None
            if next_kind is None:
                body.append(line)
                continue
            if body or kind != "facts":
                yield kind, declared, body
            kind, body = next_kind, [] if next_kind != "facts" else [line]
            declared = int(section["n"]) if section and section["n"] else None
        if body or kind != "facts":
            yield kind, declared, body

    def _ends_summary(self, line: str) -> bool:
        """The first fact line after the bio: years, a degree line, or a list of known languages."""
        if _CODING.match(line) or _EMPLOYMENT.match(line) or _DEGREE_LINE.match(line):
            return True
        items = [item.strip().lower() for item in line.split(",")]
        return all(item in self.rules.spoken_languages for item in items)

    def _summary(self, body: list[str]) -> None:
        badges: list[str] = []
        start = 0
        while start < len(body) and self._is_badge_line(body[start]):
            badges.extend(_badge_labels(body[start]))
            start += 1
        bio = " ".join(body[start:])
        glued, bio = self._cut_glued_badges(bio)
        self.profile["badges"] = badges + glued
        self.profile["summary"] = bio or None

    def _is_badge_line(self, line: str) -> bool:
        if line.lower() in self.badges_lower:
            return True
        return len(line) <= _BADGE_LINE_MAX and any(_is_emoji(ch) for ch in line)

    def _cut_glued_badges(self, bio: str) -> tuple[list[str], str]:
        """'Top SchoolAda Byron is ...' -> (['Top School'], 'Ada Byron is ...').

        Badge text ends where the person's name starts (when the bio opens with it, within a few words),
        or else after the known badge labels glued to the start of the bio.
        """
        name = self.profile["name"]
        if name:
            # Searched in the bio itself, not in a case-folded copy: folding changes lengths ("ß" -> "ss").
            found = re.search(re.escape(name), bio[: _GLUED_BADGE_MAX + len(name)], re.IGNORECASE)
            at = found.start() if found else -1
            if 0 < at <= _GLUED_BADGE_MAX and not bio[at - 1].isspace() and "." not in bio[:at]:
                return self._split_badge_text(bio[:at]), bio[at:].strip()
        # Read by position: a copy or a lowered copy of the rest per label would make a bio that opens with
        # many glued labels take time quadratic in its length.
        cut: list[str] = []
        start = 0
        while True:
            icons = "".join(ch for ch in bio[start : start + 4] if _is_emoji(ch))
            at = start
            while at < len(bio) and bio[at] in icons:  # bio[start:].lstrip(icons)
                at += 1
            label = self._known_label_at(bio, at)
            if label is None:
                return cut, bio[start:].strip()
            cut.append(self.badges_lower[label.lower()])
            start = at + len(label)

    def _known_label_at_start(self, text: str) -> str | None:
        """A known badge label glued to what follows (the next character is a capital or an icon)."""
        return self._known_label_at(text, 0)

    def _known_label_at(self, text: str, at: int) -> str | None:
        """`_known_label_at_start(text[at:])`, lowering only as many characters as a label has (a capital
        sigma, which lowers by what follows it, has the rest lowered with it)."""
        for lower in self.badges_lower:
            end = at + len(lower)
            head = text[at:end]
            folded = text[at:].lower() if "\u03a3" in head else head.lower()
            if folded.startswith(lower) and len(text) > end:
                following = text[end]
                if following.isupper() or _is_emoji(following):
                    return head
        return None

    def _split_badge_text(self, text: str) -> list[str]:
        """'👤SeniorTop School' -> ['Senior', 'Top School']: icons separate labels, known labels split."""
        labels = []
        for piece in _badge_labels(text):
            while (label := self._known_label_at_start(piece)) is not None:
                labels.append(self.badges_lower[label.lower()])
                piece = piece[len(label) :]
            if piece.strip():
                labels.append(piece.strip())
        return labels

    def _facts(self, body: list[str]) -> None:
        for index, line in enumerate(body):
            if match := _CODING.match(line):
                self.profile["coding_years"] = int(match["n"])
            elif match := _EMPLOYMENT.match(line):
                self.profile["employment_years"] = int(match["n"])
            elif _DEGREE.search(line) or _INSTITUTION.search(line.rpartition(" at ")[2]):
                # not any line with " at ": "Lives at 12 Rue ..." is no education
                self.parsed.education.append(_education(line))
            elif languages := self._spoken_languages(line, last=index == len(body) - 1):
                self.profile["spoken_languages"] = languages
            else:
                self.parsed.unparsed_lines.append(line)

    def _spoken_languages(self, line: str, last: bool) -> list[str] | None:
        """A list of language names: at least half of them known, or, on the line just before the skills
        (where the page puts languages), every item one or two capitalised words."""
        items = [item.strip() for item in line.split(",") if item.strip()]
        if not items:
            return None
        known = sum(1 for item in items if item.lower() in self.rules.spoken_languages)
        if 2 * known >= len(items) or (last and all(_LANGUAGE_NAME.match(item) for item in items)):
            return items
        return None

    def _skills(self, kind: str, body: list[str]) -> None:
        for line in body:
            skill, score = split_score(line, self.rules.technical_terms)
            self.parsed.skills.append({"kind": kind, "skill": skill, "score": score})

    def _contributions(self, body: list[str]) -> None:
        own_skills = frozenset(row["skill"].lower() for row in self.parsed.skills)
        block: list[str] = []
        for index, line in enumerate(body):
            following = body[index + 1] if index + 1 < len(body) else None
            if _REPOSITORY.match(line) and (
                following is None or parse_period(following) or _ROLE.match(following) or not block
            ):
                if block:
                    self._contribution(block, own_skills)
                block = [line]
            elif block:
                block.append(line)
            else:
                self.parsed.unparsed_lines.append(line)
        if block:
            self._contribution(block, own_skills)

    def _contribution(self, block: list[str], own_skills: frozenset[str]) -> None:
        row: Row = {
            "repository": block[0],
            "description": None,
            "start": None,
            "end": None,
            "role": None,
            "commits": None,
            "duration_months": None,
            "summary": None,
            "tags": [],
        }
        description: list[str] = []
        summary: list[str] | None = None
        expecting_role = False
        for line in block[1:]:
            if row["start"] is None and not description and (period := parse_period(line)):
                row["start"], row["end"] = period.start, period.end
            elif match := _ROLE.match(line):
                row["role"] = match["role"].strip() or None
                expecting_role = row["role"] is None
            elif match := _CONTRIBUTION_SUMMARY.match(line):
                summary = [match["text"].strip()] if match["text"].strip() else []
            elif (match := _STATS.match(line)) and (stats := parse_commit_stats(match["stats"])):
                row["commits"], row["duration_months"] = stats.commits, stats.duration_months
                glued_role = match["role"].strip()
                if row["role"] is None:
                    row["role"] = glued_role or None
                elif glued_role and glued_role != row["role"]:
                    self.parsed.unparsed_lines.append(line)
                expecting_role = False
            elif expecting_role:
                row["role"], expecting_role = line, False
            elif summary is not None and looks_like_tags(line):
                row["tags"] = row["tags"] + split_tags(line, self.rules.technical_terms, own_skills)
            elif summary is not None:
                summary.append(line)
            elif row["role"] is None and row["commits"] is None:
                description.append(line)
            else:
                self.parsed.unparsed_lines.append(line)
        row["description"] = " ".join(description) or None
        row["summary"] = " ".join(summary) if summary else None
        self.parsed.contributions.append(row)


def _education(line: str) -> Row:
    """'Degree, Field at Institution', kept as written (a degree written twice stays in `field`)."""
    studies, found, institution = line.rpartition(" at ")
    if not found:
        studies, institution = line, ""
    degree, _, field = studies.partition(", ")
    return {
        "degree": degree.strip() or None,
        "field": field.strip() or None,
        "institution": institution or None,
    }

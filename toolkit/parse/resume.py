"""Layout `resume`: the experience section of a résumé, as exported to text.

Shape: an "Experience" heading, then one entry per position: a block with the title (optionally a period
line) and "- " bullets, followed by a block naming the organisation, written after its entry and optionally
ending "supervised by Dr. X". After the last position come award titles with no heading, each optionally
followed by its issuer. Blocks are separated by blank lines. Lines before the heading are a contact header:
its first line that reads as a person's name ('Marta Nowak', 'NOWAK, Marta', 'Dr. Wang Fang (王芳)') is the
profile's `name` (so the scrubber and verification know whose résumé it is); every header line, the name
included, is kept in `unparsed_lines` (never released).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

import regex

from toolkit.errors import RejectReason
from toolkit.names import PARTICLES, POST_NOMINAL, glued_script
from toolkit.parse.document import Document, ParsedProfile, Reject, Row
from toolkit.parse.fields import parse_period
from toolkit.rules import ParsingRules

LAYOUT = "resume"

_HEADING = re.compile(r"^(?:work |professional )?experience:?$", re.IGNORECASE)
_HEADING_WITHIN = 8
_BULLET = re.compile("^[-\u2022*\u2013\u00b7\u25aa] ?")
_SUPERVISED = re.compile(r"^(?P<org>.*?)[,;]? ?\bsupervised by:? (?P<supervisor>.+)$", re.IGNORECASE)


def detect(lines: list[str]) -> int:
    """3 when the first non-blank line is an experience heading, 2 when one of the next few is (a contact
    header came first); 1 when the heading is missing but the document opens like an entry (a title,
    bullets, then a short organisation block); 0 otherwise."""
    opening = [line for line in lines[: _HEADING_WITHIN * 3] if line][:_HEADING_WITHIN]
    if opening and _HEADING.match(opening[0]):
        return 3
    if any(_HEADING.match(line) for line in opening):
        return 2
    blocks = _blocks(lines[:200])
    if len(blocks) < 2:
        return 0
    entry, organization = blocks[0], blocks[1]
    opens_like_entry = (
        len(entry) >= 2
        and not _BULLET.match(entry[0])
        and all(_BULLET.match(line) for line in entry[1:])
        and len(organization) <= 2
        and not any(_BULLET.match(line) for line in organization)
    )
    return 1 if opens_like_entry else 0


def parse(doc: Document, rules: ParsingRules) -> ParsedProfile | Reject:
    lines = doc.lines
    heading = next((i for i, line in enumerate(lines) if _HEADING.match(line)), None)
    parsed = ParsedProfile(profile={})
    if heading is not None:
        header = [line for line in lines[:heading] if line]
        parsed.unparsed_lines.extend(header)
        parsed.profile["name"] = _header_name(header)
        lines = lines[heading + 1 :]
    reader = _Reader(parsed, rules)
    for block in _blocks(lines):
        reader.block(block)
    reader.finish()
    if not parsed.experience and not parsed.awards:
        return Reject(doc.source, RejectReason.TRUNCATED, "an experience heading with no entry after it")
    return parsed


_NAME_WORD = regex.compile(r"^\p{L}[\p{L}\p{M}'\u2019.\-]*$")
_BRACKETED_NAME = regex.compile(r"\s*[(\uff08][\p{L}\p{M}'\u2019.\- ]+[)\uff09]")
"""A name in another script after the name ('Wang Fang (王芳)', a Hebrew name of two words)."""
_SEGMENTS = regex.compile(r"\s+[|\u2022\u00b7\u2014\u2013]\s+")
"""'Name | Data Engineer | City': a header line of segments; the first may be the name."""
_NOT_A_NAME = regex.compile(
    r"[\d@/:|•·]|\b(?i:curriculum|vitae|r[ée]sum[ée]|cv|contact|profile|experience|engineer|developer)\b"
)
_HEADER_NAME_WITHIN = 8
"""Contact lines may come first ('tel …', an e-mail, an address): the name is the first line that reads
as one among the header's first lines."""
_LONGEST_NAME = 6
_IRISH_PREFIX = regex.compile(r"^[hnt]-?\p{Lu}")


def _name_cased(word: str) -> bool:
    """A word as a name writes it: capitalised, a particle ('van', 'de'), an Irish prefix before a capital
    ('hUiginn'), or in a script without case; not an ordinary lowercase word ('Open to relocation')."""
    return not word[:1].islower() or word.lower() in PARTICLES or bool(_IRISH_PREFIX.match(word))


def _header_name(header: list[str]) -> str | None:
    """The first of the header's first lines that reads as a name: at most six words of letters (initials,
    hyphens, apostrophes, a bracketed name in another script), a capital or a script without case, no
    digits, contact marks or heading words."""
    for whole in header[:_HEADER_NAME_WITHIN]:
        line = _SEGMENTS.split(whole)[0]
        words = _BRACKETED_NAME.sub(" ", line).replace(",", " ").split()
        if not 1 <= len(words) <= _LONGEST_NAME or _NOT_A_NAME.search(line):
            continue
        if len(words) == 1 and not glued_script(line):
            continue
        before, comma, after = line.partition(",")
        if comma and not (before.isupper() or POST_NOMINAL.match(comma + after)):
            continue  # 'Kraków, Poland'; a name is 'NOWAK, Marta' or 'Marta Nowak, PhD'
        if all(_NAME_WORD.match(word) for word in words) and all(_name_cased(word) for word in words):
            return line
    return None


def _blocks(lines: list[str]) -> list[list[str]]:
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


@dataclass
class _Entry:
    title_lines: list[str] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    organization: str | None = None
    supervisor: str | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    has_org_block: bool = False


class _Reader:
    """Consumes blocks in order: positions and their organisations, then the trailing awards."""

    def __init__(self, parsed: ParsedProfile, rules: ParsingRules) -> None:
        self.parsed = parsed
        keywords = "|".join(re.escape(word) for word in rules.award_keywords)
        self.award_word = re.compile(rf"\b(?:{keywords})\b", re.IGNORECASE)
        self.entries: list[_Entry] = []
        self.in_awards = False
        self.open_award: Row | None = None

    def block(self, block: list[str]) -> None:
        has_bullets = any(_BULLET.match(line) for line in block)
        if not self.in_awards and has_bullets:
            self.entries.append(self._position(block))
        elif not self.in_awards and self.entries and not self.entries[-1].has_org_block:
            if self.award_word.search(block[0]) and not _SUPERVISED.match(" ".join(block)):
                self.in_awards = True
                self._awards(block)
            else:
                self._organization(self.entries[-1], block)
        elif not self.in_awards and not self.entries:
            self.parsed.unparsed_lines.extend(block)
        else:
            self.in_awards = True
            self._awards(block)

    def _position(self, block: list[str]) -> _Entry:
        entry = _Entry()
        bullets: list[list[str]] = []  # each bullet's lines, joined at the end (not once per line)
        for line in block:
            if _BULLET.match(line):
                bullets.append([_BULLET.sub("", line, count=1).strip()])
            elif bullets:
                bullets[-1].append(line)  # a bullet wrapped onto the next line
            elif entry.start is None and (period := parse_period(line)):
                entry.start, entry.end = period.start, period.end
            else:
                entry.title_lines.append(line)
        entry.bullets = [" ".join(lines) for lines in bullets]
        return entry

    def _organization(self, entry: _Entry, block: list[str]) -> None:
        entry.has_org_block = True
        kept = []
        for line in block:
            if entry.start is None and (period := parse_period(line)):
                entry.start, entry.end = period.start, period.end
            else:
                kept.append(line)
        text = " ".join(kept)
        if match := _SUPERVISED.match(text):
            text, entry.supervisor = match["org"], match["supervisor"].strip()
        entry.organization = text.strip().rstrip(",;").strip() or None

    def _awards(self, block: list[str]) -> None:
        for line in block:
            award = self.open_award
            if award is not None and award["issuer"] is None and not self.award_word.search(line):
                award["issuer"] = line
            else:
                self.open_award = {"title": line, "issuer": None}
                self.parsed.awards.append(self.open_award)

    def finish(self) -> None:
        for position, entry in enumerate(self.entries, start=1):
            self.parsed.experience.append(
                {
                    "position": position,
                    "title": " ".join(entry.title_lines) or None,
                    "organization": entry.organization,
                    "supervisor": entry.supervisor,
                    "bullets": entry.bullets,
                    "start": entry.start,
                    "end": entry.end,
                }
            )

"""The two layouts, talent page and résumé, rendered once for every style, with the seed pages' defects:
odd spaces in the name, the last badge label glued to the bio, a degree written twice, declared counts
larger than the lists that follow, the role on its own line or glued to its label, tags glued together
(some unknown to the vocabulary), "1 commit", the site footer, "supervised by Dr. X" split over two lines.

Each rendered profile carries the rows the parser must produce (`expected`, without `profile_id`) and the
truth a scrubber is judged by (what was written of the owner, of other people, of technical words).
The random draws of the seed style are exactly those the seed generator always made, so the same seed
still gives the same documents (sample_data/ is one of them): a knob a style does not use draws nothing.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tools.profiles.people import Cast, Person, identity, name_words
from tools.profiles.text import fold, has_word
from tools.profiles.vocabulary import (
    AWARDS,
    BADGES,
    FOOTER,
    MONTHS,
    PROGRAMMING_LANGUAGES,
    ROLES,
    UNKNOWN_TAGS,
    Style,
)

IDENTIFIER_KINDS = {
    "full": "full_name",
    "first": "first_name",
    "last": "last_name",
    "caps": "name_in_capitals",
    "possessive": "possessive",
    "email": "email",
    "email_local": "email_local_part",
    "handle": "handle",
    "profile": "profile_url",
    "site": "personal_site",
    "repo": "own_repository",
    "phone": "phone",
}
_FIELD = re.compile(r"\{(\w+)(?:=([^{}]*))?\}")


@dataclass
class Profile:
    """One generated document, what the parser must make of it, and what a scrubber must remove or keep.

    `expected`: the rows per table (as `tests/parse/helpers.parse_text` returns them). Truth:
    `person_identifiers[i]` (of kind `identifier_kinds[i]`) are the owner's names and contact details as
    written here; `other_names` colleagues', co-authors' and supervisors' full names; `technical_words`
    the tools and fields written in the free text; `namesake_employers` the employers and organisations
    here named after a surname (ordinary words, though someone in the set may bear that name).
    """

    layout: str
    text: str
    expected: dict[str, Any] = field(default_factory=dict)
    person_identifiers: list[str] = field(default_factory=list)
    other_names: list[str] = field(default_factory=list)
    technical_words: list[str] = field(default_factory=list)
    identifier_kinds: list[str] = field(default_factory=list)
    full_name: str = ""
    namesake_employers: list[str] = field(default_factory=list)
    rare_phrases: list[str] = field(default_factory=list)
    """Names of projects, labs and awards only this document's person has (scrape style)."""
    data: bytes | None = None
    """The document's bytes when they are not `text` in UTF-8 (a zipped export: profiles/structured.py)."""
    suffix: str = ".txt"


def _one(rng: random.Random, options: Sequence[Any]) -> Any:
    """`rng.choice`, with no draw when there is one option."""
    return options[0] if len(options) == 1 else rng.choice(options)


def _some(rng: random.Random, options: Sequence[Any], low: int, high: int) -> list[Any]:
    """`rng.sample` of `low` to `high` options, with no draw when that is all of one option or none."""
    if high == 0 or (low == high == len(options) == 1):
        return list(options[:high])
    return rng.sample(options, rng.randint(low, high))


@functools.cache
def _tokens(template: str) -> tuple[tuple[str, str, str, bool], ...]:
    """(literal text, key, argument, key followed by "'s") per field of the template, then the tail."""
    tokens, at = [], 0
    for match in _FIELD.finditer(template):
        tokens.append(
            (template[at : match.start()], match[1], match[2] or "", template.startswith("'s", match.end()))
        )
        at = match.end()
    return (*tokens, (template[at:], "", "", False))


class Writer:
    """Renders one profile: fills templates and records what it writes of people and technical words."""

    def __init__(self, rng: random.Random, style: Style, cast: Cast, owner: Person | None) -> None:
        self.rng, self.style, self.cast, self.owner = rng, style, cast, owner
        self.fields = identity(rng, owner, style) if owner else {}
        self.context: dict[str, str] = {}
        self.written: list[str] = []  # the owner's identifiers as written
        self.technical: list[str] = []
        self.others: list[str] = []
        self.team: list[str] = []
        self.taken = {owner.full} if owner else set()
        self.namesakes: list[str] = []
        self.rare: list[str] = []

    def pick(self, options: Sequence[Any]) -> Any:
        """`rng.choice`, or with the style's skew a Zipf-weighted draw (the first options most often)."""
        if not self.style.skew:
            return self.rng.choice(options)
        return self.rng.choices(options, weights=_zipf(len(options), self.style.skew))[0]

    def pick_some(self, options: Sequence[Any], count: int) -> list[Any]:
        """`rng.sample`, or with the style's skew a Zipf-weighted sample without replacement."""
        if not self.style.skew:
            return self.rng.sample(options, count)
        weights = _zipf(len(options), self.style.skew)
        keys = sorted(range(len(options)), key=lambda i: -(self.rng.random() ** (1 / weights[i])))
        return [options[i] for i in keys[:count]]

    def rare_name(self) -> str:
        """A made-up project name, CamelCase as such names are ("Quorvex", "TessaIR")."""
        name = self.rng.choice(_SYLLABLES).capitalize() + self.rng.choice(_SYLLABLES)
        name += self.rng.choice(("", "", "IR", "DB", "Bench", "Flow", "KV", "ML"))
        self.rare.append(name)
        return name

    def other(self) -> str:
        """Another person's full name: a new one each time, or one of the document's team (drawn at the
        first mention), who then recur in its text."""
        if self.style.team:
            if not self.team:
                for _ in range(self.rng.randint(*self.style.team)):
                    wants_particle = not self.team and self.rng.random() < 0.5
                    person = self.cast.other(self.owner, self.taken, wants_particle)
                    self.taken.add(person.full)
                    self.team.append(person.full)
            name = self.team[len(self.others) % len(self.team)]
        else:
            name = self.cast.other(self.owner, self.taken, False).full
        self.others.append(name)
        return name

    def tech(self, avoid: Sequence[str]) -> str:
        style = self.style
        while True:
            draw = self.rng.random()
            pool = style.tricky if draw < 0.45 else style.multi_word_tools if draw < 0.52 else style.technical
            word: str = self.rng.choice(pool)
            if word not in avoid:
                return word

    def fill(self, template: str) -> str:
        out: list[str] = []
        drawn: list[str] = []
        for literal, key, argument, possessive in _tokens(template):
            out.append(literal)
            if not key:
                continue
            if key == "T":
                value = argument or self.tech(avoid=drawn)
                drawn.append(value)
                self.technical.append(value)
            elif key == "MW":
                value = self.rng.choice(self.style.fields)
                self.technical.append(value)
            elif key == "O":
                value = self.other()
            elif key == "RARE":
                value = self.rare_name()
            elif key in ("LAB", "S"):
                surname = self.cast.surname(frozenset(name_words(self.owner) if self.owner else ())) or "Hale"
                value = f"{surname} Lab" if key == "LAB" else surname
                if key == "LAB":
                    self.rare.append(value)
            elif key == "Y":
                value = str(self.rng.randint(2003, 2021))
            elif key in self.fields:
                value = self.fields[key]
                self.written.append(value)
                if key == "first" and possessive:
                    self.written.append(self.fields["possessive"])
            else:
                value = self.context[key]
            out.append(value)
        return "".join(out)

    def firm(self, plain: str) -> str:
        """`plain`, or for a share of firms one named after people ("Okafor Partners", "Osei & Moreau")."""
        share = self.style.namesake_share
        if not share or self.rng.random() >= share:
            return plain
        avoid = set(name_words(self.owner)) if self.owner else set()
        out: list[str] = []
        for literal, key, _, _ in _tokens(_one(self.rng, self.style.namesake_firms)):
            out.append(literal)
            if key == "S":
                surname = self.cast.surname(frozenset(avoid))
                if surname is None:
                    return plain
                avoid |= name_words(Person("", surname))
                out.append(surname)
        name = "".join(out)
        self.namesakes.append(name)
        return name

    def truth(self, layout: str, text: str, expected: dict[str, Any]) -> Profile:
        """The profile, with the owner's identifiers: every form of them found (folded, on word boundaries)
        in what was written of the owner, as an evaluation would find them in the whole document."""
        folded = {value: fold(value) for value in [*self.written, *self.fields.values()]}
        haystack = "\n|\n".join(folded[value] for value in self.written)
        found = [
            (kind, self.fields[key])
            for key, kind in IDENTIFIER_KINDS.items()
            if key in self.fields and has_word(haystack, folded[self.fields[key]])
        ]
        return Profile(
            layout=layout,
            text=text,
            expected=expected,
            person_identifiers=[value for _, value in found],
            other_names=list(dict.fromkeys(self.others)),
            technical_words=list(dict.fromkeys(self.technical)),
            identifier_kinds=[kind for kind, _ in found],
            full_name=self.owner.full if self.owner else "",
            namesake_employers=list(dict.fromkeys(self.namesakes)),
            rare_phrases=list(dict.fromkeys(self.rare)),
        )


_SYLLABLES = ("quor", "vex", "tess", "zan", "mori", "kel", "drax", "oly", "pim", "sar", "thul", "vanta",
              "rix", "neb", "okt", "lum", "fera", "gald", "hesk", "ibri", "jorv", "kast")  # fmt: skip


def _zipf(count: int, skew: float) -> list[float]:
    return [1 / (rank + 1) ** skew for rank in range(count)]


def render(rng: random.Random, style: Style, cast: Cast, resume_share: float) -> Profile:
    """One profile: a résumé with probability `resume_share`, else a talent page."""
    layout = "resume" if rng.random() < resume_share else "talent_page"
    owner = cast.owner() if layout == "talent_page" or style.resume_owner else None
    writer = Writer(rng, style, cast, owner)
    text, expected = _resume(writer) if layout == "resume" else _talent_page(writer)
    return writer.truth(layout, text, expected)


def _month(rng: random.Random, year_from: int, year_to: int) -> tuple[str, dt.date]:
    year, month = rng.randint(year_from, year_to), rng.randint(1, 12)
    return f"{MONTHS[month - 1]} {year}", dt.date(year, month, 1)


def _duration_text(months: int) -> str:
    years, rest = divmod(months, 12)
    parts = []
    if years:
        parts.append(f"{years} year{'s' if years != 1 else ''}")
    if rest or not years:
        parts.append(f"{rest} month{'s' if rest != 1 else ''}")
    return " ".join(parts)


def _bio(writer: Writer) -> str:
    rng, style = writer.rng, writer.style
    templates = [_one(rng, style.bio_openings), *_some(rng, style.bio_middles, *style.bio_middle_count)]
    if style.rare_bio:
        templates.append(rng.choice(style.rare_bio))
    contacts = _some(rng, style.bio_contacts, *style.bio_contact_count)
    for key in ("{email}", "{profile}") if style.bio_contacts else ():
        if not any(key in template for template in contacts):
            contacts.append(next(template for template in style.bio_contacts if key in template))
    return " ".join(writer.fill(template) for template in [*templates, *contacts])


def _talent_page(writer: Writer) -> tuple[str, dict[str, Any]]:
    rng, style, owner = writer.rng, writer.style, writer.owner
    assert owner is not None
    name = owner.full
    title, employer = writer.pick(style.titles), writer.firm(writer.pick(style.employers))
    city, region, country = writer.pick(style.locations)
    location = ", ".join(part for part in (city, region, country) if part)
    badges = rng.sample(BADGES, rng.randint(1, 3))
    coding, employment = rng.randint(3, 25), rng.randint(1, 20)
    writer.context.update(title=title, employer=employer, city=city, years=str(coding))
    bio = _bio(writer)
    degree, field_ = rng.choice(style.degrees)
    institution = writer.pick(style.institutions)
    twice = rng.random() < 0.4
    studies = f"{degree}, {field_}, {degree}, {field_}" if twice else f"{degree}, {field_}"
    languages = rng.sample(style.languages, rng.randint(1, 3))
    skills = [(skill, rng.randint(5, 10)) for skill in writer.pick_some(style.skills, rng.randint(3, 12))]
    skills.sort(key=lambda item: -item[1])
    declared_skills = len(skills) + rng.choice([0, 0, 2, 3])
    programming = [
        (lang, rng.randint(5, 10)) for lang in rng.sample(PROGRAMMING_LANGUAGES, rng.randint(0, 3))
    ]
    declared_programming = len(programming) + rng.choice([0, 1, 4])
    repositories = writer.pick_some(style.repositories, rng.randint(1, 3))
    if "repo" in writer.fields:  # the owner's own repository, an identifier
        mine = (writer.fields["repo"], rng.choice([description for _, description in style.repositories]))
        repositories.insert(rng.randint(0, len(repositories)), mine)
    declared_contributions = len(repositories) + rng.choice([0, 0, 3])
    name_space = rng.choice(style.spaces)

    lines = [name.replace(" ", name_space, _one(rng, style.space_counts)), f"{title} at {employer}"]
    lines += [location, "Summary"]
    writer.written.append(name)
    icons_and_labels = [icon for icon, _ in badges[:1]]
    for (_, label), (icon, _) in zip(badges, [*badges[1:], ("", "")], strict=True):
        icons_and_labels.append(f"{label}{icon}" if icon else label)
    lines += icons_and_labels[:-1]
    lines.append(icons_and_labels[-1] + bio)  # the last badge label glued to the bio
    lines += [
        f"{coding} years of coding experience",
        f"{employment} years of employment as a software developer",
        f"{studies} at {institution}",
        ", ".join(languages),
        f"Github Skills ({declared_skills})",
        *[f"{skill}{score}" for skill, score in skills],
        f"Programming languages ({declared_programming})",
        *[f"{lang}{score}" for lang, score in programming],
        f"Github contributions ({declared_contributions})",
    ]
    contributions = []
    for repository, description_template in repositories:
        start_text, start = _month(rng, 2014, 2020)
        end_year = start.year + rng.randint(0, 3)
        end = dt.date(
            end_year, rng.randint(1, 12) if end_year > start.year else rng.randint(start.month, 12), 1
        )
        months = (end.year - start.year) * 12 + end.month - start.month
        role, commits = rng.choice(ROLES), rng.randint(1, 400)
        tags = rng.sample(style.tags, rng.randint(*style.tag_count))
        if rng.random() < 0.2:
            tags.insert(rng.randint(0, len(tags)), rng.choice(UNKNOWN_TAGS))
        own = repository == writer.fields.get("repo")
        contact = own and bool(style.contact_summaries) and rng.random() < 0.5
        summary = writer.fill(_one(rng, style.contact_summaries if contact else style.summaries))
        description = writer.fill(description_template)
        if own:
            writer.written.append(repository)
        lines += [repository, f"{start_text} - {MONTHS[end.month - 1]} {end.year}", description]
        if rng.random() < 0.5:
            lines += ["Role in this project:", role]
        else:
            lines.append(f"Role in this project:{role}")
        plural = "s" if commits != 1 else ""
        lines += [
            f"{role}Contributions:{commits} commit{plural} in {_duration_text(months)}",
            f"Contributions summary:{summary}",
            "".join(tags),
        ]
        contributions.append(
            {
                "repository": repository,
                "description": description,
                "start": start,
                "end": end,
                "role": role,
                "commits": commits,
                "duration_months": months,
                "summary": summary,
                "tags": tags,
            }
        )
    lines.append(FOOTER)
    profile = {
        "layout": "talent_page",
        "name": name,
        "headline": f"{title} at {employer}",
        "title": title,
        "employer": employer,
        "location": location,
        "city": city,
        "region": region,
        "country": country,
        "summary": bio,
        "badges": [label for _, label in badges],
        "coding_years": coding,
        "employment_years": employment,
        "spoken_languages": languages,
        "declared_skills": declared_skills,
        "declared_programming_languages": declared_programming,
        "declared_contributions": declared_contributions,
    }
    expected = {
        "profile": profile,
        "education": [{"degree": degree, "field": studies.partition(", ")[2], "institution": institution}],
        "skills": [{"kind": "github_skill", "skill": s, "score": n} for s, n in skills]
        + [{"kind": "programming_language", "skill": s, "score": n} for s, n in programming],
        "contributions": contributions,
        "experience": [],
        "awards": [],
        "unparsed_lines": [],
    }
    return "\n".join(lines) + "\n", expected


def _resume(writer: Writer) -> tuple[str, dict[str, Any]]:
    rng, style = writer.rng, writer.style
    titles = writer.pick_some(style.positions, rng.randint(1, 5))
    organizations = [writer.firm(org) for org in writer.pick_some(style.organizations, len(titles))]
    experience: list[dict[str, Any]] = []
    for position, (title, organization) in enumerate(zip(titles, organizations, strict=True), start=1):
        bullets = [writer.fill(bullet) for bullet in rng.sample(style.bullets, rng.randint(1, 4))]
        if style.other_bullets and rng.random() < style.other_bullet_share:
            bullets.insert(rng.randint(0, len(bullets)), writer.fill(rng.choice(style.other_bullets)))
        start = None
        if style.period_share and rng.random() < style.period_share:
            start = _month(rng, 2008, 2021)[1]
        supervisor = f"Dr. {writer.other()}" if rng.random() < 0.3 else None
        experience.append(
            {
                "position": position,
                "title": title,
                "organization": organization,
                "supervisor": supervisor,
                "bullets": bullets,
                "start": start,
                "end": None,
            }
        )
    if writer.owner and style.owner_bullets:  # the owner's own lines, each at the top of some entry
        share = style.owner_bullet_share
        kinds = [*style.owner_bullets_always, *[k for k, _ in style.owner_bullets if rng.random() < share]]
        templates = dict(style.owner_bullets)
        for kind in dict.fromkeys(kinds):
            experience[rng.randrange(len(experience))]["bullets"].insert(0, writer.fill(templates[kind]))
    if style.rare_bullets:
        entry = experience[rng.randrange(len(experience))]
        entry["bullets"].insert(
            rng.randint(0, len(entry["bullets"])), writer.fill(rng.choice(style.rare_bullets))
        )
    lines = ["Experience", ""]
    for entry in experience:
        lines.append(entry["title"])
        if entry["start"]:
            lines.append(f"{MONTHS[entry['start'].month - 1]} {entry['start'].year} - Present")
        lines += [f"- {bullet}" for bullet in entry["bullets"]]
        lines.append("")
        if entry["supervisor"]:
            lines += [f"{entry['organization']},", f"supervised by {entry['supervisor']}"]
        else:
            lines.append(entry["organization"])
        lines.append("")
    chosen = rng.sample(AWARDS, rng.randint(0, 4))
    if style.rare_awards and rng.random() < 0.5:
        title = writer.fill(rng.choice(style.rare_awards))
        writer.rare.append(title)
        chosen.append((title, None))
    awards = []
    for title, issuer in chosen:
        lines += [title, ""]
        if issuer:
            lines += [issuer, ""]
        awards.append({"title": title, "issuer": issuer})
    expected = {
        "profile": {"layout": "resume"},
        "education": [],
        "skills": [],
        "contributions": [],
        "experience": experience,
        "awards": awards,
        "unparsed_lines": [],
    }
    return "\n".join(lines).rstrip("\n"), expected

"""Layout `json_resume`: a résumé in the JSON Resume schema (jsonresume.org, v1.x), with the legacy v0 key
names real files still carry (`company` for `name`, `website` for `url`, `picture` for `image`, `gpa` for
`score`). Mapping (docs/formats.md has the whole table):

    basics.name / label / summary        profiles.name / headline / summary
    basics.location                      profiles.location, city, region, country (countryCode -> name)
    basics.email, phone, url, image,     profiles.contacts (never released; they seed the scrubber and
      location.address, profiles[]         verification: a username is written '@username')
    work[].url                           dropped: the employer's site, not the person's
    work[], volunteer[]                  experience (title, organization, bullets: summary + highlights)
    the first current work entry         profiles.title, profiles.employer
    education[]                          education (degree: studyType, field: area, institution)
    awards[], certificates[]             awards (title, issuer: awarder / issuer)
    skills[] name and keywords           skills, kind listed_skill (levels are dropped)
    languages[]                          profiles.spoken_languages
    projects[] at a code host            contributions (repository owner/name, description, roles, tags)
    references[]                         profiles.other_people (their words are dropped)
    everything else                      profiles.unparsed_lines as 'key: value' (never released)

Dates come as 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'; `endDate: ""` means a current position. HTML in text is
reduced to its text. Keys this parser does not know are kept in `unparsed_lines`, never an error.
"""

from __future__ import annotations

import json
from typing import Any

from toolkit.parse.document import ParsedProfile, Row
from toolkit.parse.fields import split_location
from toolkit.parse.values import date_of, line, repository_of, text_of, texts_of
from toolkit.rules import ParsingRules

LAYOUT = "json_resume"

_SECTIONS = frozenset(
    {
        "basics", "work", "volunteer", "education", "awards", "certificates", "publications", "skills",
        "languages", "interests", "references", "projects",
    }
)  # fmt: skip
_IGNORED = frozenset({"$schema", "meta"})
"""Keys about the file, not the person."""
_MIN_SECTIONS = 2


def detect(document: Any) -> bool:
    """A JSON object with a `basics` object, or two of the schema's sections, and no GitHub `login`."""
    if not isinstance(document, dict) or "login" in document:
        return False
    if isinstance(document.get("basics"), dict):
        return True
    return sum(isinstance(document.get(key), list) for key in _SECTIONS) >= _MIN_SECTIONS


def parse(document: dict[str, Any], rules: ParsingRules) -> ParsedProfile:
    basics = _object(document.get("basics"))
    parsed = ParsedProfile(profile={})
    parsed.profile.update(_basics(basics, parsed, rules))
    work = [_object(entry) for entry in _list(document.get("work"))]
    volunteer = [_object(entry) for entry in _list(document.get("volunteer"))]
    current = next((entry for entry in work if _is_current(entry)), None)
    if current is not None:
        parsed.profile["title"] = text_of(current.get("position"))
        parsed.profile["employer"] = text_of(_first(current, "name", "company"))
    for entry in [*work, *volunteer]:
        _experience(entry, parsed)
    for entry in _list(document.get("education")):
        _education(_object(entry), parsed)
    for entry in _list(document.get("awards")):
        entry = _object(entry)
        _award(parsed, entry.get("title"), entry.get("awarder"))
        parsed.unparsed_lines.extend(filter(None, [line("award summary", entry.get("summary"))]))
    for entry in _list(document.get("certificates")):
        entry = _object(entry)
        _award(parsed, entry.get("name"), entry.get("issuer"))
        parsed.contacts.extend(texts_of(entry.get("url")))
    _skills(document.get("skills"), parsed)
    parsed.profile["spoken_languages"] = [
        language
        for entry in _list(document.get("languages"))
        if (language := text_of(_object(entry).get("language"))) is not None
    ] or None
    for entry in _list(document.get("projects")):
        _project(_object(entry), parsed)
    for entry in _list(document.get("references")):
        entry = _object(entry)
        parsed.other_people.extend(texts_of(entry.get("name")))
    for entry in _list(document.get("publications")):
        entry = _object(entry)
        parts = [entry.get("name"), entry.get("publisher"), entry.get("releaseDate"), entry.get("summary")]
        parsed.unparsed_lines.extend(filter(None, [line("publication", texts_of(parts))]))
        parsed.contacts.extend(texts_of(entry.get("url")))
    for entry in _list(document.get("interests")):
        entry = _object(entry)
        parsed.unparsed_lines.extend(
            filter(None, [line("interest", [entry.get("name"), *_list(entry.get("keywords"))])])
        )
    for key, value in document.items():
        if key not in _SECTIONS and key not in _IGNORED:
            parsed.unparsed_lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)[:2000]}")
    return parsed


def _basics(basics: dict[str, Any], parsed: ParsedProfile, rules: ParsingRules) -> Row:
    location = _object(basics.get("location"))
    city, region = text_of(location.get("city")), text_of(location.get("region"))
    code = text_of(location.get("countryCode"))
    country = rules.country_codes.get(code.upper()) if code else None
    if code and country is None:
        parsed.unparsed_lines.append(f"countryCode: {code}")
    written = ", ".join(part for part in (city, region, country) if part) or None
    if written and not (city or region):
        city, region, country = split_location(written)
    for key in ("email", "phone", "url", "website", "image", "picture"):
        parsed.contacts.extend(texts_of(basics.get(key)))
    parsed.contacts.extend(texts_of([location.get("address"), location.get("postalCode")]))
    for entry in _list(basics.get("profiles")):
        entry = _object(entry)
        parsed.contacts.extend(texts_of(entry.get("url")))
        parsed.contacts.extend(f"@{username.lstrip('@')}" for username in texts_of(entry.get("username")))
    known = {"name", "label", "summary", "location", "profiles", "email", "phone", "url", "website"}
    for key, value in basics.items():
        if key not in known and key not in ("image", "picture"):
            parsed.unparsed_lines.extend(filter(None, [line(key, value)]))
    return {
        "name": text_of(basics.get("name")),
        "headline": text_of(basics.get("label")),
        "summary": text_of(basics.get("summary")),
        "location": written,
        "city": city,
        "region": region,
        "country": country,
    }


def _experience(entry: dict[str, Any], parsed: ParsedProfile) -> None:
    title = text_of(entry.get("position"))
    organization = text_of(_first(entry, "name", "company", "organization"))
    bullets = texts_of([entry.get("summary"), entry.get("description"), *_list(entry.get("highlights"))])
    if title is None and organization is None and not bullets:
        return
    parsed.unparsed_lines.extend(filter(None, [line("location", entry.get("location"))]))
    parsed.experience.append(
        {
            "position": len(parsed.experience) + 1,
            "title": title,
            "organization": organization,
            "bullets": bullets or None,
            "start": date_of(entry.get("startDate")),
            "end": None if _is_current(entry) else date_of(entry.get("endDate")),
        }
    )


def _education(entry: dict[str, Any], parsed: ParsedProfile) -> None:
    row = {
        "degree": text_of(entry.get("studyType")),
        "field": text_of(entry.get("area")),
        "institution": text_of(entry.get("institution")),
    }
    if any(row.values()):
        parsed.education.append(row)
    for key in ("score", "gpa", "courses", "startDate", "endDate"):
        parsed.unparsed_lines.extend(filter(None, [line(f"education {key}", entry.get(key))]))


def _award(parsed: ParsedProfile, title: Any, issuer: Any) -> None:
    if (text := text_of(title)) is not None:
        parsed.awards.append({"title": text, "issuer": text_of(issuer)})


def _skills(section: Any, parsed: ParsedProfile) -> None:
    seen: set[str] = set()
    for entry in _list(section):
        entry = _object(entry)
        for skill in texts_of([entry.get("name"), *_list(entry.get("keywords"))]):
            if skill.casefold() not in seen:
                seen.add(skill.casefold())
                parsed.skills.append({"kind": "listed_skill", "skill": skill, "score": None})


def _project(entry: dict[str, Any], parsed: ParsedProfile) -> None:
    url = _first(entry, "url", "website")
    repository = repository_of(url)
    if repository is None:
        parts = [entry.get("name"), entry.get("description"), *_list(entry.get("highlights"))]
        parsed.unparsed_lines.extend(filter(None, [line("project", parts)]))
        parsed.contacts.extend(texts_of(url))
        return
    parsed.contributions.append(
        {
            "repository": repository,
            "description": text_of(entry.get("description")),
            "start": date_of(entry.get("startDate")),
            "end": date_of(entry.get("endDate")),
            "role": ", ".join(texts_of(entry.get("roles"))) or None,
            "summary": "; ".join(texts_of(entry.get("highlights"))) or None,
            "tags": texts_of(entry.get("keywords")) or None,
        }
    )


def _is_current(entry: dict[str, Any]) -> bool:
    return "endDate" not in entry or text_of(entry.get("endDate")) is None


def _first(entry: dict[str, Any], *keys: str) -> Any:
    return next((entry[key] for key in keys if entry.get(key) not in (None, "")), None)


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []

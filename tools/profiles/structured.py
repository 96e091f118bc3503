"""A generated profile re-written in a structured format: JSON Resume, a GitHub REST API user with its
repositories, or a LinkedIn data export (a zip of CSVs), as the public formats state them.

The values are the rendered profile's own rows (its `expected`), so the planted identifiers in its free
text travel along; the contacts the truth lists (e-mail, phone, site, handle, profile URL) go where each
format states them. What a format has no place for is left out (a GitHub user has no education), and the
truth is cut to what the new document still holds: an identifier, another person's name, a technical
word or a rare phrase counts only when it is found (folded, on word boundaries) in the document's text.
`expected` becomes None: the structured parsers have their own fixtures (tests/parse/formats/).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import random
import zipfile
from dataclasses import replace
from typing import Any

from tools.profiles.render import Profile
from tools.profiles.text import fold, has_word

FORMATS = ("json_resume", "github_api", "linkedin_export")
SUFFIX = {"json_resume": ".json", "github_api": ".json", "linkedin_export": ".zip"}
_ZIP_TIME = (2026, 1, 1, 0, 0, 0)


def restructure(doc: Profile, fmt: str, rng: random.Random) -> Profile:
    """`doc` as a document of `fmt` (one of FORMATS)."""
    rows = doc.expected
    profile = rows.get("profile", {})
    contacts = dict(zip(doc.identifier_kinds, doc.person_identifiers, strict=True))
    if fmt == "json_resume":
        text = json.dumps(_resume(rows, profile, contacts), indent=2, ensure_ascii=False, default=str)
        data = text.encode("utf-8")
    elif fmt == "github_api":
        text = json.dumps(_github(rows, profile, contacts, rng), ensure_ascii=False, default=str)
        data = text.encode("utf-8")
    elif fmt == "linkedin_export":
        files = _linkedin(rows, profile, contacts)
        text = "\n".join(files.values())
        data = _zipped(files)
    else:
        raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    haystack = fold(text)
    kept = [(kind, value) for kind, value in zip(doc.identifier_kinds, doc.person_identifiers, strict=True)]
    kept = [(kind, value) for kind, value in kept if has_word(haystack, fold(value))]
    return replace(
        doc,
        layout=fmt,
        text=text,
        data=data,
        suffix=SUFFIX[fmt],
        expected={},
        person_identifiers=[value for _, value in kept],
        identifier_kinds=[kind for kind, _ in kept],
        other_names=[name for name in doc.other_names if has_word(haystack, fold(name))],
        technical_words=[word for word in doc.technical_words if has_word(haystack, fold(word))],
        rare_phrases=[phrase for phrase in doc.rare_phrases if has_word(haystack, fold(phrase))],
    )


def _iso(value: Any) -> str:
    return value.isoformat()[:7] if isinstance(value, dt.date) else ""


def _month_year(value: Any) -> str:
    return value.strftime("%b %Y") if isinstance(value, dt.date) else ""


def _current(rows: dict[str, Any], profile: dict[str, Any]) -> list[dict[str, Any]]:
    """The positions: the talent page's title at its employer (current), then the résumé's entries."""
    positions: list[dict[str, Any]] = []
    if profile.get("title") or profile.get("employer"):
        positions.append(
            {"title": profile.get("title"), "organization": profile.get("employer"), "bullets": []}
        )
    for entry in rows.get("experience", []):
        bullets = list(entry.get("bullets") or [])
        if entry.get("supervisor"):
            bullets.append(f"Supervised by {entry['supervisor']}.")
        positions.append({**entry, "bullets": bullets})
    return positions


def _resume(rows: dict[str, Any], profile: dict[str, Any], contacts: dict[str, str]) -> dict[str, Any]:
    basics: dict[str, Any] = {
        "name": profile.get("name") or contacts.get("full_name", ""),
        "label": profile.get("headline"),
        "email": contacts.get("email", ""),
        "phone": contacts.get("phone"),
        "url": contacts.get("personal_site", ""),
        "summary": profile.get("summary"),
        "location": {"city": profile.get("city"), "region": profile.get("region")},
        "profiles": [],
    }
    if contacts.get("handle"):
        basics["profiles"].append(
            {
                "network": "GitHub",
                "username": contacts["handle"].lstrip("@"),
                "url": contacts.get("profile_url"),
            }
        )
    work = [
        {
            "name": entry.get("organization"),
            "position": entry.get("title"),
            "startDate": _iso(entry.get("start")),
            "endDate": _iso(entry.get("end")),
            "highlights": entry["bullets"],
        }
        for entry in _current(rows, profile)
    ]
    return {
        "basics": basics,
        "work": work,
        "education": [
            {"institution": row.get("institution"), "area": row.get("field"), "studyType": row.get("degree")}
            for row in rows.get("education", [])
        ],
        "awards": [{"title": row["title"], "awarder": row.get("issuer")} for row in rows.get("awards", [])],
        "skills": [{"name": row["skill"], "level": "", "keywords": []} for row in rows.get("skills", [])],
        "languages": [{"language": language} for language in profile.get("spoken_languages") or []],
        "projects": [
            {
                "name": row["repository"].rpartition("/")[2],
                "url": f"https://github.com/{row['repository']}",
                "description": row.get("description"),
                "highlights": [row["summary"]] if row.get("summary") else [],
                "keywords": row.get("tags") or [],
                "roles": [row["role"]] if row.get("role") else [],
                "startDate": _iso(row.get("start")),
                "endDate": _iso(row.get("end")),
            }
            for row in rows.get("contributions", [])
        ],
    }


def _github(
    rows: dict[str, Any], profile: dict[str, Any], contacts: dict[str, str], rng: random.Random
) -> dict[str, Any]:
    login = contacts.get("handle", "").lstrip("@") or f"dev{rng.randrange(10**6):06d}"
    languages = [row["skill"] for row in rows.get("skills", []) if row["kind"] == "programming_language"]
    repositories = [
        {
            "full_name": row["repository"],
            "description": " ".join(filter(None, [row.get("description"), row.get("summary")])) or None,
            "language": languages[index % len(languages)] if languages else None,
            "topics": row.get("tags") or [],
            "fork": False,
            "owner": {"login": row["repository"].partition("/")[0]},
            "created_at": f"{row['start'].isoformat()}T00:00:00Z" if row.get("start") else None,
            "pushed_at": f"{row['end'].isoformat()}T00:00:00Z" if row.get("end") else None,
        }
        for index, row in enumerate(rows.get("contributions", []))
    ]
    return {
        "login": login,
        "id": rng.randrange(10**7),
        "html_url": f"https://github.com/{login}",
        "type": "User",
        "name": profile.get("name") or None,
        "company": profile.get("employer"),
        "blog": contacts.get("personal_site", ""),
        "location": profile.get("location"),
        "email": contacts.get("email"),
        "bio": profile.get("summary"),
        "twitter_username": None,
        "public_repos": len(repositories),
        "repos": repositories,
    }


def _csv(header: list[str], records: list[list[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([["" if cell is None else cell for cell in record] for record in records])
    return buffer.getvalue()


def _linkedin(rows: dict[str, Any], profile: dict[str, Any], contacts: dict[str, str]) -> dict[str, str]:
    first, _, last = (profile.get("name") or contacts.get("full_name", "")).partition(" ")
    files = {
        "Profile.csv": "\ufeff"
        + _csv(
            ["First Name", "Last Name", "Maiden Name", "Address", "Birth Date", "Headline", "Summary",
             "Industry", "Zip Code", "Geo Location", "Twitter Handles", "Websites", "Instant Messengers"],
            [[first, last, "", "", "", profile.get("headline"), profile.get("summary"), "", "",
              profile.get("location"), "",
              f"[PERSONAL:{contacts['personal_site']}]" if contacts.get("personal_site") else "", ""]],
        ),
        "Positions.csv": _csv(
            ["Company Name", "Title", "Description", "Location", "Started On", "Finished On"],
            [[entry.get("organization"), entry.get("title"), " ".join(entry["bullets"]), "",
              _month_year(entry.get("start")), _month_year(entry.get("end"))]
             for entry in _current(rows, profile)],
        ),
        "Education.csv": _csv(
            ["School Name", "Start Date", "End Date", "Notes", "Degree Name", "Activities"],
            [[row.get("institution"), "", "", "", row.get("degree"), ""]
             for row in rows.get("education", [])],
        ),
        "Skills.csv": _csv(["Name"], [[row["skill"]] for row in rows.get("skills", [])]),
        "Honors.csv": _csv(
            ["Title", "Description", "Issued On"],
            [[row["title"], row.get("issuer") or "", ""] for row in rows.get("awards", [])],
        ),
        "Projects.csv": _csv(
            ["Title", "Description", "Url", "Started On", "Finished On"],
            [[row["repository"].rpartition("/")[2],
              " ".join(filter(None, [row.get("description"), row.get("summary")])),
              f"https://github.com/{row['repository']}", _month_year(row.get("start")),
              _month_year(row.get("end"))]
             for row in rows.get("contributions", [])],
        ),
    }  # fmt: skip
    if contacts.get("email"):
        files["Email Addresses.csv"] = _csv(
            ["Email Address", "Confirmed", "Primary", "Updated On"],
            [[contacts["email"], "Yes", "Yes", "1/2/24"]],
        )
    if contacts.get("phone"):
        files["PhoneNumbers.csv"] = _csv(["Extension", "Number", "Type"], [["", contacts["phone"], "Mobile"]])
    return files


def _zipped(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(
                zipfile.ZipInfo(name, date_time=_ZIP_TIME), text.encode("utf-8"), zipfile.ZIP_DEFLATED
            )
    return buffer.getvalue()

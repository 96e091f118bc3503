"""Layout `github_api`: a GitHub REST API user object (`gh api users/NAME`, or a crawler's copy), with its
repositories where the file holds them: under `repos` or `repositories` beside the user's keys, or as
`{"user": {...}, "repos": [...]}`. Mapping (docs/formats.md has the whole table):

    name, bio, company, location         profiles.name, summary, employer ('@org' loses its '@'),
                                           location, city, region, country
    login, html_url, blog, email,        profiles.contacts (never released; they seed the scrubber and
      twitter_username                     verification: the login is written '@login')
    repositories                         contributions (repository: full_name, description, tags: topics,
                                           role: 'fork' or 'owner', start: created_at, end: pushed_at)
    each repository's language           skills, kind programming_language, without a score
    counts, ids, API links, account      dropped: a count or an id says nothing an analyst needs, and an
      dates, avatar, hireable              account's creation date is as good as a key

Many keys are null in real objects; any may be missing. Unknown keys are dropped (they are the API's).
"""

from __future__ import annotations

import re
from typing import Any

from toolkit.parse.document import ParsedProfile
from toolkit.parse.fields import split_location
from toolkit.parse.values import date_of, text_of, texts_of
from toolkit.rules import ParsingRules

LAYOUT = "github_api"

_ORG_MENTION = re.compile(r"(?<!\S)@(?=\w)")
"""'@acme-labs' in `company` mentions the organisation's account: the '@' goes, the name stays."""
_USER_MARKS = ("html_url", "public_repos", "followers", "node_id", "avatar_url", "type")


def detect(document: Any) -> bool:
    """A GitHub user object (a `login` and one of the keys every user object has), or the wrapper."""
    user = _user(document)
    return user is not None


def parse(document: dict[str, Any], rules: ParsingRules) -> ParsedProfile:
    user = _user(document) or {}
    login = text_of(user.get("login"))
    location = text_of(user.get("location"))
    city, region, country = split_location(location)
    company = text_of(user.get("company"))
    parsed = ParsedProfile(
        profile={
            "name": text_of(user.get("name")),
            "summary": text_of(user.get("bio")),
            "employer": _ORG_MENTION.sub("", company) if company else None,
            "location": location,
            "city": city,
            "region": region,
            "country": country,
        }
    )
    if login:
        parsed.contacts.append(f"@{login}")
    parsed.contacts.extend(texts_of([user.get("html_url"), user.get("blog"), user.get("email")]))
    parsed.contacts.extend(f"@{handle}" for handle in texts_of(user.get("twitter_username")))
    repositories = document.get("repos", document.get("repositories")) if "user" in document else None
    if repositories is None:
        repositories = user.get("repos", user.get("repositories"))
    languages: list[str] = []
    for repository in repositories if isinstance(repositories, list) else []:
        if not isinstance(repository, dict):
            continue
        full_name = text_of(repository.get("full_name"))
        if full_name is None:
            continue
        owner = text_of(_object(repository.get("owner")).get("login")) or full_name.partition("/")[0]
        parsed.contributions.append(
            {
                "repository": full_name,
                "description": text_of(repository.get("description")),
                "start": date_of(repository.get("created_at")),
                "end": date_of(repository.get("pushed_at")),
                "role": "fork" if repository.get("fork") is True else "owner" if owner == login else None,
                "tags": texts_of(repository.get("topics")) or None,
            }
        )
        language = text_of(repository.get("language"))
        if language is not None and language.casefold() not in {known.casefold() for known in languages}:
            languages.append(language)
    parsed.skills.extend(
        {"kind": "programming_language", "skill": language, "score": None} for language in languages
    )
    return parsed


def _user(document: Any) -> dict[str, Any] | None:
    if not isinstance(document, dict):
        return None
    wrapped = document.get("user")
    user: dict[str, Any] = wrapped if isinstance(wrapped, dict) else document
    if not isinstance(user.get("login"), str) or not any(key in user for key in _USER_MARKS):
        return None
    return user


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}

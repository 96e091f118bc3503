"""Write rules/vocabularies/address_words.yaml: the words of addresses in 61 languages (street types,
units, floors, buildings, entrances, staircases, house-number words, post offices, compass points), as
libpostal's dictionaries (MIT, openvenues/libpostal, resources/dictionaries/<language>/) list them.

Run: python -m tools.make_address_words LIBPOSTAL_CHECKOUT

Each dictionary line is a word and its abbreviations ('avenida|av|ava|ave'); the forms of one word (no
space inside) are kept, lower-cased, without a final period. Left out: the words of libpostal's stop-word
lists of any language ('in', 'to', 'de'), except the names of street types ('via') and the house-number
words ('no'): a stop word after an address is more often prose than a part of it. The scrubber takes a
lower-case address word for part of an address only before a number or a capitalised word.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

OUT = Path(__file__).parent.parent / "rules" / "vocabularies" / "address_words.yaml"
DICTIONARIES = (
    "street_types", "unit_types_numbered", "unit_types_standalone", "level_types_numbered",
    "level_types_standalone", "building_types", "entrances", "staircases", "number", "post_office",
    "directionals", "unit_directions", "house_numbers", "qualifiers",
)  # fmt: skip
HEADER = """\
# Words of addresses in 61 languages: street types ('rua', 'ul', 'straße', 'ул'), units, floors, buildings,
# entrances, staircases, house-number words ('no', 'nr', 'д'), post offices and compass points. A street
# address found in a line is widened over the parts written with it ('Str. Lazăr nr. 24, ap. 9, 300081
# Timișoara'): numbers, capitalised words, and these words when a number or a capitalised word follows.
# Source: libpostal's dictionaries (MIT, github.com/openvenues/libpostal, resources/dictionaries), made by
# tools/make_address_words.py. Lower case, no final period; extend it freely.
"""


def forms(path: Path, abbreviations: bool = True) -> set[str]:
    """The one-word forms of a libpostal dictionary file (or only its first, full words), lower-cased,
    without a final period."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        for form in line.split("|") if abbreviations else line.split("|")[:1]:
            form = form.strip().lower().rstrip(".")
            if form and " " not in form:
                found.add(form)
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    dictionaries = Path(argv[0]) / "resources" / "dictionaries"
    languages = sorted(path for path in dictionaries.iterdir() if path.is_dir())
    words: set[str] = set()
    kept_whole: set[str] = set()
    for language in languages:
        for name in DICTIONARIES:
            path = language / f"{name}.txt"
            if path.is_file():
                words |= forms(path)
                if name in ("number", "street_types"):
                    kept_whole |= forms(path, abbreviations=name == "number")
    stop_lists = [language / "stopwords.txt" for language in languages]
    stop_words = set().union(*(forms(path) for path in stop_lists if path.is_file())) - kept_whole
    kept = sorted(words - stop_words)
    body = yaml.safe_dump({"terms": kept}, default_flow_style=True, width=110, allow_unicode=True)
    OUT.write_text(HEADER + body, encoding="utf-8")
    print(f"wrote {len(kept)} address words of {len(languages)} languages to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

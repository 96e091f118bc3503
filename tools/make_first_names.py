"""Write rules/vocabularies/first_names.yaml: given names from the 1990 US Census (public domain), as shipped
by the MIT-licensed `names` package. Run: python -m tools.make_first_names

Faker's name lists are not used here on purpose: the privacy evaluation plants Faker names, and a gazetteer
built from the same lists would flatter it. Names that are also technical terms or allow-listed words
("Julia", "Ruby") are left out; the recognizer needs a capitalised word after the first name anyway.
"""

from __future__ import annotations

from pathlib import Path

import names  # type: ignore[import-untyped]
import yaml

RULES = Path(__file__).parent.parent / "rules"
OUT = RULES / "vocabularies" / "first_names.yaml"
HEADER = """# Given names for the first-name recognizer (toolkit/scrub/gazetteer.py): a known first name
# followed by a capitalised word that is not an allowed term is taken for a person. Source: the 1990 US
# Census name lists (public domain), via the MIT-licensed `names` package; made by
# tools/make_first_names.py.
# Add the given names of your own population here. Compared as written (Title Case) and in capitals.
"""
TECHNICAL_OUT = RULES / "vocabularies" / "technical_given_names.yaml"
TECHNICAL_HEADER = """\
# Given names of the 1990 US Census that are also technical or allowed words ("Julia", "Ruby"), left
# out of first_names.yaml: alone they are tools, but a phrase with one of them is not taken for the name
# of a product ("Julia Nakagawa" stays a person, though "Julia" is a language). Made by
# tools/make_first_names.py; compared as written (Title Case).
"""


def main() -> None:
    folder = Path(names.__file__).parent
    found = set()
    for list_name in ("dist.male.first", "dist.female.first"):
        for line in (folder / list_name).read_text().splitlines():
            if line.strip():
                found.add(line.split()[0].capitalize())
    excluded = set()
    for vocabulary in ("technical_terms.yaml", "allow_list.yaml", "spoken_languages.yaml"):
        excluded |= {
            str(term).lower()
            for term in yaml.safe_load((RULES / "vocabularies" / vocabulary).read_text())["terms"]
        }
    kept = sorted(name for name in found if name.lower() not in excluded and len(name) >= 2)
    body = yaml.safe_dump({"terms": kept}, default_flow_style=True, width=110, allow_unicode=True)
    OUT.write_text(HEADER + body, encoding="utf-8")
    print(f"wrote {len(kept)} first names to {OUT}")
    technical = sorted(name for name in found if name.lower() in excluded and len(name) >= 2)
    body = yaml.safe_dump({"terms": technical}, default_flow_style=True, width=110, allow_unicode=True)
    TECHNICAL_OUT.write_text(TECHNICAL_HEADER + body, encoding="utf-8")
    print(f"wrote {len(technical)} given names that are technical words to {TECHNICAL_OUT}")


if __name__ == "__main__":
    main()

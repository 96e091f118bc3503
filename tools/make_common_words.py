"""Write rules/vocabularies/common_words.yaml: everyday English words that are not names; and
rules/vocabularies/english_words.yaml: every lower-case word of the same list, names included.

Source: SCOWL's "small" American English list, as Debian ships it in the `wamerican-small` package
(/usr/share/dict/american-english-small); only lower-case entries are kept (capitalised ones are proper
nouns), and every word that is also a given name or a surname of the 1990 US Census (the `names`
package) is taken out, so "will", "rose" and "young" are not in it.

Run: apt-get install wamerican-small && python -m tools.make_common_words [WORD_LIST]

The scrubber runs NER only where a capitalised word is unexplained; a capitalised common word ("Built",
"Streaming", "Engine") explains itself. The list never stops a name from being replaced: it only decides
where NER is not needed.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import names  # type: ignore[import-untyped]

RULES = Path(__file__).parent.parent / "rules"
OUT = RULES / "vocabularies" / "common_words.yaml"
ENGLISH_OUT = RULES / "vocabularies" / "english_words.yaml"
ENGLISH_HEADER = """# Every lower-case English word of SCOWL (size 35, American), names included ("young"): a
# recognizer declared `names_only` in rules/recognizers.yaml does not take a match written in lower
# case for a name when one of its words is here ("with low latency" is no person, "with ana lopez" is).
# Made by tools/make_common_words.py.
#"""
WORD_LIST = Path("/usr/share/dict/american-english-small")
HEADER = """# Everyday English words that are not names: a capitalised one ("Built", "Streaming") does not
# make the scrubber run NER on its sentence. It never stops a name from being replaced. Made by
# tools/make_common_words.py from SCOWL (size 35, American) minus the given names and surnames of the 1990
# US Census. Remove a word here if your population has people named by it.
#
# SCOWL: Copyright 2000-2011 by Kevin Atkinson. Permission to use, copy, modify, distribute and sell these
# word lists, the associated scripts, the output created from the scripts, and its documentation for any
# purpose is hereby granted without fee, provided that the above copyright notice appears in all copies and
# that both that copyright notice and this permission notice appear in supporting documentation. Kevin
# Atkinson makes no representations about the suitability of this array for any purpose. It is provided
# "as is" without express or implied warranty.
"""


def census_names() -> set[str]:
    folder = Path(names.__file__).parent
    found = set()
    for list_name in ("dist.male.first", "dist.female.first", "dist.all.last"):
        for line in (folder / list_name).read_text().splitlines():
            if line.strip():
                found.add(line.split()[0].lower())
    return found


def main(argv: list[str] | None = None) -> int:
    source = Path((argv or sys.argv[1:] or [str(WORD_LIST)])[0])
    if not source.is_file():
        print(f"{source}: not found (apt-get install wamerican-small)", file=sys.stderr)
        return 2
    listed = {word for word in source.read_text(encoding="utf-8").split() if word.isascii()}
    words = {word for word in listed if word.isalpha() and word.islower() and len(word) >= 2}
    kept = sorted(words - census_names())
    lines = textwrap.wrap(" ".join(kept), width=108, break_long_words=False, break_on_hyphens=False)
    OUT.write_text(HEADER + "terms: >-\n" + "".join(f"  {line}\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(kept)} common words to {OUT}")
    every = textwrap.wrap(" ".join(sorted(words)), width=108, break_long_words=False, break_on_hyphens=False)
    licence = HEADER[HEADER.index("# SCOWL") :]
    ENGLISH_OUT.write_text(
        ENGLISH_HEADER + "\n" + licence + "terms: >-\n" + "".join(f"  {line}\n" for line in every),
        encoding="utf-8",
    )
    print(f"wrote {len(words)} English words to {ENGLISH_OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

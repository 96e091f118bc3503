"""Self-check of the held-out adversarial set; imports nothing from the toolkit.

Run: python tests/adversarial/heldout/check_planted.py

Checks that planted.yaml is well formed, that every case file exists and is named `<class>__<slug>.txt`,
that every planted string occurs verbatim in its case file and is no plain vocabulary word, and that each
document still carries the fixed markers of its layout (talent page: Summary, the years lines, section
headings, role lines; résumé: an experience heading within the first eight non-blank lines).
"""

from __future__ import annotations

import collections
import pathlib
import re
import sys
import unicodedata

import yaml

HERE = pathlib.Path(__file__).resolve().parent
VOCABULARIES = HERE.parent.parent.parent / "rules" / "vocabularies"
CLASSES = {"kept_column", "derived_handle", "script", "contact", "other_person", "resume_header"}

_TALENT_MARKERS = (
    re.compile(r"^summary$", re.IGNORECASE),
    re.compile(r"^\d{1,4}\+? years? of coding experience$", re.IGNORECASE),
    re.compile(r"^\d{1,4}\+? years? of employment\b", re.IGNORECASE),
    re.compile(r"^(github skills|programming languages|github contributions)( ?\(\d+\))?$", re.IGNORECASE),
    re.compile(r"^role in this project ?:", re.IGNORECASE),
    re.compile(r"^contributions summary ?:", re.IGNORECASE),
)
_RESUME_HEADING = re.compile(r"^(?:work |professional )?experience:?$", re.IGNORECASE)


def layout_of(text: str) -> str | None:
    lines = [" ".join(line.split()) for line in text.splitlines()]
    talent = sum(1 for marker in _TALENT_MARKERS if any(marker.match(line) for line in lines))
    opening = [line for line in lines[:24] if line][:8]
    resume = any(_RESUME_HEADING.match(line) for line in opening)
    if talent >= 4 and not resume:
        return "talent_page"
    if resume and talent < 2:
        return "resume"
    return None


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char)).strip()


def plain_words() -> set[str]:
    """Technical terms, spoken languages and everyday words: these may legitimately stay in a release."""
    words: set[str] = set()
    for name in ("technical_terms.yaml", "spoken_languages.yaml", "common_words.yaml"):
        path = VOCABULARIES / name
        if path.is_file():
            terms = yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]
            words |= {_plain(str(term)) for term in terms}
    return words


def main() -> int:
    data = yaml.safe_load((HERE / "planted.yaml").read_text(encoding="utf-8"))
    problems: list[str] = []
    per_class_cases: collections.Counter[str] = collections.Counter()
    per_class_planted: collections.Counter[str] = collections.Counter()
    per_layout: collections.Counter[str] = collections.Counter()
    listed = set()
    words = plain_words()
    for case in data["cases"]:
        file, cls, planted = case["file"], case["class"], case["planted"]
        listed.add(file)
        if cls not in CLASSES:
            problems.append(f"{file}: unknown class {cls}")
        if not file.startswith(cls + "__") or not file.endswith(".txt"):
            problems.append(f"{file}: name does not match <class>__<slug>.txt")
        path = HERE / "cases" / file
        if not path.is_file():
            problems.append(f"{file}: missing")
            continue
        text = path.read_text(encoding="utf-8")
        layout = layout_of(text)
        if layout is None:
            problems.append(f"{file}: does not look like either layout")
        per_layout[layout or "?"] += 1
        if not planted or len(set(planted)) != len(planted):
            problems.append(f"{file}: planted list empty or with duplicates")
        for string in planted:
            if not isinstance(string, str) or string not in text:
                problems.append(f"{file}: planted {string!r} not found verbatim")
            elif _plain(string) in words:
                problems.append(f"{file}: planted {string!r} is a plain word")
        per_class_cases[cls] += 1
        per_class_planted[cls] += len(planted)
    for path in (HERE / "cases").glob("*.txt"):
        if path.name not in listed:
            problems.append(f"{path.name}: case file not listed in planted.yaml")
    for cls in sorted(CLASSES):
        print(f"{cls:15} {per_class_cases[cls]:3} cases {per_class_planted[cls]:4} planted")
    print(f"{'total':15} {sum(per_class_cases.values()):3} cases {sum(per_class_planted.values()):4} planted")
    print("layouts:", dict(per_layout))
    if sum(per_class_cases.values()) < 30 or sum(per_class_planted.values()) < 90:
        problems.append("fewer than 30 cases or 90 planted strings")
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""Standalone check of the heldout3 manifest: `python tests/adversarial/heldout3/verify_planted.py`.

Every planted string occurs verbatim in its case file; the manifest has the expected shape; every case file
is listed once; no planted string is a technical term, spoken language or everyday word; each case reads as
one of the two layouts.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
VOCABULARIES = HERE.parent.parent.parent / "rules" / "vocabularies"
CLASSES = {"kept_column", "derived_handle", "script", "contact", "other_person", "resume_header"}
FILE_NAME = re.compile(r"^(?P<cls>[a-z_]+)__(?P<slug>[a-z0-9_]+)\.txt$")


def plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char)).strip()


def main() -> int:
    data = yaml.safe_load((HERE / "planted.yaml").read_text(encoding="utf-8"))
    problems: list[str] = []
    if not isinstance(data, dict) or list(data) != ["cases"]:
        print("planted.yaml: top level must be {cases: [...]}")
        return 1
    entries = data["cases"]
    words: set[str] = set()
    for name in ("technical_terms.yaml", "spoken_languages.yaml", "common_words.yaml"):
        terms = yaml.safe_load((VOCABULARIES / name).read_text(encoding="utf-8"))["terms"]
        words |= {plain(str(term)) for term in terms}
    files = [entry.get("file") for entry in entries]
    for name, count in Counter(files).items():
        if count > 1:
            problems.append(f"{name}: listed {count} times")
    on_disk = {path.name for path in CASES.iterdir() if not path.name.startswith(".")}
    for name in sorted(on_disk - set(files)):
        problems.append(f"{name}: on disk but not listed")
    total = 0
    for entry in entries:
        if set(entry) != {"file", "class", "planted"}:
            problems.append(f"{entry}: keys must be file, class, planted")
            continue
        file, cls, planted = entry["file"], entry["class"], entry["planted"]
        match = FILE_NAME.match(file)
        if cls not in CLASSES or not match or match["cls"] != cls:
            problems.append(f"{file}: class {cls!r} does not match the file name")
        path = CASES / file
        if not path.is_file():
            problems.append(f"{file}: missing")
            continue
        text = path.read_text(encoding="utf-8")
        if len(set(planted)) != len(planted):
            problems.append(f"{file}: a planted string twice")
        for item in planted:
            total += 1
            if not isinstance(item, str) or not item.strip():
                problems.append(f"{file}: empty planted string")
            elif item not in text:
                problems.append(f"{file}: planted {item!r} does not occur verbatim")
            elif plain(item) in words:
                problems.append(f"{file}: planted {item!r} is a vocabulary word")
        lines = text.splitlines()
        talent_page = "Summary" in lines and any(line.startswith("Github contributions") for line in lines)
        resume = "Experience" in [line for line in lines if line][:8]
        if talent_page == resume:
            problems.append(f"{file}: not exactly one layout (talent_page={talent_page}, resume={resume})")
    per_class = Counter(entry["class"] for entry in entries)
    for problem in problems:
        print(problem)
    print(f"{len(entries)} cases, {total} planted strings; per class: {dict(sorted(per_class.items()))}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""Fictional developer profiles in the two known layouts, with the defects real scraped data has.

One generator, two styles of wording (tools/profiles/vocabulary.py), one rendering of each layout
(tools/profiles/render.py). Every profile carries both what the parser must produce from it (`expected`:
rows per table, without `profile_id`) and the truth privacy evaluations judge a scrubber by
(`person_identifiers` with their `identifier_kinds`, `other_names`, `technical_words`, `namesake_employers`).
- `profiles(count, seed)`: the seed style, the wording of the scraped seed pages (parser tests, benchmarks,
  sample_data/); names drawn from two short hand-made lists of many cultures, combined at random.
- `documents(count, seed)`: the planted style, for privacy evaluations. People come from Faker's name
  lists for 15 locales (Latin script); the person's identifiers are planted where real data has them (full
  name behind a no-break space, glued to a badge, in capitals, "First's", e-mail and its local part, handle,
  profile URL, personal site, repositories under the person's account, a phone number); colleagues,
  co-authors and supervisors ("with X", "mentored by X", "supervised by Dr. X", names with particles and
  accents); tools, languages and fields NER takes for people or places (Triton, Kafka, Oracle, Julia ...),
  written only in free text (bio, descriptions, contribution summaries, bullets). Handles and e-mail local
  parts are mostly made from the name ("maria.dacunha"), about a third not ("quietotter42"). No name word is
  a word of the templates or a technical term, and, up to about 2,000 documents, no word of an owner's
  name is used in anyone else's name (tools/profiles/people.py; beyond, Faker's lists run out and the
  guarantee is dropped: names repeat, generation does not slow down). About a fifth of employers and
  organisations are named after a surname of the set ("Okafor Partners", as "Morgan Stanley"): one
  person's name words then appear as ordinary words in other profiles, listed in `namesake_employers`.
- `generate(count, seed, style)`: either style as a stream, for any count; `write_documents` writes one to
  a folder as it goes. Same seed, same documents.

Run `python -m tools.profiles OUT --count N [--seed S] [--planted] [--truth]` to write OUT/0000/doc000000.txt
and so on (1,000 documents per folder), and with --truth the truth as OUT/truth.jsonl.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tools.profiles.people import cast_for, vocabulary_file
from tools.profiles.render import IDENTIFIER_KINDS, Profile, render
from tools.profiles.structured import FORMATS, restructure
from tools.profiles.text import fold, has_word, string_cells, word_pattern
from tools.profiles.vocabulary import PLANTED, SCRAPE, SEED, Style

__all__ = [
    "IDENTIFIER_KINDS",
    "PLANTED",
    "SCRAPE",
    "SEED",
    "SKILLS",
    "Generated",
    "Planted",
    "Profile",
    "Style",
    "check",
    "documents",
    "fold",
    "generate",
    "has_word",
    "profiles",
    "read_truth",
    "string_cells",
    "with_formats",
    "word_pattern",
    "write",
    "write_documents",
]

Generated = Profile  # what the parser tests call a profile of the seed style
Planted = Profile  # what the privacy evaluations call a profile of the planted style
SKILLS = list(SEED.skills)
PER_FOLDER = 1000


def generate(count: int, seed: int = 7, style: Style = SEED, resume_share: float = 0.4) -> Iterator[Profile]:
    """`count` profiles, one at a time; about `resume_share` of them résumés. Same seed, same profiles."""
    rng = random.Random(seed)
    cast = cast_for(rng, style)
    for _ in range(count):
        yield render(rng, style, cast, resume_share)


def profiles(count: int, seed: int = 7, resume_share: float = 0.4) -> list[Profile]:
    """`count` profiles in the seed pages' wording; about `resume_share` of them résumés."""
    return list(generate(count, seed, SEED, resume_share))


def documents(count: int, seed: int = 7, resume_share: float = 0.4) -> list[Profile]:
    """`count` profiles with planted identifiers; about `resume_share` of them résumés."""
    return list(generate(count, seed, PLANTED, resume_share))


def document_path(index: int, suffix: str = ".txt") -> str:
    """Where document `index` (from 0) goes under the output folder: 1,000 to a folder."""
    return f"{index // PER_FOLDER:04d}/doc{index:06d}{suffix}"


def with_formats(docs: Iterable[Profile], share: float, seed: int = 7) -> Iterator[Profile]:
    """The documents, about `share` of them re-written in a structured format (JSON Resume, a GitHub API
    user, a zipped LinkedIn export: tools/profiles/structured.py), the formats in turn at random."""
    rng = random.Random(seed * 7919 + 1)
    for doc in docs:
        if rng.random() < share:
            yield restructure(doc, rng.choice(FORMATS), rng)
        else:
            yield doc


def truth_record(file: str, doc: Profile, expected: bool = False) -> dict[str, Any]:
    record: dict[str, Any] = {
        "file": file,
        "layout": doc.layout,
        "full_name": doc.full_name,
        "person_identifiers": doc.person_identifiers,
        "identifier_kinds": doc.identifier_kinds,
        "other_names": doc.other_names,
        "technical_words": doc.technical_words,
        "namesake_employers": doc.namesake_employers,
        "rare_phrases": doc.rare_phrases,
    }
    if expected:
        record["expected"] = doc.expected
    return record


def write_documents(
    folder: Path, docs: Iterable[Profile], truth: Path | None = None, expected: bool = False
) -> int:
    """Write each document as it comes to folder/NNNN/docNNNNNN.txt (see `document_path`) and, with
    `truth`, one JSON line of truth per document there (with `expected`, the expected rows too, dates in
    ISO form). Nothing is kept in memory. Returns how many documents were written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    sink = truth.open("w", encoding="utf-8") if truth else None
    count = 0
    try:
        for index, doc in enumerate(docs):
            name = document_path(index, doc.suffix)
            path = os.path.join(folder, name)
            if index % PER_FOLDER == 0:
                os.makedirs(os.path.dirname(path), exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                os.write(descriptor, doc.data if doc.data is not None else doc.text.encode("utf-8"))
            finally:
                os.close(descriptor)
            if sink:
                sink.write(json.dumps(truth_record(name, doc, expected), ensure_ascii=False, default=str))
                sink.write("\n")
            count = index + 1
    finally:
        if sink:
            sink.close()
    return count


def write(folder: Path, docs: Sequence[Profile]) -> Path:
    """Write folder/docs/NNNN/docNNNNNN.txt and folder/truth.jsonl; return the documents' folder.

    The truth sits beside the documents' folder, not in it: tools that read a folder read every file.
    """
    docs_dir = Path(folder) / "docs"
    write_documents(docs_dir, docs, truth=Path(folder) / "truth.jsonl")
    return docs_dir


def read_truth(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def check(docs: Sequence[Profile], style: Style = PLANTED) -> list[str]:
    """Problems found when parsing the documents with the toolkit (an empty list: all is as intended).

    Checks: every document parses with no reject and no unplaced line, as its layout; a talent page's `name`
    is the owner's full name; every planted identifier and other name is in that document's parsed rows (so
    a scrubber of the parsed tables has the same chance as one of the raw text); every technical word the
    style can write occurs as often in the parsed free-text columns as in the whole document.
    """
    import toolkit

    vocabulary = {term.lower() for term in vocabulary_file("technical_terms")}
    problems = [
        f"{word!r} is not in the technical vocabulary"
        for word in style.tricky + style.technical
        if word.lower() not in vocabulary
    ]
    patterns = {
        word: word_pattern(word)
        for word in (*style.tricky, *style.technical, *style.fields, *style.multi_word_tools)
    }
    with tempfile.TemporaryDirectory() as tmp:
        docs_dir = write(Path(tmp), docs)
        tables = toolkit.parse([docs_dir])
    for row in tables.rejects.iter_rows(named=True):
        problems.append(f"{Path(row['source']).name}: rejected ({row['reason']}: {row['detail']})")
    by_index = {
        int(Path(s).stem[3:]): p
        for s, p in zip(tables.profiles["source"], tables.profiles["profile_id"], strict=True)
    }
    free_text_columns = {"profiles": ["summary"], "contributions": ["description", "summary"]}
    free_text_columns["experience"] = ["bullets"]
    for index, doc in enumerate(docs):
        profile_id = by_index.get(index)
        if profile_id is None:
            problems.append(f"doc{index:06d}: no profile")
            continue
        rows = {
            name: frame.filter(frame["profile_id"] == profile_id)
            for name, frame in tables.tables()
            if name != "rejects"
        }
        profile = rows["profiles"].row(0, named=True)
        if profile["layout"] != doc.layout:
            problems.append(f"doc{index:06d}: parsed as {profile['layout']}, written as {doc.layout}")
        if doc.layout == "talent_page" and profile["name"] != doc.full_name:
            problems.append(f"doc{index:06d}: name {profile['name']!r} != {doc.full_name!r}")
        if profile["unparsed_lines"]:
            problems.append(f"doc{index:06d}: unparsed lines {profile['unparsed_lines']}")
        parsed_text = fold("\n".join(cell for frame in rows.values() for cell in string_cells(frame)))
        for value in [*doc.person_identifiers, *doc.other_names]:
            if not has_word(parsed_text, fold(value)):
                problems.append(f"doc{index:06d}: {value!r} is not in the parsed rows")
        free_text = fold(
            "\n".join(
                cell
                for table, columns in free_text_columns.items()
                for cell in string_cells(rows[table].select(columns))
            )
        )
        whole = fold(doc.text)
        for word, pattern in patterns.items():
            if len(pattern.findall(whole)) != len(pattern.findall(free_text)):
                problems.append(f"doc{index:06d}: {word!r} occurs outside the free text")
    return problems

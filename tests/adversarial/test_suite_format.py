"""The adversarial suite is well formed: its manifest and its cases agree (benchmarks/adversarial_eval.py
scores it). Fast: nothing runs the toolkit here."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

SUITE = Path(__file__).parent
CASES = SUITE / "cases"
MANIFEST = SUITE / "planted.yaml"
VOCABULARIES = SUITE.parent.parent / "rules" / "vocabularies"
CLASSES = {"kept_column", "derived_handle", "script", "contact", "other_person", "resume_header"}
MIN_PLANTED = 150
MIN_CASES = 55
MIN_CASES_PER_CLASS = 3
_FILE_NAME = re.compile(r"^(?P<cls>[a-z_]+)__(?P<slug>[a-z0-9_]+)\.txt$")


@pytest.fixture(scope="module")
def manifest() -> list[dict[str, Any]]:
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    assert list(data) == ["cases"]
    assert isinstance(data["cases"], list)
    return data["cases"]


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char)).strip()


def test_entries_have_the_manifest_shape(manifest: list[dict[str, Any]]) -> None:
    for entry in manifest:
        assert isinstance(entry, dict)
        assert set(entry) == {"file", "class", "planted"}, entry
        assert isinstance(entry["file"], str)
        assert isinstance(entry["planted"], list)
        assert entry["planted"], entry["file"]
        assert all(isinstance(p, str) and p.strip() for p in entry["planted"]), entry["file"]
        assert len(set(entry["planted"])) == len(entry["planted"]), f"{entry['file']}: a string twice"


def test_classes_are_known_and_match_the_file_names(manifest: list[dict[str, Any]]) -> None:
    for entry in manifest:
        assert entry["class"] in CLASSES, entry
        match = _FILE_NAME.match(entry["file"])
        assert match, f"{entry['file']}: not <class>__<slug>.txt"
        assert match["cls"] == entry["class"], entry["file"]


def test_every_listed_file_exists_once(manifest: list[dict[str, Any]]) -> None:
    files = [entry["file"] for entry in manifest]
    assert [name for name, n in Counter(files).items() if n > 1] == []
    assert [name for name in files if not (CASES / name).is_file()] == []


def test_every_case_file_is_listed(manifest: list[dict[str, Any]]) -> None:
    listed = {entry["file"] for entry in manifest}
    on_disk = {path.name for path in CASES.iterdir() if not path.name.startswith(".")}
    assert sorted(on_disk - listed) == []


def test_planted_strings_occur_verbatim(manifest: list[dict[str, Any]]) -> None:
    missing = [
        (entry["file"], planted)
        for entry in manifest
        for planted in entry["planted"]
        if planted not in (CASES / entry["file"]).read_text(encoding="utf-8")
    ]
    assert missing == []


def test_planted_strings_are_not_plain_words(manifest: list[dict[str, Any]]) -> None:
    """A technical term, a spoken language or an everyday word may legitimately stay in a release."""
    words: set[str] = set()
    for name in ("technical_terms.yaml", "spoken_languages.yaml", "common_words.yaml"):
        terms = yaml.safe_load((VOCABULARIES / name).read_text(encoding="utf-8"))["terms"]
        if isinstance(terms, str):  # a long list is written as one folded string of words
            terms = terms.split()
        assert len(terms) > 10, name
        words |= {_plain(str(term)) for term in terms}
    plain = [(e["file"], p) for e in manifest for p in e["planted"] if _plain(p) in words]
    assert plain == []


def test_suite_size(manifest: list[dict[str, Any]]) -> None:
    assert len(manifest) >= MIN_CASES
    assert sum(len(entry["planted"]) for entry in manifest) >= MIN_PLANTED
    per_class = Counter(entry["class"] for entry in manifest)
    assert {cls: n for cls, n in per_class.items() if n < MIN_CASES_PER_CLASS} == {}
    assert set(per_class) == CLASSES


def test_cases_are_utf8_profiles(manifest: list[dict[str, Any]]) -> None:
    """Each case is one profile in one of the two layouts the parser reads."""
    for entry in manifest:
        lines = (CASES / entry["file"]).read_text(encoding="utf-8").splitlines()
        talent_page = "Summary" in lines and any(line.startswith("Github contributions") for line in lines)
        resume = "Experience" in [line for line in lines if line][:8]
        assert talent_page != resume, entry["file"]

"""The profile generator (tools/profiles): deterministic, streaming to sub-folders, truth for every profile."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from tools.profiles import PLANTED, SEED, documents, generate, profiles, write_documents
from tools.profiles.__main__ import main


def test_same_seed_same_profiles_other_seed_others() -> None:
    assert [d.text for d in documents(30, seed=4)] == [d.text for d in documents(30, seed=4)]
    assert [d.text for d in documents(30, seed=4)] != [d.text for d in documents(30, seed=5)]
    assert [d.text for d in profiles(30, seed=4)] == [d.text for d in generate(30, 4, SEED)]


def test_every_profile_carries_its_expected_parse_and_its_truth() -> None:
    for doc in [*profiles(40, seed=2), *documents(40, seed=2)]:
        assert doc.expected["profile"]["layout"] == doc.layout
        assert len(doc.person_identifiers) == len(doc.identifier_kinds)
        if doc.layout == "talent_page":
            assert doc.full_name in doc.person_identifiers
            assert doc.expected["profile"]["name"] == doc.full_name
            assert doc.technical_words


def test_planted_profiles_plant_contacts_and_employers_named_after_surnames() -> None:
    docs = documents(200, seed=3)
    kinds = {kind for doc in docs for kind in doc.identifier_kinds}
    assert {"email", "phone", "handle", "profile_url", "own_repository", "possessive"} <= kinds
    namesakes = [name for doc in docs for name in doc.namesake_employers]
    assert len(namesakes) > 20
    surnames = {
        value
        for doc in docs
        for value, kind in zip(doc.person_identifiers, doc.identifier_kinds, strict=True)
        if kind == "last_name"
    }
    assert any(word in surnames for name in namesakes for word in name.split())  # someone bears the name
    for doc in docs:
        assert all(name in doc.text for name in doc.namesake_employers)
        assert (
            not any(  # a name word, not a particle: 'van Nederlotharingen Consulting' and 'Cato van Straaten'
                part in doc.full_name.split()
                for name in doc.namesake_employers
                for part in name.split()
                if not part.islower()
            )
        )


def test_large_counts_drop_name_uniqueness_without_slowing_down() -> None:
    stream = generate(4000, 9, PLANTED)
    assert len(list(itertools.islice(stream, 4000))) == 4000  # Faker's unused names run out near 2,000


def test_documents_stream_to_folders_of_a_thousand(tmp_path: Path) -> None:
    truth = tmp_path / "truth.jsonl"
    assert write_documents(tmp_path / "out", generate(2001, 1, SEED), truth, expected=True) == 2001
    folders = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert folders == ["0000", "0001", "0002"]
    assert len(list((tmp_path / "out" / "0000").iterdir())) == 1000
    assert [p.name for p in (tmp_path / "out" / "0002").iterdir()] == ["doc002000.txt"]
    records = [json.loads(line) for line in truth.read_text(encoding="utf-8").splitlines()]
    assert [r["file"] for r in records[:2]] == ["0000/doc000000.txt", "0000/doc000001.txt"]
    first = profiles(1, seed=1)[0]
    assert (tmp_path / "out" / records[0]["file"]).read_text(encoding="utf-8") == first.text
    assert records[0]["person_identifiers"] == first.person_identifiers
    assert records[0]["expected"]["profile"]["layout"] == first.layout


def test_the_command_writes_documents_and_truth(tmp_path: Path) -> None:
    assert main([str(tmp_path), "--count", "12", "--seed", "5", "--planted", "--truth"]) == 0
    assert len(list((tmp_path / "0000").glob("doc*.txt"))) == 12
    lines = (tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["full_name"] for line in lines] == [d.full_name for d in documents(12, seed=5)]

"""Development aid: show which released text made verification suppress a person, with the text.

Prints personal data from the inputs: run it only on fictional data. Run: python -m tools.explain_leaks DIR
"""

from __future__ import annotations

import sys

import polars as pl

import toolkit
from toolkit.quality import validate_tables
from toolkit.rules import load_privacy_rules, load_quality_rules
from toolkit.scrub import anonymize
from toolkit.scrub.keys import Keyring
from toolkit.verify import NameIndex, verify


def main(folder: str) -> None:
    rules = load_privacy_rules()
    keys = Keyring(b"explain leaks, fictional data only", "dev")
    valid = validate_tables(toolkit.parse([folder]), load_quality_rules()).valid
    release = anonymize(valid, rules, keys).tables
    ids = {keys.pseudonym("profile_id", pid): pid for pid in valid.profiles["profile_id"]}
    people = [*valid.profiles["name"].drop_nulls(), *valid.experience["supervisor"].drop_nulls()]
    names = NameIndex.of(people)
    for table, frame in release.items():
        for row in frame.iter_rows(named=True):
            for column, value in row.items():
                if column == "profile_id" or not isinstance(value, (str, list)):
                    continue
                cell = {table: pl.DataFrame({"profile_id": [row["profile_id"]], column: [value]})}
                found = verify(cell, valid, rules, ids, names).suppressed
                for reason in found.values():
                    print(f"{table}.{column}: {reason}: {str(value)[:200]!r}")


if __name__ == "__main__":
    main(sys.argv[1])

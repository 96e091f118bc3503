"""Development aid: show which identifiers the leak check finds in a would-be release, with the text.

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
from toolkit.text import fold
from toolkit.verify import _WORDS, direct_identifiers


def main(folder: str) -> None:
    rules = load_privacy_rules()
    valid = validate_tables(toolkit.parse([folder]), load_quality_rules()).valid
    release = anonymize(valid, rules, Keyring(b"explain leaks, fictional data only", "dev")).tables
    identifiers = direct_identifiers(valid, rules.allow_list)
    for table, frame in release.items():
        for column in frame.columns:
            series = frame.get_column(column)
            values = series.explode() if isinstance(series.dtype, pl.List) else series
            for value in values.drop_nulls().unique():
                if not isinstance(value, str):
                    continue
                words = _WORDS.findall(fold(value))
                for size in range(1, 6):
                    for start in range(len(words) - size + 1):
                        if tuple(words[start : start + size]) in identifiers:
                            print(f"{table}.{column}: {words[start : start + size]} in {value[:200]!r}")


if __name__ == "__main__":
    main(sys.argv[1])

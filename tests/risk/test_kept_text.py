"""A column the risk pass withholds does not survive inside a kept text column of the release.

The seeds write a degree twice, the second time inside `education.field` ("Computer Science, Bachelor of
Science (B.Sc.), Computer Science"); when the risk pass withholds or coarsens `education.degree`, the
degree as written must go from `field` too (`phrases.columns` in rules/risk.yaml lists it).
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from toolkit.cli import main

SAMPLE = Path(__file__).resolve().parent.parent.parent / "sample_data"


@pytest.mark.slow
def test_a_withheld_degree_is_not_left_in_the_field(tmp_path: Path) -> None:
    parsed, release = tmp_path / "parsed", tmp_path / "release"
    assert main(["parse", str(SAMPLE), "--out", str(parsed)]) == 0
    assert main(["run", str(SAMPLE), "--out", str(release), "--jobs", "1"]) == 0
    report = json.loads((release / "report.json").read_text(encoding="utf-8"))
    degree = report["risk"]["columns"]["education.degree"]
    assert degree["level"] > 0  # coarsened: withheld, or person by person (some to a level, some withheld)
    assert degree["step"] in ("withheld", "local")
    education = pl.read_parquet(parsed / "education.parquet")
    degrees = set(education["degree"].drop_nulls().to_list())
    written_twice = [field for field in education["field"].drop_nulls() if any(d in field for d in degrees)]
    assert written_twice  # the defect is there to be removed
    released = pl.read_parquet(release / "education.parquet")["field"].drop_nulls().to_list()
    assert not [field for field in released if any(degree in field for degree in degrees)]

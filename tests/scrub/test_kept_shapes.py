"""A kept column keeps only values of its shape (rules/privacy.yaml `shapes`): a value without it is
scrubbed as free text; every kept value is searched for the record's own identifiers."""

from __future__ import annotations

import polars as pl
import pytest

from tests.conftest import TEST_KEY
from toolkit.model import TABLE_SCHEMAS, ProfileSet
from toolkit.rules import PrivacyRules
from toolkit.scrub import anonymize
from toolkit.scrub.shapes import shape_test


def _frame(table: str, rows: list[dict[str, object]]) -> pl.DataFrame:
    schema = TABLE_SCHEMAS[table]
    return pl.DataFrame([{column: row.get(column) for column in schema} for row in rows], schema=schema)


@pytest.fixture(scope="module")
def released(privacy_rules: PrivacyRules) -> dict[str, pl.DataFrame]:
    profile: dict[str, object] = {
        "profile_id": "p1",
        "name": "Kwame Mensah",
        "employer": "KwameMensah.consulting",
        "country": "Lives at 12 Rue Oberkampf, Paris",
        "badges": ["Senior", "\U0001f3e0 38 Mare Street"],
        "spoken_languages": ["English", "Signal: quietkoala77"],
        "summary": "Kwame builds compilers.",
    }
    tables = ProfileSet.from_frames({
        "profiles": _frame("profiles", [profile]),
        "skills": _frame("skills", [
            {"profile_id": "p1", "kind": "github_skill", "skill": "kwamemensah5", "score": 8},
            {"profile_id": "p1", "kind": "github_skill", "skill": "Julia", "score": 7},
        ]),
        "contributions": _frame("contributions", [
            {"profile_id": "p1", "repository": "a/b", "role": "Co-maintainer with Ama Owusu", "tags": ["rust", "mensah-k"]},
            {"profile_id": "p1", "repository": "a/c", "role": "Core Contributor", "tags": ["llvm"]},
        ]),
        "education": _frame("education", [
            {"profile_id": "p1", "degree": "Master of Science (M.Sc.)", "field": "Robotics, thesis with Prof. Ilse Vandermeer",
             "institution": "Lakeside University"},
        ]),
    })  # fmt: skip
    return anonymize(tables, privacy_rules, TEST_KEY).tables


def _text(frame: pl.DataFrame, column: str) -> str:
    values = frame.get_column(column).to_list()
    return " | ".join(str(value) for value in values)


@pytest.mark.parametrize(
    ("table", "column", "gone", "kept"),
    [
        ("profiles", "employer", "KwameMensah", ""),
        ("profiles", "country", "Oberkampf", ""),
        ("profiles", "badges", "Mare Street", "Senior"),
        ("profiles", "spoken_languages", "quietkoala77", "English"),
        ("skills", "skill", "kwamemensah5", "Julia"),
        ("contributions", "role", "Owusu", "Core Contributor"),
        ("contributions", "tags", "mensah-k", "llvm"),
        ("education", "field", "Vandermeer", "Robotics"),
        ("education", "degree", "<", "Master of Science (M.Sc.)"),
        ("education", "institution", "<", "Lakeside University"),
    ],
)
def test_a_value_without_its_shape_or_with_the_persons_name_is_scrubbed(
    released: dict[str, pl.DataFrame], table: str, column: str, gone: str, kept: str
) -> None:
    text = _text(released[table], column)
    assert gone not in text
    assert kept in text


@pytest.mark.parametrize(
    ("shape", "value", "has_it"),
    [
        ("country", "Poland", True),
        ("country", "POLAND", True),
        ("country", "31-147 Kraków", False),
        ("skill", "scikit-learn", True),
        ("skill", "C++", True),
        ("skill", "me@example.org", False),
        ("organisation", "AT&T", True),
        ("organisation", "Universität Zürich (ETH)", True),
        ("organisation", "LuciaBarrenechea.consulting", False),
        ("organisation", "Signal: quietkoala77", False),
        ("role", "Back-end Developer", True),
        ("role", "Mentee of Ragnhild", False),
        ("role", "Shadowing Tipene Marupo", False),
        ("role", "Co-maintainer", True),
        ("organisation", "Grupo Choque-Apaza de Hidrología", False),
        ("organisation", "University of Ljubljana", True),
        ("degree", "Doctor of Philosophy (Ph.D.)", True),
        ("degree", "MSc, supervised by Ilse Vandermeer", False),
        ("degree", "Diplom-Ingenieur (Dipl.-Ing.)", True),
        ("degree", "Laurea Magistrale in Ingegneria Informatica", True),
        ("degree", "Master of Science Wendelin Aasgaard Scholar", False),
    ],
)
def test_shapes(privacy_rules: PrivacyRules, shape: str, value: str, has_it: bool) -> None:
    assert shape_test(shape, privacy_rules)(value) is has_it

"""How a written name reads, and the handle forms made of it."""

from __future__ import annotations

import pytest

from toolkit.names import glued_script, handle_forms, initials, readings, skeleton, unleet

READINGS = [
    ("Marta Nowak", ["Marta Nowak"]),
    ("NOWAK, Marta", ["Marta NOWAK"]),
    ("Dr. Marta Nowak, PhD", ["Marta Nowak"]),
    ("Marta Nowak MSc", ["Marta Nowak"]),
    ("Wang Fang (王芳)", ["Wang Fang", "王芳"]),
    ("王芳", ["王芳", "Wang Fang"]),
    ("Lukas Brandstätter", ["Lukas Brandstätter", "Lukas Brandstaetter"]),
    ("Nowak, Marta", ["Marta Nowak"]),
    ("Major Folasade Adeyemi", ["Folasade Adeyemi"]),
]


@pytest.mark.parametrize(("written", "expected"), READINGS)
def test_readings(written: str, expected: list[str]) -> None:
    assert readings(written) == expected


FORMS = [
    ("Marta Nowak", {"martanowak", "mnowak", "martan", "nowakmarta", "nowakm"}, {"mnow", "marta"}),
    ("Jean-Pierre Dubois", {"jpdubois", "jeanpierredubois", "jdubois"}, set()),
    ("Peter van den Berg", {"pvdberg", "petervandenberg", "pberg"}, set()),
    ("Lucía Hernández Prado", {"lhernandezprado", "luciahernandez", "lprado"}, set()),
    ("Sean O'Brien", {"seanobrien", "sobrien"}, set()),
    ("Anna Maria Kowalczyk", {"amkowalczyk", "annamkowalczyk"}, set()),
    ("Ama Owusu-Ansah", {"amaowusu", "aansah", "amaowusuansah"}, set()),
    ("Inés Villalobos Cárdenas", {"villacarde", "ivillacarde", "villalobcard"}, {"ivica"}),
    ("Trần Minh Khoa", {"khoatm", "tranmk"}, set()),  # a word with the others' initials
    ("Rosa María Ibáñez de la Vega", {"rmidlv"}, set()),  # every word's initial, particles too
    ("Tamar Kvaratskhelia", {"tkvara", "tkvaratskhel"}, {"tkvar"}),  # the surname clipped
    ("Maximilian Roth", set(), {"maxim", "maximi"}),  # a clipped given name alone is no form ('maximize')
    ("Tine Van Kerckhove", {"vankerck", "vankerckhov"}, {"vanke"}),  # the surname with its particle
]


@pytest.mark.parametrize(
    ("token", "readings"),
    [("r0z4lind", {"rozalind"}), ("1ena", {"iena", "lena"}), ("lena", set()), ("2024", set())],
)
def test_unleet(token: str, readings: set[str]) -> None:
    assert unleet(token) == readings


@pytest.mark.parametrize(("name", "included", "excluded"), FORMS)
def test_handle_forms(name: str, included: set[str], excluded: set[str]) -> None:
    forms = handle_forms(name)
    assert included <= forms
    assert not excluded & forms
    assert all(len(form) >= 5 for form in forms)


@pytest.mark.parametrize(
    ("one", "other", "alike"),
    [("Zhuravlyov", "Zhuravlev", True), ("Zhuravlyov", "Shurawljow", True), ("Kowalczyk", "Kowalski", False)],
)
def test_transliterations_share_a_skeleton(one: str, other: str, alike: bool) -> None:
    assert (skeleton(one) == skeleton(other)) is alike


def test_initials_of_a_long_name() -> None:
    assert initials("María Luisa Herrera Vidal") == "mlhv"
    assert initials("Marta Nowak") is None


@pytest.mark.parametrize(
    ("name", "glued"),
    [("王芳", True), ("황서연", True), ("สมชาย", True), ("Marta Nowak", False), ("Дмитрий", False)],
)
def test_glued_script(name: str, glued: bool) -> None:
    assert glued_script(name) is glued
    assert (handle_forms(name) == set()) is (glued or " " not in name)

"""A street address found by a pattern is replaced whole: the parts written with it on its line item, in
the formats of many countries, and nothing past the item's end, a sentence's end or a tool's name."""

from __future__ import annotations

import pytest

from toolkit.rules import PrivacyRules
from toolkit.scrub.addresses import AddressWidener
from toolkit.scrub.text import TextScrubber

WHOLE = [
    # (text, the address found whole): patterns and widening, without NER
    ("Address: Str. Dorin Mureșan nr. 14, ap. 3, 400117 Cluj-Napoca", "Str. Dorin Mureșan nr. 14, ap. 3, 400117 Cluj-Napoca"),
    ("Calle de Toledo 41, 2º izq., 28005 Madrid | +34 600 000 000", "Calle de Toledo 41, 2º izq., 28005 Madrid"),
    ("Apt 7, 19 Harbour View, Cork T12 X8P2 | nora@example.org", "Apt 7, 19 Harbour View, Cork T12 X8P2"),
    ("Адрес: г. Казань, ул. Садовая, д. 12, кв. 7", "г. Казань, ул. Садовая, д. 12, кв. 7"),  # noqa: RUF001
    ("Địa chỉ: Số 21, ngõ 40 Phố Huế, Hai Bà Trưng, Hà Nội", "Số 21, ngõ 40 Phố Huế, Hai Bà Trưng, Hà Nội"),
    ("住所：〒060-0001 北海道札幌市中央区北1条西2-1 サンライズ302", "〒060-0001 北海道札幌市中央区北1条西2-1 サンライズ302"),  # noqa: RUF001
    ("地址：上海市徐汇区漕溪北路 88 号 5 楼", "上海市徐汇区漕溪北路 88 号 5 楼"),  # noqa: RUF001
    ("주소: 서울특별시 마포구 월드컵로 212", "서울특별시 마포구 월드컵로 212"),
    ("Alamat: Jl. Melati No. 9, Depok 16424", "Jl. Melati No. 9, Depok 16424"),
    ("Διεύθυνση: Ερμού 40, 105 63 Αθήνα", "Ερμού 40, 105 63 Αθήνα"),
    ("Linnégatan 7, 114 47 Stockholm", "Linnégatan 7, 114 47 Stockholm"),
    ("4385, avenue de l'Esplanade, app. 2, Montréal (Québec) H2W 1T2", "4385, avenue de l'Esplanade, app. 2, Montréal (Québec) H2W 1T2"),
    ("201-1503, 45 Centum jungang-ro, Haeundae-gu, Busan 48058", "201-1503, 45 Centum jungang-ro, Haeundae-gu, Busan 48058"),
    ("Hse 7, Acacia Gardens, Ngong Road, Kilimani, Nairobi", "Hse 7, Acacia Gardens, Ngong Road, Kilimani, Nairobi"),
    ("Room 12, level 3, 5 Quay St, Wellington", "Room 12, level 3, 5 Quay St, Wellington"),
    ("Na Příkopě 12, 110 00 Praha 1, Czech Republic", "Na Příkopě 12, 110 00 Praha 1, Czech Republic"),  # a language is no tool
    # where it ends
    ("I live at 12 Oak Street, Dover and I like Python.", "12 Oak Street, Dover"),
    ("Moved to 9 Elm Road, Leeds, but works in York", "9 Elm Road, Leeds"),
    ("Hauptstraße 5, 10115 Berlin. Python and Kotlin daily", "Hauptstraße 5, 10115 Berlin"),
    ("Engineer at Zalando SE – Berlin, 10115 Berlin", "Berlin, 10115 Berlin"),  # noqa: RUF001
    ("Flat 2, 14 Mill Road, Cambridge CB1 2AD, Tel: 01223 000000", "Flat 2, 14 Mill Road, Cambridge CB1 2AD"),
    ("Hauptstraße 5, 10115 Berlin, Kubernetes, Terraform", "Hauptstraße 5, 10115 Berlin"),
    ("Address: 4 Rue Cler, 75007 Paris\nSkills: Docker, Helm", "4 Rue Cler, 75007 Paris"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "address"), WHOLE, ids=[f"whole-{i}" for i in range(len(WHOLE))])
def test_address_is_found_whole(text: str, address: str, scrubber: TextScrubber) -> None:
    (spans,) = scrubber.engine.recognized([text])
    found = [text[span.start : span.end] for span in spans if span.entity == "STREET_ADDRESS"]
    assert address in found, found


WIDENED = [
    # (text, the part a pattern found, the range widened): the widener alone, with a small vocabulary
    ("nr. 24, ap. 9, 300081 Timișoara", "300081 Timișoara", "nr. 24, ap. 9, 300081 Timișoara"),
    ("Phone: +40 700 | 300081 Timișoara", "300081 Timișoara", "300081 Timișoara"),
    ("Zürich 8003, ap 9", "Zürich 8003", "Zürich 8003, ap 9"),
    ("Zürich 8003, ap and more", "Zürich 8003", "Zürich 8003"),  # an address word needs a part after it
    ("Lyon 69002 de", "Lyon 69002", "Lyon 69002"),  # a joiner too
    ("Lyon 69002\tPython", "Lyon 69002", "Lyon 69002"),
    ("Lyon 69002, Python, Go", "Lyon 69002", "Lyon 69002"),
    ("Lyon 69002, 0612345678", "Lyon 69002", "Lyon 69002"),  # a long run of digits: a phone or an account
]


@pytest.mark.parametrize(
    ("text", "found", "whole"), WIDENED, ids=[f"widened-{i}" for i in range(len(WIDENED))]
)
def test_widener(text: str, found: str, whole: str, privacy_rules: PrivacyRules) -> None:
    widener = AddressWidener(
        frozenset({"nr", "ap"}), tools=frozenset({"python", "go"}), joiners=privacy_rules.place_name_joiners
    )
    start = text.index(found)
    assert text[slice(*widener.widened(start, start + len(found), text))] == whole

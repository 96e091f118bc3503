"""The contact, address and person-cue recognizers of rules/recognizers.yaml, through the pattern
detectors alone (no spaCy): each with positive and negative examples."""

from __future__ import annotations

import pytest

from toolkit.detectors import Detector, detectors, find
from toolkit.rules import PrivacyRules
from toolkit.scrub.text import TextScrubber

CASES = [
    # (text, entity, found value or None)
    ("Tel: (030) 8812734", "PHONE_NUMBER", "(030) 8812734"),
    ("mobile 06 38472915 or 06-38472915", "PHONE_NUMBER", "06 38472915"),
    ("call me on 555-0134 after six", "PHONE_NUMBER", "555-0134"),
    ("office 020\u20137946\u20130321", "PHONE_NUMBER", "020\u20137946\u20130321"),
    ("UK mobile 07700 900123", "PHONE_NUMBER", "07700 900123"),
    ("worked 2015 - 2019 on 300 services", "PHONE_NUMBER", None),
    ("a budget of 10 000 000 rubles", "PHONE_NUMBER", None),
    ("served 1 000 000 users", "PHONE_NUMBER", None),
    ("raised 1,000,000 dollars", "PHONE_NUMBER", None),
    ("komórka 512 345 678", "PHONE_NUMBER", "512 345 678"),
    ("call 0049 30 1234567", "PHONE_NUMBER", "0049 30 1234567"),
    ("fe80::1 is link-local", "IP_ADDRESS", "fe80::1"),
    ("host 2001:db8::8a2e:370:7334 answered", "IP_ADDRESS", "2001:db8::8a2e:370:7334"),
    ("std::vector and a::b are C++", "IP_ADDRESS", None),
    ("times 12:30:45 and 10:15", "IP_ADDRESS", None),
    ("write to josé.müller@bücher.de", "EMAIL_ADDRESS", "josé.müller@bücher.de"),
    ("marta (at) example (dot) pl", "EMAIL_ADDRESS", "marta (at) example (dot) pl"),
    ("Cra. 12 #40-18, Apto 1203. Call first", "STREET_ADDRESS", "Apto 1203"),
    ("Wohnung 4, Hinterhaus. Bring cake", "STREET_ADDRESS", "Wohnung 4, Hinterhaus"),
    ("Piso 4 of the roadmap", "STREET_ADDRESS", "Piso 4"),
    ("fixtures held NIDA 19850101-23456-00002-11 until v2", "NATIONAL_ID", "19850101-23456-00002-11"),
    ("SSN 555-48-1290, driver licence CA D5551234.", "NATIONAL_ID", "CA D5551234"),
    ("ИИН 920415555123, дата рождения", "NATIONAL_ID", "920415555123"),
    ("Koramangala, Bengaluru 560095.", "STREET_ADDRESS", "Bengaluru 560095"),
    ("write to Private Bag E891, Lusaka", "STREET_ADDRESS", "Private Bag E891"),
    ("account 40817810099910004312 at the bank", "NATIONAL_ID", "40817810099910004312"),  # 20 digits
    ("WhatsApp +57 310 555 4821, C.C. 1.036.654.321 (for", "NATIONAL_ID", "1.036.654.321"),
    ("release 2019 - 2021, build 3.2.1", "NATIONAL_ID", None),
    ("marta [at] example [dot] com", "EMAIL_ADDRESS", "marta [at] example [dot] com"),
    ("we met at noon", "EMAIL_ADDRESS", None),
    ("Call me on Signal: quietkoala77", "HANDLE", "quietkoala77"),
    ("Telegram @marta_n", "HANDLE", "@marta_n"),
    ("toot @ines@fosstodon.org", "HANDLE", "@ines@fosstodon.org"),
    ("Signal Processing at a university", "HANDLE", None),
    ("Lives at 12 Rue Oberkampf, Paris", "STREET_ADDRESS", "12 Rue Oberkampf"),
    ("office at 38 Mare Street, London", "STREET_ADDRESS", "38 Mare Street"),
    ("Rua Padre Chagas 315 in the south", "STREET_ADDRESS", "Rua Padre Chagas 315"),
    ("Hauptstraße 5 is the office", "STREET_ADDRESS", "Hauptstraße 5"),
    ("write to PO Box 1234", "STREET_ADDRESS", "PO Box 1234"),
    ("London E8 4RT", "STREET_ADDRESS", "E8 4RT"),
    ("Portland, OR 97214", "STREET_ADDRESS", "OR 97214"),
    ("CEP 90570-080", "STREET_ADDRESS", "90570-080"),
    ("Led 12 engineers the whole way", "STREET_ADDRESS", None),
    ("Phone:\n  437 9303", "PHONE_NUMBER", "437 9303"),
    ("Desk: 224-1797497", "PHONE_NUMBER", "224-1797497"),
    ("stop sending messages to 617 4281", "PHONE_NUMBER", "617 4281"),
    ("they are not answering at 477 8611", "PHONE_NUMBER", "477 8611"),
    ("home: 12 commits a week", "PHONE_NUMBER", None),
    ("PSC 5054, Box 2357\nAPO AE 30194", "STREET_ADDRESS", "PSC 5054, Box 2357"),
    ("Unit 9930 Box 9728", "STREET_ADDRESS", "Unit 9930 Box 9728"),
    ("FPO AP 41937", "STREET_ADDRESS", "FPO AP 41937"),
    ("USNV van Aken\nFPO AE 99452", "STREET_ADDRESS", "USNV van Aken"),
    ("the USS Enterprise episode", "STREET_ADDRESS", None),
    ("Paul-Nevermann-Platz 47", "STREET_ADDRESS", "Paul-Nevermann-Platz 47"),
    ("at Frankfurter Allee 73 now", "STREET_ADDRESS", "Frankfurter Allee 73"),
    ("Agip u. 96.", "STREET_ADDRESS", "Agip u. 96"),
    ("Ctra. de Fuentenueva 29", "STREET_ADDRESS", "Ctra. de Fuentenueva 29"),
    ("1266 Cheriton Dr, Phoenix", "STREET_ADDRESS", "1266 Cheriton Dr"),
    ("at the corner of Brekkustíg 80 and Veres Neck", "STREET_ADDRESS", "Brekkustíg 80 and Veres Neck"),
    ("ran 1 event loop per core", "STREET_ADDRESS", None),
    ("born 3 November 1989 in Oslo", "DATE_OF_BIRTH", "3 November 1989"),
    ("DOB: 1991-03-14", "DATE_OF_BIRTH", "1991-03-14"),
    ("released 3 November 1989", "DATE_OF_BIRTH", None),
    ("Speaker (b. 12.IX.1988)", "DATE_OF_BIRTH", "12.IX.1988"),
    ("clients ask for CNP 1870315460021", "NATIONAL_ID", "1870315460021"),
    ("my test identity 870315-4471 is seeded", "NATIONAL_ID", "870315-4471"),
    ("VAT PL5261040828 on invoices", "NATIONAL_ID", "PL5261040828"),
    ("employee key MKTR19870315 in the export", "NATIONAL_ID", "MKTR19870315"),
    ("also written 3325256727 in tests", "NATIONAL_ID", "3325256727"),
    ("from 2019 - 2021 with 10 000 000 rows", "NATIONAL_ID", None),
    ("served 198.51.100.23 all day", "NATIONAL_ID", None),
    ("paid to IBAN RO12 BTRL 0000 1111 2222 3333", "IBAN_CODE", "RO12 BTRL 0000 1111 2222 3333"),
    (
        "badge read r o s a . l i m a @ m a i l . p t today",
        "EMAIL_ADDRESS",
        "r o s a . l i m a @ m a i l . p t",
    ),
    ("Freelance, Moda Caddesi No: 18 D:2, 34710 Moda/Istanbul", "STREET_ADDRESS", "Moda Caddesi No: 18 D:2"),
    ("Calle Sur 4, 44100 Ciudad Guzmán Centro, Jal.", "STREET_ADDRESS", "44100 Ciudad Guzmán Centro"),
    ("Passaporto n. YB7654321", "NATIONAL_ID", "YB7654321"),
    ("registry \u0423\u041791030312 on file", "NATIONAL_ID", "91030312"),
    ("Residence: Plot 1402, Block 7, Kisugu", "STREET_ADDRESS", "Plot 1402"),
    ("the office (Private Bag E7, Ndola 10101)", "STREET_ADDRESS", "Ndola 10101"),
    (
        "call oh-seven-seven-double-oh nine-one-two-three-four",
        "PHONE_NUMBER",
        "oh-seven-seven-double-oh nine-one-two-three-four",
    ),
    ("one or two of them", "PHONE_NUMBER", None),
    ("now maintained by ~njeri on sourcehut", "HANDLE", "~njeri"),
    ("about ~100 ms", "HANDLE", None),
    ("生年月日\uff1a1988年5月9日", "DATE_OF_BIRTH", "1988年5月9日"),
    ("我叫王芳。", "PERSON", "我叫王芳"),
    ("reviewed by Дмитрий Волков", "PERSON", "Дмитрий Волков"),
    ("Paired daily with Priya on the parser", "PERSON", "Priya"),
    ("Northwind Labs (manager: signe aakre-lund)", "PERSON", "signe aakre-lund"),
    ("Julia Rust reviewed the Rust bindings", "PERSON", "Julia Rust"),
    ("Fork of kwame-mensah/allocator", "PERSON", "kwame-mensah"),
    ("Ported benchmarks from hinemoa.p/jepsen-notes to CI", "PERSON", "hinemoa.p"),
    ("the on-call rota is run by Farai. He", "PERSON", "Farai"),
    ("Joint work with J. Okwuosa on load balancing", "PERSON", "J. Okwuosa"),
    ("the Rust bindings were reviewed", "PERSON", None),
    ("mobile (21) 99123-4567", "PHONE_NUMBER", "(21) 99123-4567"),
    ("CPR 120384-1337 on file", "NATIONAL_ID", "120384-1337"),
    ("SSN: 078-05-1120", "NATIONAL_ID", "078-05-1120"),
    ("posts on chaos.social/@quietfox", "HANDLE", "chaos.social/@quietfox"),
    ("signs commits as mlhv87", "HANDLE", "mlhv87"),
    ("ran as asqr-lab on Discord", "HANDLE", "asqr-lab"),
    ("Rua das Flores, 233 - apto 41", "STREET_ADDRESS", "Rua das Flores, 233 - apto 41"),
    ("lived at Flat 4C, Sunbeam Residency, Pune", "STREET_ADDRESS", "Flat 4C, Sunbeam Residency"),
    ("office at 4-12-305 Hakusan-cho", "STREET_ADDRESS", "4-12-305 Hakusan-cho"),
    ("Nygaardsvejen 112, 5000 Odense C", "STREET_ADDRESS", "Nygaardsvejen 112"),
    ("Top 100000 users", "STREET_ADDRESS", None),
    ("ул. Садовая, д. 12", "STREET_ADDRESS", "ул. Садовая, д. 12"),
    ("вул. Шевченка 61", "STREET_ADDRESS", "вул. Шевченка 61"),
    ("д. 56, кв. 118", "STREET_ADDRESS", "д. 56, кв. 118"),
    ("д. 56 лет", "STREET_ADDRESS", None),
    ("Số 18, ngõ 95 Chùa Bộc", "STREET_ADDRESS", "Số 18"),
    ("Phường 6, Quận 3", "STREET_ADDRESS", "Phường 6"),
    ("東京都渋谷区渋谷2-21-1", "STREET_ADDRESS", "東京都渋谷区渋谷2-21-1"),
    ("北京市海淀区中关村大街27号", "STREET_ADDRESS", "北京市海淀区中关村大街27号"),
    ("東京都の人口は1400万人", "STREET_ADDRESS", None),
    ("서울특별시 강남구 테헤란로 152", "STREET_ADDRESS", "서울특별시 강남구 테헤란로 152"),
    ("서울시 사람 100명", "STREET_ADDRESS", None),
    ("Εγνατίας 128, 546 30 Θεσσαλονίκη", "STREET_ADDRESS", "546 30 Θεσσαλονίκη"),
    ("Vinohradská 12, 120 00 Praha", "STREET_ADDRESS", "120 00 Praha"),
    ("Str. Gheorghe Lazăr nr. 24", "STREET_ADDRESS", "Str. Gheorghe Lazăr nr. 24"),
    ("Jl. Kaliurang Km 5", "STREET_ADDRESS", "Jl. Kaliurang Km 5"),
    ("Hse 7, Riverside Gardens", "STREET_ADDRESS", "Hse 7, Riverside Gardens"),
    ("Adresse : 8 rue Cler", "STREET_ADDRESS", "8 rue Cler"),
    ("地址：北京市海淀区", "STREET_ADDRESS", "北京市海淀区"),  # noqa: RUF001
    ("awarded to her, b. 12 Oct 1990", "DATE_OF_BIRTH", "12 Oct 1990"),
    ("(DOB 07-Sep-1979) moved to Pune", "DATE_OF_BIRTH", "07-Sep-1979"),
    ("born: Mar-14-1992 in Austin", "DATE_OF_BIRTH", "Mar-14-1992"),
    ("date of birth 1988/11/02", "DATE_OF_BIRTH", "1988/11/02"),
]


@pytest.fixture(scope="module")
def found_by(privacy_rules: PrivacyRules) -> list[Detector]:
    return detectors(spec for spec in privacy_rules.recognizers if not spec.names_only)  # NAMES_ONLY below


@pytest.mark.parametrize(
    ("text", "entity", "value"), CASES, ids=[f"{e}-{i}" for i, (_, e, _) in enumerate(CASES)]
)
def test_recognizer(text: str, entity: str, value: str | None, found_by: list[Detector]) -> None:
    found = [text[f.start : f.end] for f in find(found_by, text) if f.entity == entity]
    if value is None:
        assert found == []
    else:
        assert value in found


NAMES_ONLY = [
    # (text, the name found, or None): `names_only` recognizers, trimmed of ordinary words by the engine
    ("Winner, Brynhild Oftedal Game Jam", "Brynhild Oftedal"),
    ("Winner, Odalys Fairweather Young Researcher Award", "Odalys Fairweather"),
    ("The Adaeze Nwosu-Whitcombe Foundation", "Adaeze Nwosu-Whitcombe"),
    ("Best Paper Award", None),
    ("i work with femke jansen and joris van der linde.", "femke jansen"),
    ("rebased onto chidera nwachukwu-fairfax's branch", "chidera nwachukwu-fairfax"),
    ("work with low latency caches", None),
    # a name by its shape alone: at least two capitalised words in a row that no word list knows
    ("Speech Processing, thesis for Brannagh Ó Fearghail", "Brannagh Ó Fearghail"),
    ("Shadowing Tancredi Borsellino-Vasari on the scheduler", "Tancredi Borsellino-Vasari"),
    ("переписал вместе с Ольгой (Olga Tarasova) планировщик", "Olga Tarasova"),  # noqa: RUF001
    ("Diploma, Ragnvald Haldorsen Field School", "Ragnvald Haldorsen"),
    ("Polar Field School", None),
    ("thanks to memory pooling for speed", None),
    ("tendai phiri cleaned up the logs", "tendai phiri"),
    ("the Rust bindings were reviewed", None),
    ("Apache Kafka Streams feeds the Kubernetes Operator", None),
    # one capitalised word no list knows, before a possessive or a verb in the past
    ("Ingibjörg's profiler found the leak", "Ingibjörg"),
    ("the pager moved on after Tadhgán handed over", "Tadhgán"),
    ("Python's GIL and Kubernetes' scheduler", None),
    ("Bologna's team", None),
    # lowercase names: an initial first, a role before 'was', a double surname in one token
    ("a paper with r. okonkwo-baptiste on caching", "okonkwo-baptiste"),
    ("the release owner was wiebke ter horst-meinders.", "wiebke ter horst-meinders"),
    ("based on a sketch by ndlovu-sipho, then merged", "ndlovu-sipho"),
    ("built with low-latency queues", None),
    ("compiled by rate-limiting proxies", None),
    # lowercase names after credit and authorship cues, a hyphenated given name, single names after 'by'
    ("she credits tomasz wierzbicki and the lab", "tomasz wierzbicki"),
    ("an idea from joaquín herrera", "joaquín herrera"),
    ("reviewed by mei-ling zhou before each release", "mei-ling zhou"),
    ("the corpus by ngawang.sherpa and dolma-tamang.", "dolma-tamang"),
    ("pairs with kahu and mereana on chaos testing", "mereana"),
    ("thanks to ayse for the chart, joost van den akker for the webhook", "joost van den akker"),
    ("thanks to ayse for the chart, and pieter-jan van 't hof for testing", "pieter-jan van 't hof"),
    ("thanks to ayse for the chart, the new build for arm", None),
    ("tuned for read-only and write-heavy loads", None),
    ("co-authored with radek and the reviewers", "radek"),
    ("follow-up fixes by lindgren and by wanyama.", "wanyama"),
    ("fixes by hand and by default.", None),
    ("data from kafka topics", None),
    # another name of the same person after its cue
    ("Best Talk (Ilse Marchetti, a.k.a. Marketti)", "Marketti"),
    ("the scheduler, a.k.a. Kubernetes.", None),
]


@pytest.mark.parametrize(("text", "name"), NAMES_ONLY)
def test_names_only_recognizers(text: str, name: str | None, scrubber: TextScrubber) -> None:
    (spans,) = scrubber.engine.recognized([text])
    found = [text[span.start : span.end] for span in spans if span.entity == "PERSON"]
    if name is None:
        assert found == []
    else:
        assert name in found


@pytest.mark.parametrize(
    ("text", "account"),
    [
        ("Port of tomekz's streaming JSON parser to Rust.", "tomekz"),
        ("A fork of mirelad's scheduler", "mirelad"),
        ("Port of python's asyncio to Lua", None),
        ("Rewrite of kafka's consumer", None),
    ],
)
def test_an_account_before_a_possessive_after_a_copy_cue(
    text: str, account: str | None, scrubber: TextScrubber
) -> None:
    (spans,) = scrubber.engine.recognized([text])
    found = [text[span.start : span.end] for span in spans if span.entity == "HANDLE"]
    assert found == ([account] if account else [])


ADDRESS_BLOCKS = [
    # (text, the address the engine replaces whole): the lines below a street that hold only its parts
    (
        "a taxi to 46963 Al. Zwycięstwa 96\n Apt. 595\n Gdynia\n Poland 25382. Please call me",
        "46963 Al. Zwycięstwa 96\n Apt. 595\n Gdynia\n Poland 25382",
    ),
    (
        "send it to 55792 Marikåpeveien 33 Suite 991\nPUNKAHARJU\n, SV\n Finland 88595? I am away",
        "55792 Marikåpeveien 33 Suite 991\nPUNKAHARJU\n, SV\n Finland 88595",
    ),
    ("office at 38 Mare Street\nThanks for the help", "38 Mare Street"),
]


@pytest.mark.parametrize(("text", "address"), ADDRESS_BLOCKS)
def test_an_address_takes_its_lines_below(text: str, address: str, scrubber: TextScrubber) -> None:
    (spans,) = scrubber.engine.recognized([text])
    found = [text[span.start : span.end] for span in spans if span.entity == "STREET_ADDRESS"]
    assert address in found

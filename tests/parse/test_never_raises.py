"""`parse_bytes` never raises: whatever the bytes, the result is a Reject with a stable reason or a parsed
(Document, ParsedProfile) pair, and the pair turns into the contract's tables without error."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.errors import RejectReason
from toolkit.io import InputFile
from toolkit.parse import LAYOUTS, parse_bytes, parse_inputs
from toolkit.parse.collect import collect
from toolkit.parse.document import Document, ParsedProfile, Reject
from toolkit.rules import ParsingRules
from tools.profiles import Generated, profiles

SOURCE = "inbox/doc.txt"
POOL = profiles(40, seed=23)
LAYOUT_NAMES = {layout.name for layout in LAYOUTS}
ENCODINGS = {"utf-8", "utf-16", "utf-32", "cp1252"}

FAST = settings(max_examples=150, deadline=None, database=None)

NOISE = [
    "\u00a0", "\u200b", "\u2009", "\u202f", "\ufeff", "\u00ad", "\u2060", "\u200d", "\u0301", "\u2028",
    "\U0001f600", "\U0001f469\u200d\U0001f4bb", "\U0001f1f5\U0001f1f9", "\r\n", "\r", "\n", "\n\n", "\t",
    "\x0b", "\x0c", "\x1c", "\x85", "\x00", "\x07", "é", "ß", "İ", "ﬁ", "一", "١٢", "Summary\n",
    "Experience\n", "\nGithub Skills (3)\n", "\nGithub contributions (2)\n", "Role in this project:",
    "Contributions:", "Contributions summary:", "- ", " at ", ", ", "Find and Hire Top Developers",
    "Jan 2019 - Present", "supervised by Dr. ",
]  # fmt: skip

# Lines a layout reacts to, so arbitrary line soups reach the parsers and not only the detector.
# Numbers stay small here; oversized numbers have their own tests below.
small = st.integers(min_value=0, max_value=10_000).map(str)
MARKER_LINE = st.one_of(
    st.sampled_from(["Summary", "Experience", "Work experience:", "", "Role in this project:", "- "]),
    st.builds("{} years of coding experience".format, small),
    st.builds("{} years of employment as a developer".format, small),
    st.builds("Github Skills ({})".format, small),
    st.builds("Programming languages ({})".format, small),
    st.builds("Github contributions ({})".format, small),
    st.builds("Contributions:{} commits in {} years {} months".format, small, small, small),
    st.builds("{}Contributions:{} commit in less than a month".format, st.text(max_size=8), small),
    st.builds("Contributions summary:{}".format, st.text(max_size=20)),
    st.builds(
        "{} - {}".format,
        st.sampled_from(["Aug 2019", "Foo 2019", "Jan 0000"]),
        st.sampled_from(["Present", "Oct 2020", "Dec 9999"]),
    ),
    st.sampled_from(["owner/repo", "a/b", "python9", "xla10", "web310", "aideep-learningtensorflow"]),
    st.sampled_from(["English, Portuguese", "Bachelor of Science, CS at Uni", "Acme, supervised by Dr. X"]),
    st.text(max_size=30),
)


def check(result: tuple[Document, ParsedProfile] | Reject, source: str = SOURCE, tables: bool = True) -> None:
    """The result is a Reject with a stable reason or a parsed pair, and (`tables`) becomes exactly one row."""
    if isinstance(result, Reject):
        assert result.source == source
        assert isinstance(result.reason, RejectReason)
        assert isinstance(result.detail, str)
        assert result.detail
    else:
        assert isinstance(result, tuple)
        assert len(result) == 2
        document, parsed = result
        assert isinstance(document, Document)
        assert isinstance(parsed, ParsedProfile)
        assert document.source == source
        assert document.encoding in ENCODINGS
        assert document.profile_id.startswith("p")
        assert parsed.profile["layout"] in LAYOUT_NAMES
    if tables:
        built = collect([result])
        assert built.profiles.height + built.rejects.height == 1


@FAST
@given(data=st.binary(max_size=4096))
def test_arbitrary_bytes_never_raise(data: bytes, rules: ParsingRules) -> None:
    check(parse_bytes(SOURCE, data, rules))


@FAST
@given(text=st.text(max_size=2000), codec=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]))
def test_arbitrary_text_never_raises(text: str, codec: str, rules: ParsingRules) -> None:
    check(parse_bytes(SOURCE, text.encode(codec, errors="surrogatepass"), rules))


@FAST
@given(lines=st.lists(MARKER_LINE, max_size=40), first=st.sampled_from(["", "Ada Byron\n", "Experience\n"]))
def test_line_soups_of_layout_markers_never_raise(lines: list[str], first: str, rules: ParsingRules) -> None:
    check(parse_bytes(SOURCE, (first + "\n".join(lines)).encode("utf-8"), rules))


@st.composite
def with_lines_deleted(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(POOL)).text.splitlines(keepends=True)
    doomed = draw(st.sets(st.integers(min_value=0, max_value=len(lines) - 1), max_size=len(lines)))
    return "".join(line for index, line in enumerate(lines) if index not in doomed)


@st.composite
def with_noise_inserted(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(POOL)).text
    for _ in range(draw(st.integers(min_value=1, max_value=12))):
        at = draw(st.integers(min_value=0, max_value=len(text)))
        noise = draw(st.sampled_from(NOISE) | st.text(min_size=1, max_size=3))
        text = text[:at] + noise + text[at:]
    return text


@FAST
@given(text=with_lines_deleted())
def test_generated_documents_with_lines_deleted_never_raise(text: str, rules: ParsingRules) -> None:
    check(parse_bytes(SOURCE, text.encode("utf-8"), rules))


@FAST
@given(
    doc=st.sampled_from(POOL),
    codec=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
    cut=st.floats(min_value=0, max_value=1),
)
def test_generated_documents_truncated_at_any_byte_never_raise(
    doc: Generated, codec: str, cut: float, rules: ParsingRules
) -> None:
    data = doc.text.encode(codec)
    check(parse_bytes(SOURCE, data[: int(len(data) * cut)], rules))


@FAST
@given(text=with_noise_inserted())
def test_generated_documents_with_characters_inserted_never_raise(text: str, rules: ParsingRules) -> None:
    check(parse_bytes(SOURCE, text.encode("utf-8", errors="surrogatepass"), rules))


@FAST
@given(text=with_noise_inserted() | with_lines_deleted(), codec=st.sampled_from(["utf-16", "cp1252"]))
def test_mutated_documents_in_other_encodings_never_raise(text: str, codec: str, rules: ParsingRules) -> None:
    check(parse_bytes(SOURCE, text.encode(codec, errors="replace"), rules))


@settings(
    max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(texts=st.lists(with_noise_inserted() | with_lines_deleted() | st.binary(max_size=200), max_size=5))
def test_batches_of_mutated_files_never_raise(
    texts: list[str | bytes], tmp_path: Path, rules: ParsingRules
) -> None:
    inputs = []
    for index, content in enumerate(texts):
        path = tmp_path / f"doc_{index}.txt"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
        inputs.append(InputFile(str(path), path))
    tables = parse_inputs(inputs, rules)
    assert tables.profiles.height + tables.rejects.height == len(texts)
    assert set(tables.profiles["source"]) | set(tables.rejects["source"]) == {item.source for item in inputs}


# ---------------------------------------------------------------------------------------------------------
# Numbers too long for int() (Python refuses more than 4300 digits) or too large for the table's integer
# column. Whatever the parser decides (a null field, the line kept in unparsed_lines, or a reject), it must
# not raise, neither in parse_bytes nor when the batch's tables are built.

PAGE_HEAD = (
    "Ada Byron\nStaff Engineer at Northwind Labs\nLisbon, Portugal\nSummary\nAda Byron is an engineer.\n"
)
CONTRIBUTION = "Github contributions (1)\nowner/repo\nJan 2019 - Feb 2020\nRole in this project:Dev\n"
HUGE = "9" * 5000
BIG = "99999999999999999999"  # more than Int64 holds, let alone Int32

OVERSIZED_NUMBERS = {
    "coding-years-5000-digits": f"{HUGE} years of coding experience\n",
    "employment-years-5000-digits": f"{HUGE} years of employment as a developer\n",
    "declared-skills-5000-digits": f"Github Skills ({HUGE})\npython9\n",
    "declared-contributions-5000-digits": f"Github contributions ({HUGE})\n",
    "commits-5000-digits": f"{CONTRIBUTION}DevContributions:{HUGE} commits in 2 years\n",
    "duration-years-5000-digits": f"{CONTRIBUTION}DevContributions:5 commits in {HUGE} years\n",
    "coding-years-over-int32": f"{BIG} years of coding experience\n",
    "employment-years-over-int32": "3000000000 years of employment as a developer\n",
    "declared-programming-languages-over-int32": "Programming languages (3000000000)\n",
    "declared-contributions-over-int32": f"Github contributions ({BIG})\n",
    "commits-over-int64": f"{CONTRIBUTION}DevContributions:{BIG} commits in 2 years\n",
    "duration-months-over-int32": f"{CONTRIBUTION}DevContributions:5 commits in 3000000000 months\n",
}


@pytest.mark.parametrize("body", OVERSIZED_NUMBERS.values(), ids=OVERSIZED_NUMBERS.keys())
def test_oversized_numbers_never_raise_in_parse_bytes(body: str, rules: ParsingRules) -> None:
    check(parse_bytes(SOURCE, (PAGE_HEAD + body).encode("utf-8"), rules), tables=False)


@pytest.mark.parametrize("body", OVERSIZED_NUMBERS.values(), ids=OVERSIZED_NUMBERS.keys())
def test_oversized_numbers_never_raise_in_a_batch(body: str, tmp_path: Path, rules: ParsingRules) -> None:
    bad = tmp_path / "a_bad.txt"
    bad.write_text(PAGE_HEAD + body, encoding="utf-8")
    good = tmp_path / "b_good.txt"
    good.write_text(POOL[0].text, encoding="utf-8")
    tables = parse_inputs([InputFile(str(bad), bad), InputFile(str(good), good)], rules)
    assert str(good) in tables.profiles["source"].to_list()
    assert tables.profiles.height + tables.rejects.height == 2

"""The structured formats teams hold: JSON Resume, GitHub REST API users, LinkedIn data exports.

Each fixture (fictional people, with the defects of real files: a BOM, Windows line ends, notes above a
header, blank padding rows, nulls, empty strings, HTML, emoji, dates in several shapes, extra keys) parses
into exactly the values its text states; malformed variants are rejects with a reason; nothing raises.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import RejectReason
from toolkit.model import ProfileSet
from toolkit.parse import parse_paths, parse_record
from toolkit.parse.collect import collect
from toolkit.parse.document import ParsedProfile, Reject
from toolkit.parse.values import date_of, repository_of, text_of
from toolkit.rules import ParsingRules
from tools.profiles import documents, fold, with_formats

FORMATS = Path(__file__).parent / "formats"
D = dt.date


def _only(tables: ProfileSet) -> dict[str, Any]:
    assert tables.profiles.height == 1, tables.rejects
    return tables.profiles.row(0, named=True)


def _rows(tables: ProfileSet, table: str, *columns: str) -> list[tuple[Any, ...]]:
    return list(getattr(tables, table).select(columns).iter_rows())


def test_a_json_resume_parses_into_the_values_it_states(rules: ParsingRules) -> None:
    tables = parse_paths([str(FORMATS / "json_resume" / "full_v1.json")], rules)
    profile = _only(tables)
    assert profile["layout"] == "json_resume"
    assert profile["name"] == "Tove Marchetti-Lund"
    assert profile["headline"] == "Platform Engineer"
    assert (profile["title"], profile["employer"]) == ("Staff Platform Engineer", "Brightwater Cloud")
    assert profile["summary"] == "I keep Kubernetes clusters boring & fast. 🚀 SRE at heart"
    assert (profile["city"], profile["region"], profile["country"]) == (
        "Stockholm",
        "Stockholm County",
        "Sweden",
    )
    assert profile["spoken_languages"] == ["Swedish", "English"]
    assert profile["contacts"] == [
        "tove.ml@example.org", "+46 8 555 012 34", "https://tovelund.example.dev",
        "https://img.example.org/tml.png", "Storgatan 12", "111 22", "https://github.com/tovelund", "@tovelund",
        "@tml", "https://certs.example.org/cka/0042",
        "https://tovelund.example.dev/lab", "https://sre.example.org/boring",
    ]  # fmt: skip
    assert profile["other_people"] == ["Rasmus Ekdahl"]
    assert "pronouns: she/her" in profile["unparsed_lines"]
    assert any(line.startswith("publication: Boring Clusters") for line in profile["unparsed_lines"])
    assert any(line.startswith("project: Home lab") for line in profile["unparsed_lines"])
    assert 'x-favourite-editor: "helix"' in profile["unparsed_lines"]
    assert _rows(tables, "experience", "position", "title", "organization", "start", "end") == [
        (1, "Staff Platform Engineer", "Brightwater Cloud", D(2022, 4, 1), None),
        (2, "DevOps Engineer", "Kvarn Data", D(2018, 9, 1), D(2022, 3, 1)),
        (3, "Organiser", "PyCon Nordics", D(2019, 1, 1), D(2020, 1, 1)),
    ]
    assert tables.experience.get_column("bullets").to_list()[0] == [
        "Runs the platform team.", "Moved 300 services to Kubernetes", "Wrote the on-call guide with Rasmus Ekdahl"
    ]  # fmt: skip
    assert _rows(tables, "education", "degree", "field", "institution") == [
        ("MSc", "Computer Science", "KTH Royal Institute of Technology")
    ]
    assert _rows(tables, "awards", "title", "issuer") == [
        ("Hackathon Winner", "Nordic Hack"),
        ("Certified Kubernetes Administrator", "CNCF"),
    ]
    assert _rows(tables, "skills", "kind", "skill", "score") == [
        ("listed_skill", skill, None) for skill in ("Kubernetes", "Helm", "Terraform", "Go")
    ]  # 'kubernetes' again in the keywords is the same skill
    assert _rows(tables, "contributions", "repository", "description", "start", "end", "role", "tags") == [
        ("tovelund/kube-quiet", "Silences noisy alerts", D(2021, 6, 1), D(2023, 1, 1), "Maintainer, Author",
         ["kubernetes", "alerting"]),
    ]  # fmt: skip


def test_legacy_json_resume_keys_are_read(rules: ParsingRules) -> None:
    tables = parse_paths([str(FORMATS / "json_resume" / "legacy_v0.json")], rules)
    profile = _only(tables)
    assert (profile["name"], profile["country"], profile["city"]) == ("Emeka Ofori-Atta", "Ghana", "Accra")
    assert (profile["title"], profile["employer"]) == ("Backend Developer", "Sankofa Pay")
    assert "https://img.example.org/eoa.jpg" in profile["contacts"]
    assert "http://ofori-atta.example.net" in profile["contacts"]
    assert "education gpa: 3.6" in profile["unparsed_lines"]
    assert _rows(tables, "experience", "organization", "start", "end", "bullets") == [
        ("Sankofa Pay", D(2019, 1, 1), None, ["Payments APIs in Go."])
    ]


def test_an_array_of_resumes_is_one_profile_each_with_its_own_id(rules: ParsingRules) -> None:
    tables = parse_paths([str(FORMATS / "json_resume" / "two_resumes.json")], rules)
    assert tables.profiles.get_column("name").to_list() == ["Wen Jiahui", "Sione Tuilagi"]
    assert tables.profiles.get_column("country").to_list() == ["China", "New Zealand"]
    assert tables.profiles.get_column("profile_id").n_unique() == 2
    alone = json.loads((FORMATS / "json_resume" / "two_resumes.json").read_text())[1]
    single = parse_record("x.json", json.dumps(alone).encode(), rules)[0]
    assert not isinstance(single, Reject)
    assert single[0].profile_id == tables.profiles.get_column("profile_id")[1]  # not tied to the file


def test_a_github_user_with_its_repositories(rules: ParsingRules) -> None:
    tables = parse_paths([str(FORMATS / "github" / "user_with_repos.json")], rules)
    profile = _only(tables)
    assert profile["layout"] == "github_api"
    assert (profile["name"], profile["employer"]) == ("Marisol Quintana", "tidewater-io")
    assert (profile["city"], profile["country"]) == ("Valparaíso", "Chile")
    assert profile["summary"] == "Distributed systems, coffee and tides"
    assert profile["contacts"] == [
        "@marisol-dev", "https://github.com/marisol-dev", "marisol.example.dev", "marisol.q@example.cl", "@marisolq"
    ]  # fmt: skip
    assert _rows(tables, "contributions", "repository", "description", "start", "end", "role", "tags") == [
        ("marisol-dev/tidal", "A tiny Raft in Rust", D(2019, 7, 1), D(2024, 10, 1), "owner", ["raft", "consensus"]),
        ("marisol-dev/tokio", None, D(2021, 1, 1), D(2021, 1, 1), "fork", None),
        ("tidewater-io/gauge", "Tide gauge ingestion", D(2022, 5, 1), None, None, None),
    ]  # fmt: skip
    assert _rows(tables, "skills", "kind", "skill") == [
        ("programming_language", "Rust"),
        ("programming_language", "Python"),
    ]


def test_json_lines_of_github_users_with_nulls_and_windows_line_ends(rules: ParsingRules) -> None:
    tables = parse_paths([str(FORMATS / "github" / "users.jsonl")], rules)
    assert tables.rejects.is_empty()
    rows = tables.profiles.select("name", "employer", "country", "summary").rows()
    assert rows == [
        ("Kwabena Asante", "Savannah Labs", "Ghana", None),
        (None, None, None, None),
        ("Liesl van Rensburg", "capeflow openfold", "South Africa", "Bioinformatics 🧬"),
    ]
    assert tables.profiles.get_column("contacts").to_list()[1] == [
        "@ghost-4821",
        "https://github.com/ghost-4821",
    ]


def test_a_linkedin_export_folder_is_one_person(rules: ParsingRules) -> None:
    tables = parse_paths([str(FORMATS / "linkedin")], rules)
    assert tables.rejects.is_empty()
    assert tables.profiles.height == 2
    farida = tables.profiles.filter(pl.col("name") == "Farida Haddad").row(0, named=True)
    assert farida["layout"] == "linkedin_export"
    assert farida["headline"] == "Machine Learning Engineer at Orbis Vision"
    assert farida["summary"] == "Computer vision for crops. Formerly in robotics."
    assert (farida["city"], farida["region"], farida["country"]) == ("Lyon", "Auvergne-Rhône-Alpes", "France")
    assert (farida["title"], farida["employer"]) == ("Machine Learning Engineer", "Orbis Vision")
    assert farida["spoken_languages"] == ["French", "Arabic", "English"]
    assert farida["other_people"] == ["Farida Nasser", "Baptiste Morel"]
    assert set(farida["contacts"]) == {
        "7 Rue des Tanneurs, Lyon", "69002", "@fhaddad_ml", "https://faridahaddad.example.fr",
        "farida.haddad.ml", "farida.haddad@example.fr", "+33 4 78 00 12 34",
        "https://creds.example.org/tf/991", "TF-99102", "https://drive.example.com/x",
    }  # fmt: skip
    assert sorted(farida["skipped_files"]) == [
        "Connections.csv: other people's contacts",
        "Registration.csv: not a kind this toolkit reads",
        "messages.csv: private messages",
    ]
    assert "industry: Computer Software" in farida["unparsed_lines"]
    assert not any("1991" in line for line in farida["unparsed_lines"])  # the birth date is dropped
    mine = pl.col("profile_id") == farida["profile_id"]
    assert tables.experience.filter(mine).select("title", "organization", "bullets", "start", "end").rows() == [
        ("Machine Learning Engineer", "Orbis Vision", ["Segmentation models for drone imagery. Led a team of 3."],
         D(2021, 3, 1), None),
        ("Robotics Engineer", "Agrobot", ["ROS navigation"], D(2017, 9, 1), D(2021, 2, 1)),
    ]  # fmt: skip
    assert tables.education.filter(mine).select("degree", "institution").rows() == [
        ("Diplôme d'ingénieur", "INSA Lyon")
    ]
    assert tables.skills.filter(mine).get_column("skill").to_list() == ["PyTorch", "Computer Vision", "ROS"]
    assert tables.awards.filter(mine).select("title", "issuer").rows() == [
        ("TensorFlow Developer Certificate", "Google"),
        ("Best Demo Award", None),
    ]
    assert tables.contributions.filter(mine).select("repository", "start", "end").rows() == [
        ("fhaddad/cropseg", D(2022, 1, 1), None)
    ]


def test_a_zipped_export_holding_a_folder_with_german_headers(rules: ParsingRules, tmp_path: Path) -> None:
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted((FORMATS / "linkedin" / "de_export").rglob("*.csv")):
            zipped.write(path, path.relative_to(FORMATS / "linkedin" / "de_export").as_posix())
    tables = parse_paths([str(archive)], rules)
    profile = _only(tables)
    assert (profile["name"], profile["country"], profile["encoding"]) == (
        "Jürgen Pohlmann",
        "Deutschland",
        "zip",
    )
    assert (profile["title"], profile["employer"]) == ("Softwarearchitekt", "Elbwerk GmbH")
    assert profile["contacts"] == ["juergen.pohlmann@example.de"]
    assert _rows(tables, "experience", "organization", "start", "end") == [
        ("Elbwerk GmbH", D(2019, 4, 1), None),
        ("Hafenlogik", D(2014, 1, 1), D(2019, 1, 1)),
    ]
    assert tables.skills.get_column("skill").to_list() == ["Java", "Kafka"]


def _one(result: list[Any]) -> Reject:
    assert len(result) == 1
    reject = result[0]
    assert isinstance(reject, Reject), reject
    return reject


@pytest.mark.parametrize(
    ("name", "reason", "detail"),
    [
        ("broken.json", RejectReason.MALFORMED, "invalid JSON"),
        ("unknown.json", RejectReason.UNKNOWN_LAYOUT, "a JSON document that is none of"),
        ("empty_array.json", RejectReason.EMPTY, "no documents"),
    ],
)
def test_malformed_json_is_a_reject_with_its_reason(
    rules: ParsingRules, name: str, reason: RejectReason, detail: str
) -> None:
    reject = _one(parse_record(name, (FORMATS / "malformed" / name).read_bytes(), rules))
    assert (reject.source, reject.reason) == (name, reason)
    assert detail in reject.detail


def test_one_bad_line_of_json_lines_does_not_lose_the_others(rules: ParsingRules) -> None:
    good = (FORMATS / "github" / "users.jsonl").read_text().splitlines()[0]
    results = parse_record("u.jsonl", f'{good}\n{{"login": 5}}\n'.encode(), rules)
    assert [type(result).__name__ for result in results] == ["tuple", "Reject"]
    rejected = results[1]
    assert isinstance(rejected, Reject)
    assert rejected.detail.startswith("document 2:")


def test_damaged_and_incomplete_exports_are_rejects(rules: ParsingRules, tmp_path: Path) -> None:
    damaged = _one(parse_record("x.zip", b"PK\x03\x04" + b"\x00" * 40, rules))
    assert damaged.reason == RejectReason.MALFORMED
    positions = (FORMATS / "linkedin" / "farida_export" / "Positions.csv").read_bytes()
    alone = _one(parse_record("Positions.csv", positions, rules))
    assert (alone.reason, alone.detail) == (
        RejectReason.TRUNCATED,
        "a LinkedIn export's positions file without the export's profile file beside it",
    )
    archive = tmp_path / "no_profile.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("Positions.csv", positions)
    headless = _one(parse_record("no_profile.zip", archive.read_bytes(), rules))
    assert headless.reason == RejectReason.TRUNCATED
    assert "found: positions" in headless.detail
    (tmp_path / "folder").mkdir()
    shutil.copy(FORMATS / "linkedin" / "farida_export" / "Skills.csv", tmp_path / "folder")
    tables = parse_paths([str(tmp_path / "folder")], rules)  # not an export folder: each file alone
    assert tables.rejects.get_column("reason").to_list() == ["truncated"]


def test_a_lone_profile_csv_is_an_export_of_one_file(rules: ParsingRules) -> None:
    data = (FORMATS / "linkedin" / "farida_export" / "Profile.csv").read_bytes()
    result = parse_record("Profile.csv", data, rules)[0]
    assert not isinstance(result, Reject)
    assert result[1].profile["name"] == "Farida Haddad"


@pytest.mark.parametrize(
    ("written", "month"),
    [
        ("2020", D(2020, 1, 1)),
        ("2020-07", D(2020, 7, 1)),
        ("2020-07-19", D(2020, 7, 1)),
        ("2019-07-04T00:00:00Z", D(2019, 7, 1)),
        ("Mar 2021", D(2021, 3, 1)),
        ("12 Apr 1991", D(1991, 4, 1)),
        ("Apr 12, 1991", D(1991, 4, 1)),
        ("1/5/21", D(2021, 1, 1)),
        ("12/31/99", D(1999, 12, 1)),
        ("3/14/2022", D(2022, 3, 1)),
        ("", None),
        ("Present", None),
        ("2020-13", None),
        ("13/45/20", None),
        (None, None),
        (2020, D(2020, 1, 1)),
    ],
)
def test_dates_in_the_shapes_exports_write(written: Any, month: dt.date | None) -> None:
    assert date_of(written) == month


@pytest.mark.parametrize(
    ("url", "repository"),
    [
        ("https://github.com/ada/loom", "ada/loom"),
        ("github.com/ada/loom.git", "ada/loom"),
        ("https://gitlab.com/ada/loom/", "ada/loom"),
        ("https://github.com/ada", None),
        ("https://example.com/ada/loom", None),
        ("https://github.com/ada/loom/tree/main", None),
    ],
)
def test_a_project_url_names_a_repository_only_at_a_code_host(url: str, repository: str | None) -> None:
    assert repository_of(url) == repository


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("<p>a <b>b</b></p><p>c</p>", "a b c"),
        ("Tom &amp; Jerry", "Tom & Jerry"),
        ("  ", None),
        ("", None),
        (True, None),
        (3.5, "3.5"),
        (["x"], None),
        ("a < b and c > d", "a < b and c > d"),
    ],
)
def test_text_values_are_cleaned(value: Any, text: str | None) -> None:
    assert text_of(value) == text


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "basics",
                    "work",
                    "education",
                    "skills",
                    "login",
                    "html_url",
                    "name",
                    "endDate",
                    "startDate",
                    "location",
                    "profiles",
                    "repos",
                    "user",
                    "projects",
                    "url",
                    "keywords",
                    "highlights",
                    "x",
                ]
            ),
            children,
            max_size=6,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, database=None)
@given(JSON)
def test_parsing_any_json_never_raises(rules: ParsingRules, document: Any) -> None:
    results = parse_record("any.json", json.dumps(document).encode(), rules)
    for result in results:
        if not isinstance(result, Reject):
            assert isinstance(result[1], ParsedProfile)
            assert result[1].profile["layout"] in ("json_resume", "github_api")
    collect(results)  # and the rows fit the contract's dtypes


def test_generated_profiles_rewritten_in_each_format_parse_as_that_format(rules: ParsingRules) -> None:
    docs = list(with_formats(documents(45, seed=5), 1.0, seed=5))
    assert {doc.layout for doc in docs} == {"json_resume", "github_api", "linkedin_export"}
    for doc in docs:
        data = doc.data if doc.data is not None else doc.text.encode()
        (result,) = parse_record(f"doc{doc.suffix}", data, rules)
        assert not isinstance(result, Reject), (doc.layout, result)
        assert result[1].profile["layout"] == doc.layout
        assert all(fold(value) in fold(doc.text) for value in doc.person_identifiers)


def test_a_broken_line_of_json_lines_is_its_own_reject(rules: ParsingRules) -> None:
    good = (FORMATS / "github" / "users.jsonl").read_text().splitlines()[0]
    results = parse_record("u.jsonl", f'{good}\n{{"login": "half\n{good}\n'.encode(), rules)
    assert [type(result).__name__ for result in results] == ["tuple", "Reject", "tuple"]
    broken = results[1]
    assert isinstance(broken, Reject)
    assert broken.reason == RejectReason.MALFORMED
    assert broken.detail.startswith("document 2: invalid JSON:")


def test_a_link_loop_inside_an_export_folder_ends(rules: ParsingRules, tmp_path: Path) -> None:
    export = tmp_path / "export"
    shutil.copytree(FORMATS / "linkedin" / "farida_export", export)
    (export / "loop").symlink_to(export)
    tables = parse_paths([str(export)], rules)
    assert tables.profiles.get_column("name").to_list() == ["Farida Haddad"]

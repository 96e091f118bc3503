"""Where commands may write: never over an input, inside one, or over an output of another kind, and a
mistyped input path is a usage error (exit 2), not a rejected file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.publish import KIND_FILE, OutputKind, output_kind

REPO = Path(__file__).parent.parent
TALENT_PAGES = REPO / "sample_data" / "talent_pages"
FIXTURE_PAGES = REPO / "tests" / "fixtures"
TOOLKIT_REPORT = json.dumps({"report_version": 2, "tool": {"name": "toolkit", "version": "0"}})


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["parse", "{missing}", "--out", "{tmp}/parsed"],
        ["parse", str(TALENT_PAGES), "{missing}", "--out", "{tmp}/parsed"],
        ["validate", "{missing}"],
        ["validate", "{missing}", "--quarantine", "{tmp}/quarantine"],
        ["run", "{missing}", "--out", "{tmp}/release"],
    ],
)
def test_a_missing_input_is_a_usage_error_and_nothing_is_written(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "profiels"
    filled = [part.format(missing=missing, tmp=tmp_path) for part in argv]
    assert main(filled) == 2
    line = _one_error_line(capsys)
    assert "no such file or folder" in line
    assert "profiels" in line
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_an_output_over_an_output_of_another_kind_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parsed, quarantine = tmp_path / "parsed", tmp_path / "quarantine"
    assert main(["parse", str(TALENT_PAGES), "--out", str(parsed)]) == 0
    assert output_kind(parsed) is OutputKind.PARSED
    assert main(["validate", str(TALENT_PAGES), "--quarantine", str(quarantine)]) in (0, 1)
    assert output_kind(quarantine) is OutputKind.QUARANTINE
    capsys.readouterr()
    before = {path.name: path.read_bytes() for path in parsed.iterdir()}

    assert main(["validate", str(TALENT_PAGES), "--quarantine", str(parsed)]) == 2
    assert "is a parsed folder of toolkit, not a quarantine folder" in _one_error_line(capsys)
    assert main(["parse", str(TALENT_PAGES), "--out", str(quarantine)]) == 2
    assert "is a quarantine folder of toolkit, not a parsed folder" in _one_error_line(capsys)
    assert main(["run", str(TALENT_PAGES), "--out", str(parsed)]) == 2
    assert "is a parsed folder of toolkit, not a release folder" in _one_error_line(capsys)
    assert {path.name: path.read_bytes() for path in parsed.iterdir()} == before

    assert main(["parse", str(TALENT_PAGES), "--out", str(parsed)]) == 0  # the same kind is replaced
    assert main(["validate", str(TALENT_PAGES), "--quarantine", str(quarantine)]) in (0, 1)


@pytest.mark.parametrize(
    ("files", "kind"),
    [
        ({"report.json": TOOLKIT_REPORT}, OutputKind.RELEASE),
        ({"report.json": TOOLKIT_REPORT, "profiles.parquet": "", "README.md": ""}, OutputKind.RELEASE),
        ({"report.json": json.dumps({"tool": {"name": "toolkit"}, "inputs": ["x"]})}, OutputKind.PRIVATE),
        ({"profiles.parquet": "", "rejects.parquet": ""}, OutputKind.PARSED),
        ({"profiles.parquet": ""}, None),
        ({"notes.txt": "mine"}, None),
        ({"report.json": json.dumps({"name": "my-app"})}, None),  # someone else's report
        ({"report.json": json.dumps({"tool": "toolkit"})}, None),
        ({"report.json": TOOLKIT_REPORT, "thesis.txt": "chapter one"}, None),  # a release and more
        ({"profiles.parquet": "", "rejects.parquet": "", "notes.txt": ""}, None),
        ({KIND_FILE: "release\n", "notes.txt": "mine"}, None),
        ({KIND_FILE: "release\n", "profiles.parquet": ""}, OutputKind.RELEASE),
        ({KIND_FILE: "something else\n"}, None),
    ],
)
def test_output_kind_of_a_folder(files: dict[str, str], kind: OutputKind | None, tmp_path: Path) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert output_kind(tmp_path) == kind


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ("run", {"report.json": json.dumps({"name": "my-app"}), "thesis.txt": "chapter one"}),
        ("run", {"report.json": TOOLKIT_REPORT, "thesis.txt": "chapter one"}),
        ("parse", {"profiles.parquet": "", "rejects.parquet": "", "notes.txt": "mine"}),
    ],
)
def test_a_folder_with_files_of_ones_own_is_never_replaced(
    command: str, files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mywork"
    mine.mkdir()
    for name, text in files.items():
        (mine / name).write_text(text)
    assert main([command, str(TALENT_PAGES), "--out", str(mine)]) == 2
    assert "is not an output of toolkit" in _one_error_line(capsys)
    assert {path.name: path.read_text() for path in mine.iterdir()} == files


def test_a_fifo_named_as_the_kind_file_does_not_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / KIND_FILE)
    assert main(["parse", str(TALENT_PAGES), "--out", str(out)]) == 2
    assert "is not an output of toolkit" in _one_error_line(capsys)


def test_a_folder_of_ones_own_is_never_an_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("chapter one")
    assert main(["validate", str(TALENT_PAGES), "--quarantine", str(mine)]) == 2
    assert "is not an output of toolkit" in _one_error_line(capsys)
    assert [path.name for path in mine.iterdir()] == ["thesis.tex"]


@pytest.mark.parametrize("where", ["same", "inside", "around"])
def test_the_quarantine_folder_may_not_overlap_an_input(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "page.txt").write_bytes(next(TALENT_PAGES.iterdir()).read_bytes())
    folder = {"same": inputs, "inside": inputs / "q", "around": tmp_path}[where]
    assert main(["validate", str(inputs), "--quarantine", str(folder)]) == 2
    assert "must not overlap" in _one_error_line(capsys)
    assert [path.name for path in inputs.iterdir()] == ["page.txt"]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from toolkit import __version__

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"toolkit {__version__}"


@pytest.mark.usefixtures("pseudonymize_only")
def test_the_release_report_names_no_input_and_no_rejected_file(tmp_path: Path) -> None:
    inputs = tmp_path / "Grace Hopper files"
    inputs.mkdir()
    for page in sorted(TALENT_PAGES.iterdir())[:3]:
        (inputs / page.name).write_bytes(page.read_bytes())
    (inputs / "Grace_Hopper_cover_letter.txt").write_text("Dear hiring team, I write to apply.\n")
    out = tmp_path / "release"
    assert main(["run", str(inputs), "--out", str(out), "--jobs", "1"]) == 1  # one input rejected
    released = (out / "report.json").read_text(encoding="utf-8")
    assert json.loads(released)["counts"]["rejected_by_reason"] == {"unknown_layout": 1}
    for text in (released, *((out / name).read_text() for name in ("README.md", "report.html"))):
        assert "Grace" not in text
        assert "Hopper" not in text
        assert str(tmp_path) not in text.replace(str(out), "")
    private = (tmp_path / "release.private" / "report.json").read_text(encoding="utf-8")
    assert "Grace_Hopper_cover_letter.txt" in private


@pytest.mark.parametrize("where", ["over", "inside"])
def test_the_validate_report_may_not_go_over_or_inside_an_input(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    page = inputs / "page.txt"
    page.write_bytes(next(TALENT_PAGES.iterdir()).read_bytes())
    report = page if where == "over" else inputs / "report.json"
    assert main(["validate", str(inputs if where == "inside" else page), "--report", str(report)]) == 2
    assert "must not be written over or inside the input" in _one_error_line(capsys)
    assert [path.name for path in inputs.iterdir()] == ["page.txt"]


@pytest.mark.usefixtures("pseudonymize_only")
def test_a_validate_report_never_replaces_the_report_of_a_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    release = tmp_path / "release"
    assert main(["run", str(TALENT_PAGES), "--out", str(release), "--jobs", "1"]) in (0, 1)
    before = (release / "report.json").read_bytes()
    capsys.readouterr()
    assert main(["validate", str(TALENT_PAGES), "--report", str(release / "report.json")]) == 2
    assert "must not be written inside a release folder" in _one_error_line(capsys)
    assert (release / "report.json").read_bytes() == before


def test_links_that_loop_are_read_once_and_outputs_inside_an_input_not_at_all(tmp_path: Path) -> None:
    import os

    from toolkit.io import iter_inputs

    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "page.txt").write_bytes(next(TALENT_PAGES.iterdir()).read_bytes())
    os.symlink(".", inputs / "l1")
    os.symlink(".", inputs / "l2")
    parsed = tmp_path / "parsed"
    assert main(["parse", str(inputs), "--out", str(parsed)]) == 0
    os.symlink(parsed, inputs / "zz-parsed")
    assert [item.source for item in iter_inputs([str(inputs)])] == [str(inputs / "page.txt")]


@pytest.mark.usefixtures("pseudonymize_only")
def test_the_release_report_has_no_examples_and_names_only_its_own_folder(tmp_path: Path) -> None:
    out = tmp_path / "home" / "ada.byron" / "release"
    assert main(["run", str(FIXTURE_PAGES), "--out", str(out), "--jobs", "1"]) in (0, 1)
    released = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert released["release"]["folder"] == "release"
    assert released["quality"]["findings"]
    assert all(finding["examples"] == [] for finding in released["quality"]["findings"])
    assert "ada.byron" not in (out / "report.json").read_text(encoding="utf-8")
    private = json.loads((out.with_name("release.private") / "report.json").read_text(encoding="utf-8"))
    assert any(finding["examples"] for finding in private["quality"]["findings"])


@pytest.mark.slow
@pytest.mark.usefixtures("pseudonymize_only")
def test_nothing_is_written_into_an_output_folder_even_one_holding_a_stray_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    release = tmp_path / "release"
    assert main(["run", str(TALENT_PAGES), "--out", str(release), "--jobs", "1"]) in (0, 1)
    (release / "notes.txt").write_text("mine")
    before = (release / "report.json").read_bytes()
    source = tmp_path / "in.csv"
    source.write_text("text\nMail ada.byron@example.org\n")
    capsys.readouterr()
    assert main(["validate", str(TALENT_PAGES), "--report", str(release / "report.json")]) == 2
    assert "must not be written inside" in _one_error_line(capsys)
    for target in (release / "profiles.parquet", tmp_path / "release.private" / "x.csv"):
        assert main(["scrub", str(source), "--text-column", "text", "--out", str(target)]) == 2
        assert "outside the toolkit's output folder" in _one_error_line(capsys)
    assert (release / "report.json").read_bytes() == before
    assert main(["run", str(TALENT_PAGES), "--out", str(release), "--jobs", "1"]) == 2
    assert "also holds files toolkit did not write (notes.txt)" in _one_error_line(capsys)
    key = tmp_path / "key"
    key.write_text("a secret of sixteen bytes or more\n")
    assert main(["scrub", str(source), "--text-column", "text", "--out", str(tmp_path / "o.csv"),
                 "--key-file", str(key), "--report", str(key)]) == 2  # fmt: skip
    assert key.read_text() == "a secret of sixteen bytes or more\n"
    capsys.readouterr()
    assert main(["validate", str(TALENT_PAGES), "--report", str(tmp_path)]) == 2
    assert "is a folder" in _one_error_line(capsys)

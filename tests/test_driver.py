"""The job driver and its kernels: the same release however the work is cut, suppression per person, and
every fault ending in one line with nothing half-published."""

from __future__ import annotations

import errno
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit import pipeline, staging
from toolkit.cli import main
from toolkit.io import iter_inputs
from toolkit.job_config import JobSettings
from toolkit.kernels import BatchContext, SourceRecord, parse_batch, process_batch
from toolkit.rules import ParsingRules, PrivacyRules, QualityRules
from toolkit.scrub import Keyring
from toolkit.verify import NameIndex

REPO = Path(__file__).parent.parent
FIXTURES = REPO / "tests" / "fixtures"
SAMPLE = REPO / "sample_data"
SECRET = "a driver secret that is long enough"
KEY = Keyring(SECRET.encode(), "TOOLKIT_SECRET")
SAMPLES = sorted(SAMPLE.rglob("*.txt"))[:8]
TALENT = (FIXTURES / "talent_page_lookalike.txt").read_text(encoding="utf-8")


@pytest.fixture
def secret(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TOOLKIT_SECRET", SECRET)
    return SECRET


def _records(paths: list[Path]) -> list[SourceRecord]:
    return [SourceRecord(path.name, path.read_bytes()) for path in paths]


def _released_by_person(
    batches: list[list[SourceRecord]], rules: ParsingRules, quality: QualityRules, privacy: PrivacyRules
) -> dict[str, dict[str, list[dict[str, object]]]]:
    parsed = [parse_batch(batch, rules) for batch in batches]
    people = [
        name
        for tables in parsed
        for column in (tables.profiles["name"], tables.experience["supervisor"])
        for name in column.drop_nulls()
    ]
    context = BatchContext(names=NameIndex.of(people))
    rows: dict[str, dict[str, list[dict[str, object]]]] = {}
    for tables in parsed:
        result = process_batch(tables, quality, privacy, KEY, context)
        for table, frame in result.release.items():
            for row in frame.iter_rows(named=True):
                rows.setdefault(str(row["profile_id"]), {}).setdefault(table, []).append(row)
    return rows


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.integers(min_value=1, max_value=len(SAMPLES) - 1), max_size=3, unique=True))
def test_a_persons_released_rows_do_not_depend_on_the_batches(
    cuts: list[int], rules: ParsingRules, quality_rules: QualityRules, privacy_rules: PrivacyRules
) -> None:
    records = _records(SAMPLES)
    bounds = [0, *sorted(cuts), len(records)]
    batches = [records[start:end] for start, end in itertools.pairwise(bounds)]
    alone = _released_by_person([[record] for record in records], rules, quality_rules, privacy_rules)
    assert _released_by_person(batches, rules, quality_rules, privacy_rules) == alone


def test_a_word_one_profile_calls_a_project_is_still_a_person_in_another(
    rules: ParsingRules, quality_rules: QualityRules, privacy_rules: PrivacyRules
) -> None:
    mentions = SourceRecord(
        "a.txt", TALENT.replace("she works with Tobias Lindqvist", "she pairs weekly with Jordan").encode()
    )
    owner = SourceRecord("b.txt", TALENT.replace("Maribel Okonkwo-Reyes", "Ines Varga").replace(
        "tessellate-ai/tessera", "acme/jordan").replace("Maribel", "Ines").encode())  # fmt: skip
    for batches in ([[mentions]], [[mentions, owner]], [[owner], [mentions]]):
        released = _released_by_person(batches, rules, quality_rules, privacy_rules)
        summaries = [str(rows["profiles"][0]["summary"]) for rows in released.values()]
        text = next(summary for summary in summaries if "pairs weekly" in summary)
        assert "Jordan" not in text, batches


@pytest.mark.slow
def test_workers_and_batch_sizes_give_a_byte_identical_release(
    tmp_path: Path, parsing_privacy: tuple[ParsingRules, QualityRules, PrivacyRules]
) -> None:
    releases = []
    for jobs, batch_size in ((1, 500), (2, 3), (2, 7)):
        out = tmp_path / f"{jobs}-{batch_size}"
        settings = JobSettings(jobs=jobs, batch_size=batch_size, progress=False, min_per_worker=1)
        pipeline.run([str(SAMPLE)], out, pipeline.job_rules(), KEY, settings=settings)
        releases.append({path.name: path.read_bytes() for path in sorted(out.glob("*.parquet"))})
    assert releases[0] == releases[1] == releases[2]
    assert len(releases[0]) == 7  # the six tables of the contract and the text pass's terms


@pytest.fixture
def parsing_privacy(
    rules: ParsingRules, quality_rules: QualityRules, privacy_rules: PrivacyRules
) -> tuple[ParsingRules, QualityRules, PrivacyRules]:
    return rules, quality_rules, privacy_rules


@pytest.mark.slow
def test_a_person_whose_identifier_survives_is_suppressed_and_the_rest_released(
    tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    for path in sorted(SAMPLE.rglob("*.txt")):
        (inputs / path.name).write_bytes(path.read_bytes())
    leaky = TALENT.replace("at Kestrel Compute", "at Okonkwo-Reyes Compute")
    (inputs / "leaky.txt").write_text(leaky, encoding="utf-8")
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    policy = rules / "privacy.yaml"
    text = policy.read_text().replace("max_suppressed: 0.01", "max_suppressed: 0.1")
    # A policy that keeps the employer raw (no shape, so no search for the person's name in it):
    # verification is then what keeps the surname out.
    policy.write_text(text.replace("employer: keep:organisation", "employer: keep"))
    out = tmp_path / "release"
    assert main(["run", str(inputs), "--out", str(out), "--rules", str(rules)]) == 1
    report = json.loads((out / "report.json").read_text())
    assert report["verification"]["persons_suppressed"] == 1
    assert report["verification"]["suppressed"][0]["reason"] == "own_identifier"
    # everyone else is released, but for whom the risk pass suppressed
    assert pl.read_parquet(out / "profiles.parquet").height == 24 - report["risk"]["suppressed"]
    assert "Okonkwo" not in (out / "report.json").read_text()
    assert "leaky.txt" not in (out / "report.json").read_text()
    private = tmp_path / "release.private"
    suppressed = pl.read_parquet(private / "suppressed" / "profiles.parquet")
    assert suppressed["suppression_reason"].to_list() == ["own_identifier"]


@pytest.mark.parametrize(
    ("make_out", "message"),
    [
        (lambda tmp: Path("."), "current folder"),
        (lambda tmp: tmp / "in" / "release", "must not overlap"),
        (lambda tmp: tmp / "in", "must not overlap"),
    ],
    ids=["current-folder", "inside-the-input", "the-input"],
)
def test_outputs_that_would_overwrite_something_are_usage_errors(
    make_out: object, message: str, tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(TALENT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = make_out(tmp_path)  # type: ignore[operator]
    assert main(["run", str(tmp_path / "in"), "--out", str(out)]) == 2
    assert message in capsys.readouterr().err


def test_a_foreign_folder_is_never_replaced(
    tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my own notes")
    assert main(["run", str(FIXTURES), "--out", str(out)]) == 2
    assert "not an output of toolkit" in capsys.readouterr().err
    assert (out / "notes.txt").read_text() == "my own notes"


def _remove_deep(top: Path) -> None:
    """rmtree recurses per level: remove a very deep chain of folders from the bottom up instead."""
    levels = [top]
    while (levels[-1] / "d").is_dir():
        levels.append(levels[-1] / "d")
    for level in reversed(levels):
        for child in level.iterdir():
            if not child.is_dir():
                child.unlink()
        level.rmdir()


@pytest.mark.usefixtures("pseudonymize_only")
def test_file_names_that_are_not_utf8_and_very_deep_folders_are_read(
    tmp_path: Path, secret: str, request: pytest.FixtureRequest
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    request.addfinalizer(lambda: _remove_deep(inputs / "d"))
    deep = inputs
    for _ in range(1200):  # os.makedirs itself would recurse too deep
        deep = deep / "d"
        deep.mkdir()
    (deep / "deep.txt").write_text(TALENT, encoding="utf-8")
    with open(os.path.join(os.fsencode(inputs), b"caf\xe9.txt"), "wb") as handle:
        handle.write(
            TALENT.replace("Maribel Okonkwo-Reyes", "Ines Varga").replace("Maribel", "Ines").encode()
        )
    out = tmp_path / "release"
    assert main(["run", str(inputs), "--out", str(out)]) == 0
    assert pl.read_parquet(out / "profiles.parquet").height == 2
    sources = [item.source for item in iter_inputs([str(inputs)])]
    assert sources[0].endswith("caf\\xe9.txt")
    assert sources[1].endswith("/d/deep.txt")


@pytest.mark.usefixtures("pseudonymize_only")
def test_a_full_disk_ends_with_one_line_and_keeps_the_earlier_release(
    tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "release"
    assert main(["run", str(FIXTURES), "--out", str(out)]) == 0
    earlier = {path.name: path.read_bytes() for path in out.iterdir()}
    capsys.readouterr()
    write_parquet = pl.DataFrame.write_parquet
    calls = []

    def fills_up(frame: pl.DataFrame, path: Path, *args: object, **kwargs: object) -> None:
        calls.append(path)
        if len(calls) > 9:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        write_parquet(frame, path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pl.DataFrame, "write_parquet", fills_up)
    assert main(["run", str(FIXTURES), "--out", str(out)]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "No space left on device" in err[0]
    assert {path.name: path.read_bytes() for path in out.iterdir()} == earlier
    assert not [path for path in tmp_path.iterdir() if ".staging-" in path.name]


@pytest.mark.parametrize("where", ["environment", "key file"])
def test_a_secret_of_white_space_is_refused_from_either_source(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["run", str(FIXTURES), "--out", str(tmp_path / "r")]
    if where == "environment":
        monkeypatch.setenv("TOOLKIT_SECRET", " " * 16)
    else:
        monkeypatch.delenv("TOOLKIT_SECRET", raising=False)
        (tmp_path / "key").write_text(" " * 16 + "\n")
        args += ["--key-file", str(tmp_path / "key")]
    assert main(args) == 2
    assert "empty or only white space" in capsys.readouterr().err


def test_an_input_size_limit_beyond_reason_is_a_rules_error(
    tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    parsing = rules / "parsing.yaml"
    parsing.write_text(parsing.read_text().replace("max_input_bytes: 20000000", f"max_input_bytes: {2**70}"))
    assert main(["run", str(FIXTURES), "--out", str(tmp_path / "r"), "--rules", str(rules)]) == 2
    err = capsys.readouterr().err
    assert "parsing.yaml" in err
    assert "max_input_bytes" in err


def _job(out: Path, inputs: Path, errors: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TOOLKIT_SECRET": SECRET}
    with errors.open("wb") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "toolkit", "run", str(inputs), "--out", str(out), "--jobs", "2"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )


def _finished(out: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())} if out.exists() else {}


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_killed_job_leaves_the_earlier_release_whole(signum: int, tmp_path: Path, secret: str) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    for index in range(520):  # enough profiles for two workers
        path = SAMPLES[index % len(SAMPLES)]
        text = path.read_text(encoding="utf-8") + f"\n{index}\n"
        (inputs / f"{index:03d}-{path.name}").write_text(text, encoding="utf-8")
    out = tmp_path / "release"
    errors = tmp_path / "stderr"
    first = _job(out, inputs, errors)
    assert first.wait(timeout=300) in (0, 1)
    earlier = _finished(out)
    assert "report.json" in earlier
    for delay in (0.0, 1.0, 2.5, 4.0):
        job = _job(out, inputs, errors)
        started = time.monotonic()
        while (
            not [p for p in tmp_path.iterdir() if ".staging-" in p.name] and time.monotonic() - started < 60
        ):
            time.sleep(0.02)  # the job is under way once it has made its staging folders
        time.sleep(delay)
        job.send_signal(signum)
        code = job.wait(timeout=300)
        now = _finished(out)
        if code in (0, 1):  # it finished first: a whole new release (the same bytes: same input and key)
            assert now == earlier
        else:
            assert now == earlier, f"signal after {delay}s left a mix"
            if signum != signal.SIGKILL:
                assert code == 3
                lines = errors.read_text().strip().splitlines()
                assert len(lines) == 1, lines
                assert "interrupted" in lines[0]
        if signum != signal.SIGKILL:
            assert not [path for path in tmp_path.iterdir() if ".staging-" in path.name]


@pytest.mark.slow
@pytest.mark.usefixtures("pseudonymize_only")
def test_a_five_megabyte_line_is_scrubbed_whole(tmp_path: Path, secret: str) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    words = "the compiler team tuned kernels with Maribel for weeks and shipped fused passes "
    filler = (words * (5_000_000 // len(words) + 1))[:5_000_000]
    long_bio = TALENT.replace("practical engineering.", "practical engineering. " + filler)
    (inputs / "long.txt").write_text(long_bio, encoding="utf-8")
    out = tmp_path / "release"
    assert main(["run", str(inputs), "--out", str(out), "--jobs", "1"]) == 0
    summary = pl.read_parquet(out / "profiles.parquet")["summary"][0]
    assert len(summary) > 4_000_000
    assert "Maribel" not in summary


@pytest.mark.parametrize(
    ("parts", "distinct"),
    [
        ([], True),
        ([["a", "a", "b"], ["c"]], True),  # within a part, phrase_keys made the rows distinct already
        ([["a", "b"], ["b", "c"]], False),  # the same profile given twice: two batches
    ],
)
def test_phrases_are_distinct_when_no_person_is_in_two_parts(
    tmp_path: Path, parts: list[list[str]], distinct: bool
) -> None:
    (tmp_path / "phrases").mkdir()
    for number, ids in enumerate(parts):
        frame = pl.DataFrame({"profile_id": ids, "phrase": list(range(len(ids)))})
        frame.write_parquet(tmp_path / "phrases" / f"part-{number:06d}.parquet")
    assert staging.ids_in_several_batches(tmp_path, "phrases").is_empty() is distinct


def test_the_driver_loads_neither_pandera_nor_the_nlp_stack() -> None:
    """Validation and scrubbing run in the workers; the driver's memory is held through the whole job, so
    it imports what it needs only (pandera and pandas alone are about 60 MiB)."""
    code = (
        "import sys\n"
        "from toolkit import driver, pipeline\n"
        "from toolkit.kernels import released_schema\n"
        "rules = pipeline.job_rules()\n"
        "released_schema(rules.privacy)\n"
        "print(sorted(m for m in ('pandera', 'pandas', 'spacy', 'presidio_analyzer') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"

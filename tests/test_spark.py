"""The Spark engine (`toolkit.spark`): the command line's options, a failed task that comes back without its
message, and, on a real Spark at `local[2]`, a DataFrame of documents released as its files are, and
neither the key nor a personal value in Spark's event log, its UI or its output. (That the release is the local engine's is pinned in `test_release_pinned.py`.)"""

from __future__ import annotations

import base64
import json
import os
import pickle
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import pytest

from tests.conftest import require_spark
from tools.releases import different_tables, without_folders

if TYPE_CHECKING:
    from pyspark.sql import SparkSession
import toolkit
from toolkit import pipeline
from toolkit.cli import main
from toolkit.errors import Exit, JobFault, UsageError
from toolkit.executor import WorkerContext
from toolkit.job_config import JobRules, JobSettings
from toolkit.rules import load_parsing_rules
from toolkit.scrub import Keyring
from toolkit.spark import executor as spark_executor
from toolkit.spark import read_release
from toolkit.spark.executor import SparkExecutor, TaskFailed, run_task

REPO = Path(__file__).resolve().parent.parent
SECRET = "a Spark test secret 5e1d0c9b, long enough"
PLANTED = "Ingrid Vestergaard"
"""A fictional person's name that a failing task quotes in its error message."""


def _fails_quoting_a_name(context: WorkerContext, task: int) -> int:
    raise ValueError(f"could not place {PLANTED} (task {task})")


def _cannot_write(context: WorkerContext, task: int) -> int:
    raise PermissionError(13, "Permission denied", f"/data/{PLANTED}.parquet")


def _double(context: WorkerContext, task: int) -> int:
    return 2 * task


@pytest.mark.parametrize(
    ("work", "expected"),
    [
        (_double, 6),
        (
            _fails_quoting_a_name,
            TaskFailed("ValueError", f"test_spark.py:{_fails_quoting_a_name.__code__.co_firstlineno + 1}"),
        ),
        (_cannot_write, TaskFailed("Permission denied", "", os_error=True)),
    ],
    ids=["a result", "an error: its class and line only", "an OS error: its kind only"],
)
def test_a_task_returns_its_result_or_its_error_without_the_message(
    tmp_path: Path, work: Any, expected: object
) -> None:
    context = WorkerContext(
        JobRules(load_parsing_rules()), Keyring(SECRET.encode(), "TOOLKIT_SECRET"), tmp_path
    )
    found = run_task(context, pickle.dumps((work, 3)))
    assert found == expected
    assert PLANTED not in repr(found)


def test_master_needs_the_spark_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", str(REPO / "sample_data"), "--out", str(tmp_path / "out"), "--master", "local[2]"])
    assert code == Exit.USAGE
    assert "--master needs --engine spark" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_spark_engine_without_pyspark_is_one_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyspark", None)
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    code = main(["run", str(REPO / "sample_data"), "--out", str(tmp_path / "out"), "--engine", "spark"])
    assert code == Exit.USAGE
    assert 'pip install "toolkit[spark]"' in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_spark_that_cannot_start_is_one_usage_error(tmp_path: Path) -> None:
    pytest.importorskip("pyspark", reason="PySpark is not installed (pip install 'toolkit[spark]')")
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "run", "sample_data", "--out", str(tmp_path / "out"),
         "--engine", "spark", "--master", "local[2]"],
        cwd=REPO,
        env={**os.environ, "JAVA_HOME": str(tmp_path / "no-java"), "TOOLKIT_SECRET": SECRET},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == Exit.USAGE
    assert done.stderr.count("\n") == 1
    assert "Spark could not start" in done.stderr
    assert "is Java 17 installed?" in done.stderr
    assert not (tmp_path / "out").exists()


def _secret_forms(secret: str) -> list[str]:
    raw = secret.encode()
    return [secret, raw.hex(), base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode()]


def _personal_values() -> list[str]:
    """The names of the persons of `sample_data/`, as parsed."""
    profiles = pipeline.parse([str(REPO / "sample_data")], load_parsing_rules()).profiles
    names = profiles.get_column("name").drop_nulls().unique().to_list()
    assert len(names) > 10
    return [str(name) for name in names]


def _leaks(text: str) -> list[str]:
    return [value for value in [*_secret_forms(SECRET), *_personal_values(), PLANTED] if value in text]


@pytest.mark.slow
def test_the_job_on_spark_writes_neither_key_nor_personal_values_to_its_logs_or_event_log(
    tmp_path: Path,
) -> None:
    require_spark()
    events, conf = tmp_path / "events", tmp_path / "conf"
    events.mkdir()
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text(
        f"spark.eventLog.enabled true\nspark.eventLog.dir {events.as_uri()}\n"
        "spark.eventLog.compress false\n",  # plain JSON lines, to be searched
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "toolkit", "run", "sample_data", "--out", str(tmp_path / "release"),
         "--engine", "spark", "--master", "local[2]"],
        cwd=REPO,
        env={**os.environ, "TOOLKIT_SECRET": SECRET, "SPARK_CONF_DIR": str(conf)},
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == Exit.CLEAN, done.stderr
    assert done.stderr == ""
    logged = "".join(path.read_text(encoding="utf-8") for path in events.rglob("*") if path.is_file())
    assert "SparkListenerEnvironmentUpdate" in logged  # the environment the UI shows is in the event log
    assert "MapInArrow" in logged  # the kernels ran in Spark's Python workers
    assert _leaks(logged + done.stdout) == []
    report = json.loads((tmp_path / "release" / "report.json").read_text(encoding="utf-8"))
    assert report["privacy"]["key"]["linkable_across_runs"] is True


def _ui(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return str(response.read().decode("utf-8"))


@pytest.fixture(scope="module")
def session() -> Iterator[SparkSession]:
    """A session of the tests' own, as a notebook or `spark-submit` would hold: the job uses it, and
    leaves it running."""
    require_spark()
    from pyspark.sql import SparkSession

    saved = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    started = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "true")
        .config("spark.ui.port", "0")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    yield started
    started.stop()
    if saved is None:
        os.environ.pop("PYSPARK_PYTHON", None)
    else:
        os.environ["PYSPARK_PYTHON"] = saved


@pytest.mark.slow
def test_a_dataframe_of_documents_gives_the_release_of_the_same_files(
    tmp_path: Path, session: SparkSession
) -> None:
    from pyspark.sql import SparkSession

    documents = tmp_path / "documents"
    shutil.copytree(REPO / "sample_data", documents)
    for export in documents.glob("linkedin/export_0*"):  # a row is one input: an export comes zipped
        if export.is_dir():
            shutil.rmtree(export)
    local = toolkit.run(documents, tmp_path / "local", key=SECRET)
    frame = session.read.format("binaryFile").option("recursiveFileLookup", "true").load(str(documents))
    with pytest.raises(UsageError, match="needs engine='spark'"):
        toolkit.run(frame, tmp_path / "refused", key=SECRET)
    with pytest.raises(UsageError, match="no column content"):
        toolkit.run(frame.select("path"), tmp_path / "refused", key=SECRET, engine="spark")
    released = toolkit.run(frame, tmp_path / "spark", key=SECRET, engine="spark", batch_size=5)
    assert released["exit_code"] == local["exit_code"] == Exit.CLEAN
    assert without_folders(released) == without_folders(local)
    assert SparkSession.getActiveSession() is session  # the job left the session running
    assert different_tables(tmp_path / "local", tmp_path / "spark") == []
    for table, rows in read_release(tmp_path / "spark", session).items():
        found = pl.from_arrow(rows.toArrow())
        assert isinstance(found, pl.DataFrame)
        assert found.equals(pl.read_parquet(tmp_path / "spark" / f"{table}.parquet")), table


def _engines_loaded(context: WorkerContext, task: int) -> tuple[int, int]:
    """This worker's process, and how many NLP engines it has built so far."""
    from toolkit.scrub import scrubber_for
    from toolkit.scrub.engine import engine_for

    assert context.rules.privacy is not None
    scrubber_for(context.rules.privacy, context.keys)
    return os.getpid(), engine_for.cache_info().misses


@pytest.mark.slow
def test_a_python_worker_loads_the_nlp_engine_once_for_all_its_tasks(
    tmp_path: Path, session: SparkSession
) -> None:
    keys = Keyring(SECRET.encode(), "TOOLKIT_SECRET")
    with SparkExecutor(session, pipeline.job_rules(), keys, tmp_path) as executor:
        loaded = list(executor.map(_engines_loaded, range(8)))
    workers = {pid for pid, _ in loaded}
    assert len(workers) <= 2 < len(loaded)  # local[2]: two Python workers, reused
    assert {built for _, built in loaded} == {1}


@pytest.mark.slow
def test_tasks_come_back_in_order_and_spark_s_ui_shows_neither_key_nor_personal_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session: SparkSession
) -> None:
    from pyspark.sql import SparkSession

    monkeypatch.chdir(REPO)
    keys = Keyring(SECRET.encode(), "TOOLKIT_SECRET")
    settings = JobSettings(progress=False, engine="spark")
    pipeline.run(["sample_data"], tmp_path / "release", pipeline.job_rules(), keys, settings=settings)
    assert SparkSession.getActiveSession() is session  # a session the job did not start stays
    monkeypatch.setattr(spark_executor, "WAVE_BYTES", 1)  # a Spark job per task
    with SparkExecutor(session, JobRules(load_parsing_rules()), keys, tmp_path) as executor:
        assert list(executor.map(_double, range(5))) == [0, 2, 4, 6, 8]
    with (
        SparkExecutor(session, JobRules(load_parsing_rules()), keys, tmp_path) as executor,
        pytest.raises(JobFault, match=r"a Spark task failed: ValueError at test_spark\.py:\d+$") as failed,
    ):
        list(executor.map(_fails_quoting_a_name, range(2)))
    assert PLANTED not in str(failed.value)
    ui = session.sparkContext.uiWebUrl
    assert ui is not None
    app = json.loads(_ui(f"{ui}/api/v1/applications"))[0]["id"]
    pages = [
        _ui(f"{ui}/api/v1/applications/{app}/{page}")
        for page in ("environment", "jobs", "stages?details=true", "sql?details=true", "executors")
    ]
    assert "spark.master" in pages[0]
    assert _leaks("".join(pages)) == []

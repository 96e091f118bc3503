"""The release of `sample_data/` is pinned: a change to how the job is put together (its executor, staging,
passes) must leave every table, the report and the card as they were, with one worker or two, however
the work is cut into batches, and on Spark. When the release is meant to change, the failure gives the new digest to
write into `PINNED`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import require_spark
from toolkit import pipeline
from toolkit.job_config import JobSettings
from toolkit.scrub import Keyring
from tools.releases import without_folders

REPO = Path(__file__).parent.parent
PINNED = "dbd1fb8299ac8049252da750f3eae7c46885a696397a026e4b8af2ba65711ffb"
KEY = Keyring(b"a pinned release secret, long enough", "TOOLKIT_SECRET")


def _digest(*folders: Path) -> str:
    """Every file of `folders`: a table by its schema and rows in order (not its bytes: another Polars may
    write the same rows differently), a report without folder names, anything else as bytes."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(folder)).encode())
            if path.suffix == ".parquet":
                frame = pl.read_parquet(path)
                digest.update(str(frame.schema).encode() + frame.write_ndjson().encode())
            elif path.name == "report.json":
                report = without_folders(json.loads(path.read_text(encoding="utf-8")))
                digest.update(json.dumps(report, sort_keys=True).encode())
            else:
                digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize(
    "settings",
    [
        JobSettings(jobs=1, progress=False),
        JobSettings(jobs=2, batch_size=7, min_per_worker=1, progress=False),
        JobSettings(batch_size=7, min_per_worker=1, progress=False, engine="spark", master="local[2]"),
    ],
    ids=["one worker", "two workers, batches of 7", "spark local[2], batches of 7"],
)
def test_the_release_of_the_sample_data_is_pinned(
    tmp_path: Path, settings: JobSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    if settings.engine == "spark":
        require_spark()
    monkeypatch.chdir(REPO)  # the private folder names the inputs as given: relative, so anywhere alike
    out = tmp_path / "release"
    pipeline.run(["sample_data"], out, pipeline.job_rules(), KEY, settings=settings)
    found = _digest(out, tmp_path / "release.private")
    assert found == PINNED, f"the release of sample_data changed; if that is meant, pin {found}"

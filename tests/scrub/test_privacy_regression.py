"""A small version of benchmarks/privacy_eval.py as a regression guard: fictional profiles with planted
identifiers, the whole job, and what survives. The full evaluation runs hundreds of documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.privacy_eval import evaluate
from toolkit.cli import main
from tools.profiles import documents, write


@pytest.mark.usefixtures("pseudonymize_only")  # the scrubber's work, before the risk pass coarsens
@pytest.mark.parametrize("seed", [31, 32])
def test_no_planted_identifier_survives_and_technical_words_do(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLKIT_SECRET", "a regression secret, long enough")
    docs = documents(20, seed=seed)
    folder = write(tmp_path, docs)  # tmp_path/docs/docNNNN.txt, and truth.jsonl beside the folder
    assert main(["run", str(folder), "--out", str(tmp_path / "release")]) == 0
    metrics = evaluate(tmp_path / "release", docs)
    assert metrics.identifiers_surviving == []
    assert metrics.others_rate <= 0.01
    assert metrics.technical_rate >= 0.95

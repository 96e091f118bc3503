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


@pytest.mark.slow
@pytest.mark.parametrize("code", EXAMPLES)
def test_readme_python_example_runs(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.strip().splitlines()[-1] == "make test"
    assert "make test" in README
    assert "make run" in README


@pytest.mark.slow
def test_the_wheel_carries_the_rules_the_templates_and_the_command(tmp_path: Path) -> None:
    import subprocess
    import sys
    import zipfile

    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(REPO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("toolkit-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for packaged in ("toolkit/_rules/privacy.yaml", "toolkit/templates/card.md.j2", "toolkit/py.typed"):
        assert packaged in names
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "toolkit = toolkit.cli:entry" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_make_run_installs_what_the_job_needs_and_not_the_dev_tools() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    run_target = re.search(r"^run: (\S+)$", makefile, flags=re.MULTILINE)
    assert run_target is not None
    stamp = run_target.group(1)
    recipe = re.search(rf"^{re.escape(stamp)}:.*\n((?:\t.*\n)+)", makefile, flags=re.MULTILINE)
    assert recipe is not None
    assert "pip install --quiet -e ." in recipe.group(1)
    assert "[dev]" not in recipe.group(1)
    assert "pycanon" not in recipe.group(1)

"""The real pre-commit, in a new git repository, using this repository's `scan-pii` and `lint-rules` hooks.

pre-commit clones this repository and installs it into its own environment (the first run of a revision
takes a few minutes; later runs reuse it), so the hooks are tested exactly as a user gets them. A clean
work tree (CI's clone) is installed at HEAD; a work tree with changes is first copied into a repository of
its own and committed there, as `pre-commit try-repo` does, so that what is tested is what is here. This
repository's own git state is only read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent
_ENV = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
        "GIT_OPTIONAL_LOCKS": "0"}  # fmt: skip


def _run(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **_ENV}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=check)


def _hooks_source(tmp_path: Path) -> tuple[Path, str]:
    """The repository pre-commit installs the hooks from, and the revision."""
    if not _run("git", "status", "--porcelain", cwd=REPO).stdout.strip():
        return REPO.resolve(), _run("git", "rev-parse", "HEAD", cwd=REPO).stdout.strip()
    shadow = tmp_path / "toolkit"
    listed = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=REPO).stdout
    for name in filter(None, listed.split("\0")):
        if (REPO / name).is_file():
            (shadow / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, shadow / name)
    _run("git", "init", "-q", cwd=shadow)
    _run("git", "add", "-A", cwd=shadow)
    _run("git", "commit", "-q", "-m", "the work tree", cwd=shadow)
    return shadow, _run("git", "rev-parse", "HEAD", cwd=shadow).stdout.strip()


@pytest.mark.slow
def test_the_hooks_block_personal_data_and_read_the_repositorys_rules(tmp_path: Path) -> None:
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or "pre-commit"
    source, rev = _hooks_source(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    _run("git", "init", "-q", cwd=data)
    (data / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {source}\n    rev: {rev}\n    hooks:\n      - id: scan-pii\n      - id: accept-pii\n"
        "      - id: lint-rules\n"
    )
    _run(pre_commit, "install", cwd=data)
    _run("git", "add", ".pre-commit-config.yaml", cwd=data)
    _run("git", "commit", "-q", "-m", "config", cwd=data)

    (data / "skills.csv").write_text("skill,score\npython,9\nxla,10\n")
    _run("git", "add", "skills.csv", cwd=data)
    clean = _run("git", "commit", "-q", "-m", "clean data", cwd=data, check=False)
    assert clean.returncode == 0, clean.stdout + clean.stderr

    (data / "people.csv").write_text("name;email\nAda;ada.byron@example.org\n")
    _run("git", "add", "people.csv", cwd=data)
    blocked = _run("git", "commit", "-q", "-m", "personal data", cwd=data, check=False)
    output = blocked.stdout + blocked.stderr  # git shows the hook's output on its stderr
    assert blocked.returncode != 0
    assert "people.csv:1:email: EMAIL_ADDRESS (" in output
    assert "personal data found: 1 finding in 1 file" in output
    assert "pre-commit run accept-pii --hook-stage manual --files people.csv" in output
    assert "ada.byron" not in output
    assert _run("git", "log", "--oneline", cwd=data).stdout.count("\n") == 2

    # the next step the failure names, run as it says, accepts a value that is no one's
    _run("git", "reset", "-q", "people.csv", cwd=data)
    (data / "office.csv").write_text("desk,phone\nfront,+44 20 7946 0000\n")
    _run("git", "add", "office.csv", cwd=data)
    office = _run("git", "commit", "-q", "-m", "office", cwd=data, check=False)
    assert office.returncode != 0
    step = "pre-commit run accept-pii --hook-stage manual --files office.csv"
    assert step in office.stdout + office.stderr
    _run(*step.replace("pre-commit", pre_commit, 1).split(), cwd=data)
    _run("git", "add", "office.csv", ".pii-baseline.json", cwd=data)
    accepted_office = _run("git", "commit", "-q", "-m", "office", cwd=data, check=False)
    assert accepted_office.returncode == 0, accepted_office.stdout + accepted_office.stderr

    # the repository's own rules/ accepts the address: scan-pii reads it, and lint-rules lints it
    shutil.copytree(REPO / "rules", data / "rules")
    allowed = data / "rules" / "vocabularies" / "allowed_values.yaml"
    allowed.write_text(allowed.read_text(encoding="utf-8") + "  - ada.byron@example.org\n", encoding="utf-8")
    _run("git", "add", "rules", "people.csv", cwd=data)
    accepted = _run("git", "commit", "-q", "-m", "our rules", cwd=data, check=False)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr

    quality = data / "rules" / "quality.yaml"
    quality.write_text(
        quality.read_text(encoding="utf-8").replace("    severity: error\n", "    severty: error\n", 1),
        encoding="utf-8",
    )
    _run("git", "add", "rules/quality.yaml", cwd=data)
    typo = _run("git", "commit", "-q", "-m", "a typo", cwd=data, check=False)
    assert typo.returncode != 0
    assert "rules/quality.yaml: rules.0.sever" in typo.stdout + typo.stderr

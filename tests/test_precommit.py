"""The real pre-commit, in a new git repository, using this repository's `scan-pii` hook.

pre-commit clones this repository at HEAD and installs it into its own environment (the first run takes a
few minutes; later runs reuse it), so the hook is tested exactly as a user gets it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parent.parent


def _run(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com"}  # fmt: skip
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=check)


def test_scan_pii_blocks_a_commit_with_personal_data_and_passes_a_clean_one(tmp_path: Path) -> None:
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or "pre-commit"
    head = _run("git", "rev-parse", "HEAD", cwd=REPO).stdout.strip()
    data = tmp_path / "data"
    data.mkdir()
    _run("git", "init", "-q", cwd=data)
    (data / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO.resolve()}\n    rev: {head}\n    hooks:\n      - id: scan-pii\n"
    )
    _run(pre_commit, "install", cwd=data)
    _run("git", "add", ".pre-commit-config.yaml", cwd=data)
    _run("git", "commit", "-q", "-m", "config", cwd=data)

    (data / "skills.csv").write_text("skill,score\npython,9\nxla,10\n")
    _run("git", "add", "skills.csv", cwd=data)
    clean = _run("git", "commit", "-q", "-m", "clean data", cwd=data, check=False)
    assert clean.returncode == 0, clean.stdout + clean.stderr

    (data / "people.csv").write_text("name,email\nAda,ada.byron@example.org\n")
    _run("git", "add", "people.csv", cwd=data)
    blocked = _run("git", "commit", "-q", "-m", "personal data", cwd=data, check=False)
    output = blocked.stdout + blocked.stderr  # git shows the hook's output on its stderr
    assert blocked.returncode != 0
    assert "people.csv:1:email: EMAIL_ADDRESS (" in output
    assert "ada.byron" not in output
    assert _run("git", "log", "--oneline", cwd=data).stdout.count("\n") == 2

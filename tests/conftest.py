from __future__ import annotations

import pytest

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

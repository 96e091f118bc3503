from __future__ import annotations

import pytest

from toolkit.rules import ParsingRules, QualityRules, load_parsing_rules, load_quality_rules


@pytest.fixture(scope="session")
def rules() -> ParsingRules:
    return load_parsing_rules()


@pytest.fixture(scope="session")
def quality_rules() -> QualityRules:
    return load_quality_rules()

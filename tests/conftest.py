from __future__ import annotations

import pytest

from toolkit.rules import ParsingRules, load_parsing_rules


@pytest.fixture(scope="session")
def rules() -> ParsingRules:
    return load_parsing_rules()

"""Parse, validate and anonymize developer-profile datasets so they are safe to share.

The public API is what `__all__` lists; everything else may change without notice.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from toolkit._version import __version__
from toolkit.errors import RejectReason, RulesError, ToolkitError, UsageError
from toolkit.model import TABLE_SCHEMAS, ProfileSet
from toolkit.parse import parse_paths
from toolkit.rules import load_parsing_rules

__all__ = [
    "TABLE_SCHEMAS",
    "ProfileSet",
    "RejectReason",
    "RulesError",
    "ToolkitError",
    "UsageError",
    "__version__",
    "parse",
]


def parse(paths: Iterable[str | Path], rules_dir: Path | None = None) -> ProfileSet:
    """Parse files and folders (recursively) into the contract's tables.

    Bad inputs never raise: each becomes a row of `rejects` with a stable reason code. Raises `RulesError`
    only when the rules folder itself is broken.
    """
    return parse_paths([str(path) for path in paths], load_parsing_rules(rules_dir))

"""Whether a kept value looks like what its column holds (`shapes` in `rules/privacy.yaml`).

A parser that misplaces a line puts it in a column whose shape it lacks ("Lives at 12 Rue ..." as an
institution, "Signal: quietkoala77" as a degree); such a value is scrubbed as free text instead of kept.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import regex

from toolkit.rules import PrivacyRules, Shape
from toolkit.text import fold

_WORDS = regex.compile(r"[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*")


def shape_test(name: str, rules: PrivacyRules) -> Callable[[str], bool]:
    """A test of one value against the shape `name` of the rules (cached per value)."""
    shape: Shape = rules.policy.shapes[name]
    terms = rules.shape_terms.get(name, frozenset())
    if shape.known:
        return lambda value: fold(value) in terms
    if shape.words:
        allowed = rules.allow_list

        def every_word(value: str) -> bool:
            words = _WORDS.findall(fold(value))
            return bool(words) and all(word in terms or word in allowed for word in words)

        return lru_cache(maxsize=1 << 14)(every_word)
    assert shape.pattern is not None
    pattern = regex.compile(shape.pattern)
    return lru_cache(maxsize=1 << 14)(lambda value: pattern.fullmatch(value) is not None)


def shown_as_is(rules: PrivacyRules) -> Callable[[str, str, object], bool]:
    """Whether a report may show a value of (table, column) as it is, unmasked: only where the policy
    keeps the column (a `keep` column holds the toolkit's labels and counts; a `keep:<shape>` column only
    while the value, or every item of a list, has its shape). Anything else may be personal."""
    tests: dict[tuple[str, str], Callable[[str], bool] | None] = {}

    def test(table: str, column: str) -> Callable[[str], bool] | None:
        if (table, column) not in tests:
            columns = rules.policy.tables.get(table, {})  # type: ignore[call-overload]
            policy = rules.policy.column(table, column) if column in columns else None
            kept = policy is not None and policy.action == "keep"
            if not kept:
                tests[table, column] = None
            elif policy is not None and policy.shape is not None:
                tests[table, column] = shape_test(policy.shape, rules)
            else:
                tests[table, column] = lambda _: True
        return tests[table, column]

    def shown(table: str, column: str, value: object) -> bool:
        has_shape = test(table, column)
        if has_shape is None:
            return False
        items = value if isinstance(value, list) else [value]
        return all(item is None or has_shape(str(item)) for item in items)

    return shown

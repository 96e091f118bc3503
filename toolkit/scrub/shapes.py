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

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


def shape_test(name: str, rules: PrivacyRules) -> Callable[[str], bool]:
    """A test of one value against the shape `name` of the rules (cached per value)."""
    shape: Shape = rules.policy.shapes[name]
    if shape.known:
        terms = rules.shape_terms[name]
        return lambda value: fold(value) in terms
    assert shape.pattern is not None
    pattern = regex.compile(shape.pattern)
    return lru_cache(maxsize=1 << 14)(lambda value: pattern.fullmatch(value) is not None)

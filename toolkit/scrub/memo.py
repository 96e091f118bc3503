"""What the engine found in the texts it read most recently, for texts that recur across batches.

The same text comes back across persons and batches (a popular repository's description, a shared
course name), and what the recognizers and NER find in a text depends on the text alone. A worker keeps
the findings of the texts it read last, within a bound on their characters, so its memory does not grow
with the job (`toolkit.memory`: the caches of words are emptied after each task, as their hits stay within
a batch; whole texts recur across batches).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

_V = TypeVar("_V")

MEMO_CHARACTERS = 1 << 21
"""The most characters of text a memo keeps the findings of (2 MiB of text: about 20,000 profile texts)."""
LONGEST_REMEMBERED = 2_000
"""A text longer than this is not kept: long texts seldom recur whole."""


class TextMemo(Generic[_V]):
    """Values of a function of a text alone, for the texts asked for most recently."""

    def __init__(self, characters: int = MEMO_CHARACTERS, longest: int = LONGEST_REMEMBERED) -> None:
        self.characters = characters
        self.longest = longest
        self.held = 0
        """Characters of the texts kept."""
        self._values: OrderedDict[str, tuple[_V, ...]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._values)

    def forget(self) -> None:
        """Let go of every text kept."""
        self._values.clear()
        self.held = 0

    def each(self, texts: Sequence[str], find: Callable[[list[str]], list[list[_V]]]) -> list[list[_V]]:
        """`find(texts)`, in order, each a new list: `find` is called once, on the texts not kept (each
        once), and what it returns is kept for the texts short enough, the least recently asked let go."""
        values = self._values
        missing = [text for text in dict.fromkeys(texts) if text not in values]
        found = dict(zip(missing, (tuple(v) for v in find(missing)), strict=True)) if missing else {}
        result = []
        for text in texts:
            if text in found:
                result.append(list(found[text]))
            else:
                values.move_to_end(text)
                result.append(list(values[text]))
        for text, value in found.items():
            if len(text) <= self.longest:
                values[text] = value
                self.held += len(text)
        while self.held > self.characters:
            text, _ = values.popitem(last=False)
            self.held -= len(text)
        return result

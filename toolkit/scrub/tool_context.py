"""Whether a word NER took for a person or a place is, by what is written around it, part of a tool.

Two contexts, each read within the line of the word:
- a tool's name written across it: the word and its neighbours form an allowed term ('GitLab CI' of
  'CI', 'Power BI' of 'BI', 'Unreal Engine 5' of 'Engine');
- a list of tools it is an item of: most of the other items of its line are tools ('Testing: Espresso,
  XCTest, Detox, Mockito, MockK' makes 'Mockito' one).
"""

from __future__ import annotations

from collections.abc import Callable, Container

import regex

from toolkit.text import fold

_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}+#.&'\u2019-]*")
_NOT_IN_A_NAME = regex.compile(r"[,;|/:()\[\]\u00b7\u2022\u25aa\u25e6\u2023\u2219\"]")
"""What separates a tool's name from the words around it."""
_ITEM_SEPARATOR = regex.compile(r"[^\S\n]*[,;|/\u00b7\u2022\u25aa\u25e6\u2023\u2219][^\S\n]*")
_LABEL = regex.compile(r"^[^:\n]{1,40}:[^\S\n]*")
"""A line's label before its items ('Observability: ', 'Testowanie: ')."""
_NEIGHBOURS = 2
_FEWEST_ITEMS = 3
_FEWEST_TOOLS = 2
_MOST_ITEM_WORDS = 3


def _line(text: str, start: int, end: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return line_start, len(text) if line_end < 0 else line_end


def in_tool_name(text: str, start: int, end: int, allow_list: Container[str]) -> bool:
    """text[start:end] with up to two words before or after it (on its line, with nothing but spaces
    between) is an allowed term."""
    line_start, line_end = _line(text, start, end)
    head = text[line_start:start]
    tail = text[end:line_end]
    cut = max((m.end() for m in _NOT_IN_A_NAME.finditer(head)), default=0)
    before = _WORD.findall(head[cut:])[-_NEIGHBOURS:]
    stop = _NOT_IN_A_NAME.search(tail)
    after = _WORD.findall(tail[: stop.start() if stop is not None else len(tail)])[:_NEIGHBOURS]
    if head[cut:] and not head.endswith((" ", "\u00a0")):
        before = []  # glued to the word before: not a separate word
    value = text[start:end]
    for taken_before in range(len(before) + 1):
        for taken_after in range(len(after) + 1):
            if taken_before == taken_after == 0:
                continue
            words = [*before[len(before) - taken_before :], value, *after[:taken_after]]
            if fold(" ".join(words)) in allow_list:
                return True
    return False


def in_tool_list(text: str, start: int, end: int, is_tool: Callable[[str], bool], share: float) -> bool:
    """text[start:end] is a whole item of a list of at least three items on its line, and at least
    `share` of the other items, and two at least, are tools (`is_tool`)."""
    line_start, line_end = _line(text, start, end)
    line = text[line_start:line_end]
    label = _LABEL.match(line)
    offset = line_start + (label.end() if label is not None else 0)
    items: list[tuple[int, int]] = []
    last = offset
    for separator in _ITEM_SEPARATOR.finditer(text, offset, line_end):
        items.append((last, separator.start()))
        last = separator.end()
    items.append((last, line_end))
    items = [(a, b) for a, b in items if text[a:b].strip()]
    if len(items) < _FEWEST_ITEMS:
        return False
    own = [(a, b) for a, b in items if a <= start and end <= b]
    if not own:
        return False
    item = text[own[0][0] : own[0][1]].strip()
    if item != text[start:end] and len(_WORD.findall(item)) > _MOST_ITEM_WORDS:
        return False
    others = [text[a:b].strip() for a, b in items if (a, b) != own[0]]
    return sum(1 for other in others if is_tool(other)) >= max(_FEWEST_TOOLS, share * len(others))

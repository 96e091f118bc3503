"""The engine keeps what it found in the texts it read lately: a recurring text is read once, the values
are those of reading it again, and what is kept stays within its bound."""

from __future__ import annotations

from toolkit.scrub.memo import TextMemo
from toolkit.scrub.text import TextScrubber


class _Lengths:
    """A find that says each text's length, and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    def __call__(self, texts: list[str]) -> list[list[int]]:
        self.asked.append(texts)
        return [[len(text)] for text in texts]


def test_a_text_is_found_once_and_then_remembered() -> None:
    memo: TextMemo[int] = TextMemo()
    find = _Lengths()
    assert memo.each(["ab", "abc", "ab"], find) == [[2], [3], [2]]
    assert memo.each(["abc", "abcd"], find) == [[3], [4]]
    assert find.asked == [["ab", "abc"], ["abcd"]]
    assert memo.each([], find) == []
    assert len(find.asked) == 2


def test_what_a_caller_does_to_a_result_is_not_remembered() -> None:
    memo: TextMemo[int] = TextMemo()
    find = _Lengths()
    memo.each(["ab"], find)[0].append(99)
    assert memo.each(["ab"], find) == [[2]]


def test_the_least_recently_asked_texts_go_past_the_bound() -> None:
    memo: TextMemo[int] = TextMemo(characters=6, longest=4)
    find = _Lengths()
    memo.each(["aa", "bb", "cc"], find)
    memo.each(["aa"], find)  # asked again: now the most recent
    memo.each(["dd"], find)  # 8 characters: 'bb' goes
    assert memo.held <= 6
    assert len(memo) == 3
    memo.each(["aa", "cc", "dd", "bb"], find)
    assert find.asked[-1] == ["bb"]
    memo.each(["eeeee"], find)  # longer than `longest`: found, not kept
    memo.each(["eeeee"], find)
    assert find.asked[-2:] == [["eeeee"], ["eeeee"]]
    memo.forget()
    assert len(memo) == 0
    assert memo.held == 0


def test_the_engine_finds_the_same_in_a_text_read_again(scrubber: TextScrubber) -> None:
    engine = scrubber.engine
    texts = ["Paired with Odalys Fairweather on the parser.", "Call +44 20 7946 0958 after six."]
    engine.forget()
    first = engine.analyze(texts)
    assert first == engine.analyze(texts)
    assert any(first)
    engine.forget()
    assert engine.analyze(texts) == first

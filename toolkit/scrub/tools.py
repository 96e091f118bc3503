"""The tests behind the span filters (`toolkit.scrub.filters`): whether words name a tool, judged by the
words themselves (allowed terms, words written as software, names of products, English words) and by what
is written around them (a tool's name across them, a list of tools they are an item of)."""

from __future__ import annotations

from collections.abc import Callable, Container

import regex

from toolkit.scrub.spans import Span
from toolkit.text import fold

_WORD_SPLIT = str.maketrans({"-": " ", "/": " ", "(": " ", ")": " ", ",": " "})


def is_allowed(text: str, allow_list: Container[str], everyday: Container[str] = frozenset()) -> bool:
    """A phrase of allowed words ('XLA compiler team' is not, 'Computer Science' is); with `everyday`, of
    allowed or everyday words ('XLA compiler team' is, 'Research Traineeship' is)."""
    folded = fold(text)
    if folded in allow_list:
        return True
    words = folded.translate(_WORD_SPLIT).split()
    return bool(words) and all(word in allow_list or word in everyday for word in words)


_DIGIT = regex.compile(r"\d")
_SOFTWARE_ITEM = regex.compile(r"\p{L}\d|\d\p{L}(?<!\d(?:st|nd|rd|th))")
"""A word with letters and digits together ('Radare2', 'x64dbg', 'S3'), which no name has."""
_PLAIN_ITEM = regex.compile(r"[\p{L}\p{N}+#-]+(?: [\p{L}\p{N}+#.-]+)?")
"""An item of one or two words, no contact ('ada@…', 'github.com/ada2')."""
_LOWER_CASE_WORD = regex.compile(r"\p{Ll}[\p{Ll}\p{N}.+#-]*")
_ONE_WORD = regex.compile(r"\p{Lu}[\p{L}\p{N}]+")
"""A capitalised word alone."""
_LIST_JOINER = (
    r"(?:[^\S\n\r]*[,;|/\u00b7\u2022][^\S\n\r]*|[^\S\n\r]+"
    r"(?:and|or|&|e|i|y|und|oder|et|ou|ve|veya|oraz|och|og|en|o|puis|then|dan|và|és|ja|și|и|или|και)"
    r"[^\S\n\r]+)"
)
"""What joins the items of a list, in several languages: ', ', ' | ', ' · ', '/', ' and ', ' dan '."""
_TOOL_BEFORE = regex.compile(r"(?<![\p{L}\p{N}])(\p{L}[\p{L}\p{N}+#]*)" + _LIST_JOINER + r"\Z")
_LOOK_BACK = 60
"""How far before a word its neighbour in a list is looked for."""
_TOOL_AFTER = regex.compile(_LIST_JOINER + r"(\p{L}[\p{L}\p{N}+#]*)(?![\p{L}\p{N}])")
_ANY_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}+#]*")


def named_by_allowed_words(
    text: str,
    allow_list: Container[str],
    everyday: Container[str],
    given_names: Container[str] | None = None,
) -> bool:
    """`is_allowed`, or every capitalised word is allowed or everyday and the others are in lower case: the
    articles and prepositions of other languages between tools are no names ('Android de Java', 'Java ve
    Hibernate', "RabbitMQ'dan Kafka'ya", 'Jira | Scrum'). A span of lower-case words alone is not. Numbers
    are no words of a name ('Java 8', 'ISO 27001'). With `given_names`, a word written as software is
    (`written_as_software`: 'PySpark', 'SAP MM', 'STM32')."""
    if is_allowed(text, allow_list, everyday):
        return True
    capitalised = [word for word in _ANY_WORD.findall(text) if not word.islower() and not word.isdigit()]
    return bool(capitalised) and all(
        fold(w) in allow_list
        or fold(w) in everyday
        or (given_names is not None and written_as_software(w, given_names))
        for w in capitalised
    )


_NAME_PREFIXES = frozenset(
    {"mc", "mac", "de", "di", "da", "du", "la", "le", "lo", "van", "von", "fitz", "st", "o"}
)
_CAMEL_HUMP = regex.compile(r"\p{Ll}(?=\p{Lu})")
_LEADING_CAPITALS = regex.compile(r"\p{Lu}{2,}\p{Ll}")
_NO_VOWEL_ACRONYM = regex.compile(r"[B-DF-HJ-NP-TV-XZ]{2,5}")
_CAPITALS_AND_DIGITS = regex.compile(r"(?=[A-Z]*\d)(?=\d*[A-Z]{2})[A-Z\d]{3,8}")


def written_as_software(word: str, given_names: Container[str]) -> bool:
    """A word spelt the way software is named and people are not: a capital inside it after a small letter
    ('PySpark', 'WebDriver', 'FortiGate', 'mbedTLS'), unless what comes before is a name prefix or a given
    name ('McKenzie', 'DaVinci', 'MartaK'); two capitals before small letters ('RSpec'); capitals without a
    vowel ('MM', 'DSS', 'QML'); two capitals or more with digits ('STM32', 'EC2'; not 'E891', a box)."""
    hump = _CAMEL_HUMP.search(word)
    if hump is not None:
        before = word[: hump.end()]
        return before.lower() not in _NAME_PREFIXES and before.title() not in given_names
    return bool(
        _LEADING_CAPITALS.match(word)
        or _NO_VOWEL_ACRONYM.fullmatch(word)
        or _CAPITALS_AND_DIGITS.fullmatch(word)
    )


def given_name_first(value: str, first_names: Container[str]) -> bool:
    """Two capitalised words of which the first is a given name ('Maria Python', 'Ruby Spark'): a person
    even when both words are technical ones."""
    words = value.split()
    return len(words) == 2 and words[1][:1].isupper() and words[0] in first_names


class ToolJudge:
    """The vocabularies a judgement needs; the allow-list is given per call, since a record may allow
    its own technical words."""

    def __init__(
        self,
        common_words: Container[str],
        first_names: Container[str],
        given_names: Container[str],
        english: Container[str],
        product_words: Container[str] = frozenset(),
        vendors: Container[str] = frozenset(),
    ) -> None:
        self.common_words = common_words
        self.first_names = first_names
        self.given_names = given_names
        """Every given name known, those that are also technical words ('Julia') included."""
        self.english = english
        self.product_words = product_words
        self.vendors = vendors

    def named_as_product(self, value: str, allow_list: Container[str]) -> bool:
        """Several words that name a product, not a person or a place: none of them is a given name, and
        the last says what kind of product it is ('Katalon Studio', 'Windows Server'), or the first is a
        vendor ('Amazon Redshift') or an allowed word in capitals ('SAP Ariba'), or the first is a tool
        that is no everyday word and the others are tools or English words ('Apache Pinot'; not 'Spring
        Valley', nor 'Django Mwale')."""
        words = [word for word in _ANY_WORD.findall(value) if not word.isdigit()]
        if len(words) < 2 or any(word.title() in self.given_names for word in words):
            return False
        first, last = fold(words[0]), fold(words[-1])
        if last in self.product_words or first in self.vendors:
            return True
        if len(first) < 2 or first not in allow_list:
            return False
        if words[0].isupper() and not any(_DIGIT.search(word) for word in words[1:]):
            return True  # in capitals before words: 'SAP Ariba', 'AWS Fargate' (not 'KLM 47F', a plate)
        # A tool's name first and a word like a surname after it is someone ('Django Mwale', 'Germán
        # Colque'): the words after it must be tools or English words ('Apache Pinot').
        rest = " ".join(words[1:])
        return first not in self.common_words and (
            named_by_allowed_words(rest, allow_list, (), self.first_names)
            or all(fold(word) in self.english for word in words[1:])
        )

    def holds_given_name(self, value: str) -> bool:
        """Whether a word of `value` is a given name (those that are technical words too included)."""
        return any(word.title() in self.given_names for word in _ANY_WORD.findall(value))

    def is_tool_item(self, item: str, allow_list: Container[str], shapes: bool = True) -> bool:
        """An item of a list that is a tool: allowed words that are not all everyday ones, or (with
        `shapes`) one or two words with letters and digits together ('Radare2', 'x64dbg') or a word in
        lower case that is no English word ('osquery')."""
        if (
            shapes
            and _PLAIN_ITEM.fullmatch(item)
            and (
                _SOFTWARE_ITEM.search(item)
                or (_LOWER_CASE_WORD.fullmatch(item) and fold(item) not in self.english)
            )
        ):
            return True
        return named_by_allowed_words(item, allow_list, (), self.first_names) and not is_allowed(
            item, self.common_words
        )

    def named_by_english_words(self, value: str, allow_list: Container[str]) -> bool:
        """Several words, each an English word and none a given name, one of them everyday or allowed:
        a product or a job, not a person ('Power Pivot', 'Control Tower'; not 'Dean Chase', whose first
        word is a given name, nor 'Brannagh Moss', whose is no English word)."""
        words = [word for word in _ANY_WORD.findall(value) if not word.isdigit()]
        folded = [fold(word) for word in words]
        return (
            len(words) >= 2
            and not any(word.title() in self.given_names for word in words)
            and all(word in self.english for word in folded)
            and any(word in self.common_words or word in allow_list for word in folded)
        )

    def among_tools(self, span: Span, text: str, allow_list: Container[str], both: bool = False) -> bool:
        """A single word listed with a tool ('Wireshark and Zeek', 'Jira puis Zephyron', 'TRACE32,
        Polyspace') is a tool too, not a person: its neighbour in the list is an allowed word that is not
        an everyday one, or a word written as software. A possessive after it ('Kafka and Marzieh's
        benchmarks') keeps it a name. With `both`, for places, it needs a tool on each side ('Grafana,
        Loki, Kubernetes'): a town listed after a tool ('Kubernetes, Berlin') is still replaced."""
        value = text[span.start : span.end]
        if not _ONE_WORD.fullmatch(value) or text.startswith(("'s", "\u2019s"), span.end):
            return False
        before = _TOOL_BEFORE.search(text, max(0, span.start - _LOOK_BACK), span.start)
        after = _TOOL_AFTER.match(text, span.end)
        tools = [
            match is not None
            and len(word := fold(match.group(1))) >= 2
            and (
                (word in allow_list and word not in self.common_words)
                or written_as_software(match.group(1), self.first_names)
            )
            for match in (before, after)
        ]
        return all(tools) if both else any(tools)


_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}+#.&'\u2019-]*")
_NOT_IN_A_NAME = regex.compile(r"[,;|/:()\[\]\u00b7\u2022\u25aa\u25e6\u2023\u2219\"]")
"""What separates a tool's name from the words around it."""
_ITEM_SEPARATOR = regex.compile(r"[^\S\n]*[,;|/\u00b7\u2022\u25aa\u25e6\u2023\u2219][^\S\n]*")
_LABEL = regex.compile(r"[^:\n]{1,40}:[^\S\n]*")
"""A line's label before its items ('Observability: ', 'Testowanie: ')."""
_NEIGHBOURS = 2
_FEWEST_ITEMS = 3
_FEWEST_TOOLS = 2
_MOST_ITEM_WORDS = 3


def _line(text: str, start: int, end: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return line_start, len(text) if line_end < 0 else line_end


def _items(text: str, line_start: int, line_end: int) -> list[tuple[int, int]]:
    """The ranges of the items of a line (after its label), cut at list separators."""
    label = _LABEL.match(text, line_start, line_end)
    last = label.end() if label is not None else line_start
    items: list[tuple[int, int]] = []
    for separator in _ITEM_SEPARATOR.finditer(text, last, line_end):
        items.append((last, separator.start()))
        last = separator.end()
    items.append((last, line_end))
    return [(a, b) for a, b in items if text[a:b].strip()]


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
    """text[start:end] is an item of a list of at least three items on its line, or lies inside one of at
    most three words ('Zeek' of 'Zeek IDS'), and at least `share` of the other items, and two at least,
    are tools (`is_tool`)."""
    items = _items(text, *_line(text, start, end))
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

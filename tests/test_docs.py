"""The README and the pages of docs/ stay true to the code, so they cannot rot.

What is checked, in README.md, CHANGELOG.md and docs/*.md:

- Links: every relative Markdown link leads to a file or folder of the repository, and a `#fragment` names
  a heading of the Markdown file it points to (slugged as GitHub slugs headings). Every page of docs/ is
  linked from the README.
- Python: every fenced ```python block compiles. A block is *self-contained* when the line just before
  its fence is the HTML comment `<!-- docs-test: run -->` (invisible on GitHub); such a block is run by
  this interpreter in a subprocess whose working folder is a temporary folder holding a copy of
  sample_data/, so whatever it writes stays there. A `# ...` comment right after one of its `print(...)`
  lines is the output the page promises: the block must print a line that matches it, `…` standing for
  any text. Do not mark a block that runs the whole job: pytest has no `slow` marker registered here.
  (tests/test_readme.py also runs every README block in this process.)
- Commands: every command of a fenced ```sh, ```bash, ```shell or ```console block that runs `toolkit`
  (or `python -m toolkit`) names a subcommand that `python -m toolkit SUBCOMMAND --help` accepts, and
  every `--option` on its line appears in that help. A synopsis may wrap: a following line that is
  indented and starts with `[` or `-` continues it, as does a line ending in a backslash.
- Length: README.md has at most 250 lines; reference belongs in docs/, run history in CHANGELOG.md.

Each kind of check also asserts that it found something to check, so none can pass vacuously.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
PAGES = sorted([README, REPO / "CHANGELOG.md", *sorted((REPO / "docs").glob("*.md"))])
RUN_MARKER = "<!-- docs-test: run -->"
SHELLS = frozenset({"sh", "bash", "shell", "console"})
MAX_README_LINES = 250

FENCE = re.compile(r"^\s*```+\s*([\w+-]*)[^`]*$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"`[^`]*`")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    run: bool  # marked self-contained

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


@dataclass(frozen=True)
class Command:
    where: str
    text: str  # one logical command line, continuations joined
    subcommand: str | None  # None: options of `toolkit` itself (`toolkit --version`)
    options: tuple[str, ...]


def split_page(page: Path) -> tuple[list[Block], list[tuple[int, str]]]:
    """The fenced blocks of a page, and its other lines (numbered from 1) where links and headings live."""
    blocks: list[Block] = []
    prose: list[tuple[int, str]] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    opened: tuple[int, str, bool] | None = None
    body: list[str] = []
    previous = ""
    for number, line in enumerate(lines, start=1):
        fence = FENCE.match(line)
        if opened is None:
            if fence:
                opened = (number, fence.group(1).lower(), previous.strip() == RUN_MARKER)
                body = []
            else:
                prose.append((number, line))
                if line.strip():
                    previous = line
        elif fence and not fence.group(1) and line.strip().strip("`") == "":
            start, lang, run = opened
            blocks.append(Block(page, start, lang, "\n".join(body) + "\n", run))
            opened = None
            previous = ""
        else:
            body.append(line)
    assert opened is None, f"{page.relative_to(REPO)}:{opened[0]}: a fenced block is never closed"
    return blocks, prose


SPLIT = {page: split_page(page) for page in PAGES}
BLOCKS = [block for blocks, _ in SPLIT.values() for block in blocks]
PYTHON_BLOCKS = [block for block in BLOCKS if block.lang in ("python", "py")]
RUN_BLOCKS = [block for block in PYTHON_BLOCKS if block.run]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading anchors by its text
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@functools.cache
def anchors(page: Path) -> frozenset[str]:
    if page not in SPLIT:
        SPLIT[page] = split_page(page)
    seen: dict[str, int] = {}
    found: set[str] = set()
    for _, line in SPLIT[page][1]:
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def links() -> list[tuple[str, Path, str]]:
    """(where, page, target) for every relative link outside code."""
    found: list[tuple[str, Path, str]] = []
    for page, (_, prose) in SPLIT.items():
        for number, line in prose:
            for match in LINK.finditer(INLINE_CODE.sub("", line)):
                target = match.group(1)
                if not SCHEME.match(target):
                    found.append((f"{page.relative_to(REPO)}:{number}", page, target))
    return found


LINKS = links()


def logical_lines(block: Block) -> list[tuple[int, str]]:
    """A shell block's command lines, comments dropped, wrapped synopses and continued lines joined."""
    joined: list[tuple[int, str]] = []
    pending = False  # the last line ended with a backslash
    for offset, raw in enumerate(block.text.splitlines(), start=1):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if block.lang == "console":
            line = re.sub(r"^\s*\$\s", "", line)
        if not line.strip():
            pending = False
            continue
        continues = pending or (raw[:1].isspace() and line.lstrip()[:1] in ("[", "-"))
        text = line.removesuffix("\\").rstrip()
        if continues and joined:
            number, before = joined[-1]
            joined[-1] = (number, f"{before} {text.strip()}")
        else:
            joined.append((block.line + offset, text.strip()))
        pending = line.endswith("\\")
    return joined


def segments(line: str) -> list[str]:
    """Split a command line at `|`, `||`, `&&` and `;`, but not inside the [...] of a synopsis."""
    parts: list[str] = []
    current, depth, index = "", 0, 0
    while index < len(line):
        char = line[index]
        depth += (char == "[") - (char == "]")
        operator = next((op for op in ("||", "&&", "|", ";") if line.startswith(op, index)), None)
        if operator and depth <= 0 and (index == 0 or line[index - 1] == " "):
            parts.append(current)
            current, index = "", index + len(operator)
            continue
        current += char
        index += 1
    parts.append(current)
    return [part.strip() for part in parts if part.strip()]


def toolkit_command(where: str, segment: str) -> Command | None:
    words = shlex.split(segment)
    while words and ENV_ASSIGNMENT.match(words[0]):
        words = words[1:]
    if words and Path(words[0]).name == "toolkit":
        rest = words[1:]
    elif len(words) >= 3 and Path(words[0]).name.startswith("python") and words[1:3] == ["-m", "toolkit"]:
        rest = words[3:]
    else:
        return None
    subcommand = rest[0] if rest and not rest[0].startswith("-") else None
    after_command = segment[segment.find("toolkit") :]
    return Command(where, segment, subcommand, tuple(OPTION.findall(after_command)))


def commands() -> list[Command]:
    found: list[Command] = []
    for block in BLOCKS:
        if block.lang not in SHELLS:
            continue
        for number, line in logical_lines(block):
            for segment in segments(line):
                command = toolkit_command(f"{block.page.relative_to(REPO)}:{number}", segment)
                if command is not None:
                    found.append(command)
    return found


COMMANDS = commands()


@functools.cache
def help_text(subcommand: str | None) -> str:
    argv = [sys.executable, "-m", "toolkit", *([subcommand] if subcommand else []), "--help"]
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=env, timeout=300, check=False)
    assert done.returncode == 0, f"`toolkit {subcommand or ''} --help` failed: {done.stderr.strip()}"
    return done.stdout


# Nothing to check would make every parametrized test below vanish: these fail instead.


def test_the_docs_have_links_examples_and_commands_to_check() -> None:
    assert (REPO / "docs").is_dir()
    assert len(PAGES) >= 3, PAGES
    assert LINKS, "no relative link found in README.md or docs/"
    assert PYTHON_BLOCKS, "no ```python block found"
    assert RUN_BLOCKS, f"no ```python block marked {RUN_MARKER!r}"
    assert COMMANDS, "no `toolkit ...` command found in a shell block"
    assert any(command.options for command in COMMANDS), "no command with an --option found"
    assert {command.subcommand for command in COMMANDS} >= {"run", "check", "scrub", "parse", "validate"}


def test_readme_is_a_short_guide() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert 0 < len(lines) <= MAX_README_LINES, (
        f"README.md has {len(lines)} lines (at most {MAX_README_LINES})"
    )


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {(README.parent / target.split("#")[0]).resolve() for _, page, target in LINKS if page == README}
    pages = set((REPO / "docs").glob("*.md"))
    assert pages, "docs/ has no page"
    assert {page.resolve() for page in pages} <= linked, sorted(str(p) for p in pages - linked)


@pytest.mark.parametrize(("where", "page", "target"), LINKS, ids=[f"{w} {t}" for w, _, t in LINKS])
def test_link_leads_somewhere(where: str, page: Path, target: str) -> None:
    path, _, fragment = target.partition("#")
    destination = (page.parent / path).resolve() if path else page
    assert destination.exists(), f"{where}: {target} does not exist"
    assert destination.is_relative_to(REPO), f"{where}: {target} is outside the repository"
    if fragment and destination.suffix == ".md":
        assert fragment in anchors(destination), (
            f"{where}: no heading of {path or page.name} gives #{fragment}"
        )


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=[block.where for block in PYTHON_BLOCKS])
def test_python_example_compiles(block: Block) -> None:
    compile(block.text, block.where, "exec")


def promised_output(code: str) -> list[str]:
    """The `# ...` comment lines that directly follow a `print(...)` line."""
    lines = code.splitlines()
    return [
        after.lstrip()[2:]
        for before, after in itertools.pairwise(lines)
        if before.lstrip().startswith("print(") and after.lstrip().startswith("# ")
    ]


@pytest.mark.slow
@pytest.mark.parametrize("block", RUN_BLOCKS, ids=[block.where for block in RUN_BLOCKS])
def test_self_contained_python_example_runs(block: Block, tmp_path: Path) -> None:
    shutil.copytree(REPO / "sample_data", tmp_path / "sample_data")
    script = tmp_path / "example.py"
    script.write_text(block.text, encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{block.where}: the example failed:\n{done.stderr}"
    printed = done.stdout.splitlines()
    for expected in promised_output(block.text):
        pattern = ".*?".join(re.escape(part) for part in expected.split("…"))
        assert any(re.fullmatch(pattern, line.strip()) for line in printed), (
            f"{block.where}: the page promises {expected!r}; the example printed {printed}"
        )


@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c.where} {c.subcommand or ''}" for c in COMMANDS])
def test_documented_command_exists_with_its_options(command: Command) -> None:
    if command.subcommand is not None:
        assert re.search(rf"^\s+{re.escape(command.subcommand)}\b", help_text(None), re.MULTILINE), (
            f"{command.where}: `toolkit {command.subcommand}` is not a subcommand: {command.text}"
        )
    text = help_text(command.subcommand)
    for option in command.options:
        assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text), (
            f"{command.where}: `toolkit {command.subcommand or ''}` has no {option}: {command.text}"
        )

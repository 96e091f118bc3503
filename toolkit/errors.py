"""One exception tree for the toolkit, and the stable reason codes that reports key on.

    ToolkitError                 root: the CLI catches it and prints one line (exit 2 unless below)
    ├── UsageError               bad arguments or inputs given on the command line
    ├── RulesError               a file under rules/ is missing, malformed or contradicts itself
    └── JobFault                 the job could not finish (a full disk, a signal, a crashed worker):
                                 nothing was published, exit 3

    RandomKeyWarning             a warning, not an error: the API pseudonymized with a random key

A bad *input document* is not an exception: parsing turns it into a row of the `rejects` table
with a `RejectReason`, so one bad file never ends a job.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Exit(IntEnum):
    """The command line's exit codes (the contract that scripts and CI rely on)."""

    CLEAN = 0
    """Done, and nothing to report."""
    FINDINGS = 1
    """Done with findings (rejected inputs, error rules failed, persons suppressed, personal data found by
    `check`); the outputs for what was good are written."""
    USAGE = 2
    """A usage or configuration (rules) error: nothing was done."""
    BLOCKED = 3
    """No release was written: verification suppressed more persons than the budget allows, or a fault."""


class ToolkitError(Exception):
    """Root of every error the toolkit raises on purpose."""


class RandomKeyWarning(UserWarning):
    """Warned by the Python API when no key was given and TOOLKIT_SECRET is not set: pseudonyms then use a
    random key and join rows of this one result only (pass `key=`, or set `key: required: true` in
    rules/privacy.yaml to make this an error)."""


class UsageError(ToolkitError):
    """The caller asked for something that cannot be done (bad option, missing input path)."""


class RulesError(ToolkitError):
    """A rules file cannot be used; the message names the file and the key."""

    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file = file
        self.key = key
        self.problem = problem
        super().__init__(f"{file}: {key}: {problem}" if key else f"{file}: {problem}")


class JobFault(ToolkitError):
    """The job stopped before it could publish: whatever was published before is left as it was."""


class RejectReason(StrEnum):
    """Why an input document produced no profile. Values are stable: reports and dashboards key on them."""

    UNREADABLE = "unreadable"
    """The path could not be opened or read (permissions, vanished, a device)."""
    EMPTY = "empty"
    """The file holds no bytes, or only white space."""
    BINARY = "binary"
    """The bytes are not text (NUL bytes or many control characters)."""
    NOT_TEXT_ENCODING = "not_text_encoding"
    """The bytes decode neither as UTF-8/UTF-16 nor as the declared fallback (cp1252)."""
    TOO_LARGE = "too_large"
    """The file is larger than the parser's size limit."""
    UNKNOWN_LAYOUT = "unknown_layout"
    """No registered layout recognises the document."""
    MALFORMED = "malformed"
    """The document is of a structured kind but broken: invalid JSON, a damaged zip archive."""
    TRUNCATED = "truncated"
    """The layout was recognised but the document stops before the fields every profile has."""

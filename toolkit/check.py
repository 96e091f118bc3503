"""The pre-commit scan: find personal data in data files before they are committed.

Tier one (the default) is the pattern detectors of `rules/recognizers.yaml`: e-mails, phones, personal
profile URLs and handles, IPs, card numbers (Luhn) and IBANs (mod 97). It imports neither Presidio nor
spaCy, so a run on a few files takes well under two seconds. `deep=True` adds names through Presidio's NER.

Files: CSV and TSV (cells, read by `toolkit.tabular`), JSON and JSONL (top-level fields; nested values as
JSON text), Parquet (cells), and any other text file (lines). Rows are 1-based data rows (lines for text
files). A file that cannot be read is a finding too (UNREADABLE, with its reason), never a crash.

Where one stretch of text matches several detectors, the most specific entity wins: an IBAN, a card number
or an IP address over a phone number, then the longer match. A phone must also be a valid number to
`phonenumbers` in one of the regions the rules list, and is never a date ('2024-03-15').

Paths in a baseline and in the JSON and SARIF reports are relative to the repository's root (the nearest
folder with a `.git`, walking up from the current directory; the current directory outside a repository),
with forward slashes, so a file is one entry whichever folder the scan ran from and however it was named.
The baseline (version 2) keys an accepted finding by path, column, entity and an HMAC-SHA256 of the value
under a random salt kept in the baseline file itself: see docs/precommit.md for what that
protects against and what it does not.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import os
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl
import regex

from toolkit._version import __version__
from toolkit.detectors import Detector, declared_order, detectors, find, ipv4_ok, phone_ok, resolve
from toolkit.errors import UsageError
from toolkit.rules import (
    ALLOW_LIST_FILE,
    ALLOWED_VALUES_FILE,
    PARSING_FILE,
    PRIVACY_FILE,
    QUALITY_FILE,
    RECOGNIZERS_FILE,
    RISK_FILE,
    PrivacyRules,
)
from toolkit.tabular import TableError, read_table
from toolkit.text import fold, mask, plural, unmasked

SCANNED_ENTITIES = ("EMAIL_ADDRESS", "PHONE_NUMBER", "HANDLE", "IP_ADDRESS", "CREDIT_CARD", "IBAN_CODE")
BASELINE_VERSION = 2
BASELINE_NAME = ".pii-baseline.json"
"""The default baseline, at the repository's root."""
REPORT_VERSION = 1
"""Of the `--format json` envelope."""
UNREADABLE = "UNREADABLE"
RULES_FILES = (
    PARSING_FILE,
    QUALITY_FILE,
    PRIVACY_FILE,
    RECOGNIZERS_FILE,
    RISK_FILE,
    ALLOW_LIST_FILE,
    ALLOWED_VALUES_FILE,
)
"""A folder holding one of these is a toolkit rules folder."""
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
RULE_DESCRIPTIONS = {
    "EMAIL_ADDRESS": "An e-mail address.",
    "PHONE_NUMBER": "A phone number.",
    "HANDLE": "A personal profile URL or an account handle.",
    "IP_ADDRESS": "An IP or MAC address.",
    "CREDIT_CARD": "A payment card number (Luhn checked).",
    "IBAN_CODE": "A bank account number (IBAN, mod-97 checked).",
    "PERSON": "A person's name (found by NER, with --deep).",
    UNREADABLE: "A file that could not be read, so it was not scanned.",
}
_DATE = regex.compile(r"(\d{4})([-./])(\d{1,2})\2(\d{1,2})|(\d{1,2})([-./])(\d{1,2})\6(\d{4})")


def git_root(start: Path | None = None) -> Path | None:
    """The nearest folder at or above `start` (the current directory) holding a `.git` (a folder, or the
    file of a worktree or submodule), or None outside a repository."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return None


def repo_rules_dir(start: Path | None = None) -> Path | None:
    """`<git root>/rules` when it is a toolkit rules folder (it holds one of `RULES_FILES`), else None. The
    folder is used whole, as `--rules` would use it: a file it lacks is an error naming that file, not a
    fall-back to the packaged one."""
    root = git_root(start)
    if root is None:
        return None
    folder = root / "rules"
    return folder if any((folder / name).is_file() for name in RULES_FILES) else None


@dataclass(frozen=True)
class Workspace:
    """Where paths are relative to: the repository's root, or the current directory outside one."""

    root: Path

    @classmethod
    def here(cls) -> Workspace:
        return cls(git_root() or Path.cwd().resolve())

    def relative(self, path: Path | str) -> str:
        """The path relative to the root with forward slashes ('data/a.csv' for './a.csv' run in data/,
        for 'a.csv', and for '$PWD/a.csv'); an absolute path when the file is outside the root."""
        absolute = Path(os.path.abspath(path))
        try:
            return absolute.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return absolute.as_posix()

    def exists(self, relative: str) -> bool:
        return (self.root / relative).exists()

    def files(self, paths: Sequence[Path]) -> list[Path]:
        """The paths, checked: a missing path or a folder is a usage error (exit 2), not a finding."""
        for path in paths:
            if not path.exists():
                raise UsageError(f"{path}: no such file")
            if path.is_dir():
                raise UsageError(f"{path}: a folder; name the files to scan")
        return list(paths)


@dataclass(frozen=True)
class Finding:
    path: str
    """As given on the command line (what the text report shows)."""
    row: int
    column: str
    entity: str
    value: str
    """Kept in memory only: it is printed masked, and stored in a baseline only as an HMAC."""
    uri: str = ""
    """The path relative to the repository's root (see `Workspace.relative`): the baseline's key."""
    line: int | None = field(default=None, compare=False)
    """The file's line where the finding's row starts, when there is one (not in Parquet or JSON)."""

    def shown(self) -> str:
        """The value masked ('xxx.xxxxx@xxxxxxx.xxx'), or an unreadable file's reason."""
        return self.value if self.entity == UNREADABLE else str(mask(self.value))

    def line_text(self) -> str:
        return f"{self.path}:{self.row}:{self.column}: {self.entity} ({self.shown()})"


# --- reading files ---------------------------------------------------------------------------------------

HEADER = "(header)"
"""The column of a finding in a table's column names or a record's keys (row 0)."""
Cell = tuple[int, str, str, int | None]
"""(row, column, text, line of the file or None)."""


def _cells(path: Path, delimiter: str) -> Iterator[Cell]:
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        table = read_table(path, delimiter)
        yield from ((0, HEADER, name, 1) for name in table.frame.columns)  # a CSV may have no header
        for row, column, text in _frame_cells(table.frame):
            yield row, column, text, table.lines[row - 1]
    elif suffix == ".parquet":
        frame = pl.read_parquet(path)
        yield from ((0, HEADER, name, None) for name in frame.columns)
        for row, column, text in _frame_cells(frame):
            yield row, column, text, None
    elif suffix in (".jsonl", ".ndjson"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                for row, column, text in _record_cells(number, json.loads(line)):
                    yield row, column, text, number
    elif suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        for number, record in enumerate(data if isinstance(data, list) else [data], start=1):
            for row, column, text in _record_cells(number, record):
                yield row, column, text, None
    else:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            yield number, "-", line, number


def _frame_cells(frame: pl.DataFrame) -> Iterator[tuple[int, str, str]]:
    for column in frame.columns:
        for number, value in enumerate(frame.get_column(column).to_list(), start=1):
            if value is not None:
                yield number, column, value if isinstance(value, str) else _json(value)


def _json(value: Any) -> str:
    """A nested value as JSON text as it reads (not escaped to ASCII: '\\u0430' would hide a name)."""
    return json.dumps(value, default=str, ensure_ascii=False)


def _record_cells(number: int, record: Any) -> Iterator[tuple[int, str, str]]:
    if not isinstance(record, dict):
        yield number, "-", record if isinstance(record, str) else _json(record)
        return
    for key, value in record.items():
        if value is not None:
            yield number, str(key), value if isinstance(value, str) else _json(value)


def _reason(exc: Exception) -> str:
    if isinstance(exc, TableError):
        return f"line {exc.line}: {exc.problem}" if exc.line is not None else exc.problem
    text = str(exc).strip()
    return (text.splitlines()[0] if text else exc.__class__.__name__)[:200]


# --- entities --------------------------------------------------------------------------------------------


def _date_like(value: str) -> bool:
    """'2024-03-15', '15.03.2024', '03/15/2024': a calendar date, which a phone pattern also reads."""
    match = _DATE.fullmatch(value.strip())
    if match is None:
        return False
    if match.group(1):
        orders = [(int(match.group(1)), int(match.group(3)), int(match.group(4)))]
    else:
        first, second, year = int(match.group(5)), int(match.group(7)), int(match.group(8))
        orders = [(year, second, first), (year, first, second)]
    for year, month, day in orders:
        try:
            dt.date(year, month, day)
        except ValueError:
            continue
        return 1900 <= year <= 2099
    return False


def _ipv4_ok(value: str) -> bool:
    """A dotted quad must be an IPv4 address to `ipaddress`; other shapes of the entity (a MAC) pass."""
    return not all(char.isdigit() or char == "." for char in value) or ipv4_ok(value)


def _checked(detector: Detector, regions: Sequence[str]) -> Detector:
    """The detector with the scan's checks: a phone must be no date and a valid number, an IPv4 a valid
    address. A detector that declares its own check keeps it."""
    own = detector.validate
    if detector.entity == "PHONE_NUMBER":
        valid: Callable[[str], bool] = own or (lambda value: phone_ok(value, regions))
        return replace(detector, validate=lambda value: not _date_like(value) and valid(value))
    if detector.entity == "IP_ADDRESS" and own is None:
        return replace(detector, validate=_ipv4_ok)
    return detector


class Scanner:
    def __init__(
        self,
        rules: PrivacyRules,
        allowed_values: Iterable[str],
        deep: bool = False,
        workspace: Workspace | None = None,
    ) -> None:
        regions = tuple(
            dict.fromkeys(
                region
                for spec in rules.recognizers
                if spec.entity == "PHONE_NUMBER"
                for region in spec.regions
            )
        ) or ("ZZ",)  # no region listed: only numbers written with their country code
        self.detectors: list[Detector] = [
            _checked(detector, regions) for detector in detectors(rules.recognizers, SCANNED_ENTITIES)
        ]
        self.order = declared_order(rules.recognizers)
        self.allowed = {fold(value) for value in allowed_values}
        self.rules = rules
        self.deep = deep
        self.workspace = workspace or Workspace.here()

    def scan(self, paths: Sequence[Path], delimiter: str = "auto") -> list[Finding]:
        findings: list[Finding] = []
        texts: list[tuple[Finding, str]] = []
        for path in paths:
            uri = self.workspace.relative(path)
            try:
                cells = list(_cells(path, delimiter))
            except (
                OSError, UnicodeDecodeError, ValueError, RecursionError, TableError, pl.exceptions.PolarsError
            ) as exc:  # fmt: skip
                findings.append(Finding(str(path), 0, "-", UNREADABLE, self._masked(_reason(exc)), uri))
                continue
            if path.suffix.lower() in (".json", ".jsonl", ".ndjson"):  # keys are read as values too
                keys = {column: None for _, column, _, _ in cells if column not in ("-", HEADER)}
                cells = [(0, HEADER, key, None) for key in keys] + cells
            for row, column, text, line in cells:
                text = unmasked(text)
                shown = self._masked(column)
                for start, end, entity in self._found(text):
                    value = text[start:end]
                    if fold(value) not in self.allowed:
                        findings.append(Finding(str(path), row, shown, str(entity), value, uri, line))
                texts.append((Finding(str(path), row, shown, "PERSON", "", uri, line), text))
        if self.deep:
            findings += self._names(texts)
        return sorted(set(findings), key=lambda f: (f.path, f.row, f.column, f.entity, f.value))

    def _found(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, entity) of what the detectors find, one type per stretch as the scrubber types it
        (`toolkit.detectors.resolve`); findings of one type are not joined: each is reported."""
        return resolve(find(self.detectors, text), text, self.order, join_touching=False)

    def _masked(self, text: str) -> str:
        """`text` (a column name, a reason) with what the detectors find in it shown only by its shape."""
        for start, end, _ in reversed(self._found(text)):
            text = text[:start] + str(mask(text[start:end])) + text[end:]
        return text

    def _names(self, texts: list[tuple[Finding, str]]) -> list[Finding]:
        from toolkit.scrub import scrubber_for
        from toolkit.scrub.keys import Keyring

        engine = scrubber_for(self.rules, Keyring(b"check: no key is needed to find", "none")).engine
        distinct = sorted({text for _, text in texts})
        people = {
            text: [text[s.start : s.end] for s in spans if s.entity == "PERSON" and s.score >= 0.5]
            for text, spans in zip(distinct, engine.analyze(distinct), strict=True)
        }
        return [
            replace(where, value=name)
            for where, text in texts
            for name in people[text]
            if fold(name) not in self.allowed and fold(name) not in self.rules.allow_list
        ]


# --- the baseline ----------------------------------------------------------------------------------------

Entry = tuple[str, str, str, str]
"""(path, column, entity, fingerprint): no row, so that moving a value does not make the baseline churn."""
_ENTRY_KEYS = ("path", "column", "entity", "fingerprint")


def fingerprint(salt: bytes, value: str) -> str:
    """'hmac-sha256:<hex>' of the value under the baseline's salt."""
    return "hmac-sha256:" + hmac.new(salt, value.encode("utf-8"), hashlib.sha256).hexdigest()


@dataclass
class Baseline:
    """Accepted findings. A file that does not exist yet accepts nothing and gets a new random salt when it
    is first written; an update keeps the salt."""

    path: Path
    salt: bytes
    entries: set[Entry]
    exists: bool
    legacy_paths: frozenset[str] = frozenset()
    """Paths of a version-1 baseline being migrated by `--update-baseline` (its entries cannot be kept:
    they hold no salted fingerprint)."""

    @classmethod
    def load(cls, path: Path, migrate: bool = False) -> Baseline:
        """Read a baseline. A version-1 file is a usage error saying how to rewrite it, unless `migrate`
        (the run is an update that rewrites it); any other content is a usage error."""
        if not path.exists():
            return cls(path, secrets.token_bytes(32), set(), exists=False)
        shown = _shown(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            version = data["version"]
            if version == 1:
                old = frozenset(str(entry["path"]) for entry in data["findings"])
                if not migrate:
                    raise UsageError(
                        f"{shown}: a version-1 baseline, whose plain SHA-256 fingerprints of values can be "
                        f"guessed; rewrite it as version 2 from the repository's root with "
                        f"`toolkit check --update-baseline {_listed(sorted(old))}`"
                    )
                return cls(path, secrets.token_bytes(32), set(), exists=True, legacy_paths=old)
            if version != BASELINE_VERSION:
                raise ValueError(f"version {version!r}; this toolkit reads version {BASELINE_VERSION}")
            salt = bytes.fromhex(data["salt"])
            if len(salt) < 16:
                raise ValueError("the salt is shorter than 16 bytes")
            entries = {
                (str(e["path"]), str(e["column"]), str(e["entity"]), str(e["fingerprint"]))
                for e in data["findings"]
            }
        except UsageError:
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageError(
                f"{shown}: not a baseline file written by `toolkit check --update-baseline` ({exc})"
            ) from None
        return cls(path, salt, entries, exists=True)

    def key(self, finding: Finding) -> Entry:
        return (finding.uri, finding.column, finding.entity, fingerprint(self.salt, finding.value))

    def new(self, findings: Iterable[Finding]) -> list[Finding]:
        """The findings the baseline does not accept (an unreadable file is never accepted)."""
        return [f for f in findings if f.entity == UNREADABLE or self.key(f) not in self.entries]

    def update(self, findings: Sequence[Finding], scanned: Iterable[str], workspace: Workspace) -> str:
        """Merge a scan in, as detect-secrets and gitleaks do: entries of the files scanned now are replaced
        by this scan's findings (a file that could not be read keeps its entries), entries of files not
        scanned now are kept while the file exists, and entries of deleted files are dropped. Returns the
        one-line summary."""
        unreadable = {f.uri for f in findings if f.entity == UNREADABLE}
        replaced = set(scanned) - unreadable
        legacy = {workspace.relative(p) for p in self.legacy_paths}  # as given then, from the root
        unscanned = sorted(p for p in legacy if p not in replaced and workspace.exists(p))
        if unscanned:
            raise UsageError(
                f"{_shown(self.path)}: a version-1 baseline lists files not scanned now; to rewrite it "
                f"as version 2, scan them too: `toolkit check --update-baseline {_listed(unscanned)}`"
            )
        others = [e for e in self.entries if e[0] not in replaced]
        kept = [e for e in others if workspace.exists(e[0])]
        dropped = len(others) - len(kept)
        added = {self.key(f) for f in findings if f.entity != UNREADABLE}
        self.entries = set(kept) | added
        summary = (
            f"accepted {plural(len(added), 'finding')} in {plural(len({e[0] for e in added}), 'file')} "
            f"into {_shown(self.path)}"
        )
        if kept:
            summary += (
                f"; kept {plural(len(kept), 'finding')} in "
                f"{plural(len({e[0] for e in kept}), 'file')} not scanned now"
            )
        if dropped:
            summary += f"; dropped {plural(dropped, 'finding')} of deleted files"
        return summary

    def write(self) -> None:
        """Sorted entries, no rows and no timestamps, so the file does not churn."""
        entries = [dict(zip(_ENTRY_KEYS, entry, strict=True)) for entry in sorted(self.entries)]
        document = {"version": BASELINE_VERSION, "salt": self.salt.hex(), "findings": entries}
        self.path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        self.exists = True


def _shown(path: Path) -> str:
    """A path as the user would type it here: relative to the current directory when it is below it."""
    try:
        return Path(os.path.abspath(path)).relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def _listed(paths: Sequence[str], most: int = 5) -> str:
    shown = " ".join(paths[:most])
    return shown if len(paths) <= most else f"{shown} … ({len(paths) - most} more)"


# --- reports ---------------------------------------------------------------------------------------------


def report_json(findings: Sequence[Finding], scanned: int, accepted: int, exit_code: int) -> dict[str, Any]:
    """The `--format json` envelope: never a raw value, only its mask (or an unreadable file's reason)."""
    entries: list[dict[str, Any]] = []
    for f in findings:
        entry: dict[str, Any] = {"path": f.uri, "row": f.row, "column": f.column, "entity": f.entity}
        if f.line is not None:
            entry["line"] = f.line
        if f.entity == UNREADABLE:
            entry["reason"] = f.value
        else:
            entry["masked"] = f.shown()
        entries.append(entry)
    return {
        "report_version": REPORT_VERSION,
        "tool": {"name": "toolkit", "version": __version__},
        "command": "check",
        "counts": {
            "files_scanned": scanned,
            "findings": len(findings),
            "files_with_findings": len({f.uri for f in findings}),
            "by_entity": dict(sorted(Counter(f.entity for f in findings).items())),
            "accepted_by_baseline": accepted,
        },
        "findings": entries,
        "exit_code": exit_code,
    }


def report_sarif(findings: Sequence[Finding], baseline: Baseline | None) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one result per finding, its rule the entity. A result has a region when the
    finding's line in the file is known (text files, CSV, TSV and JSONL); a table's row and column are in
    the message. `partialFingerprints` holds the baseline's HMAC of the value when there is a baseline (a
    fingerprint under a salt made for one run would differ on every run)."""
    rule_ids = list(RULE_DESCRIPTIONS)
    results: list[dict[str, Any]] = []
    for f in findings:
        if f.entity == UNREADABLE:
            text = f"not scanned: {f.value}"
        elif f.column == "-":
            text = f"{f.entity} ({f.shown()}) on line {f.row}"
        else:
            text = f"{f.entity} ({f.shown()}) in row {f.row}, column {f.column!r}"
        location: dict[str, Any] = {"artifactLocation": _artifact(f.uri)}
        if f.line is not None:
            location["region"] = {"startLine": f.line}
        result: dict[str, Any] = {
            "ruleId": f.entity,
            "ruleIndex": rule_ids.index(f.entity),
            "level": "error",
            "message": {"text": text},
            "locations": [{"physicalLocation": location}],
        }
        if baseline is not None and baseline.exists and f.entity != UNREADABLE:
            result["partialFingerprints"] = {"valueHmacSha256/v1": baseline.key(f)[3].partition(":")[2]}
        results.append(result)
    rules = [
        {"id": rule, "shortDescription": {"text": description}, "defaultConfiguration": {"level": "error"}}
        for rule, description in RULE_DESCRIPTIONS.items()
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "toolkit check", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }


def _artifact(uri: str) -> dict[str, str]:
    if Path(uri).is_absolute():  # a file outside the repository
        return {"uri": Path(uri).as_uri()}
    return {"uri": quote(uri, safe="/"), "uriBaseId": "%SRCROOT%"}

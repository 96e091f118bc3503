"""The pre-commit scan: find personal data in data files before they are committed.

Tier one (the default) is the pattern detectors of `rules/recognizers.yaml`: e-mails, phones, personal
profile URLs and handles, IPs, card numbers (Luhn) and IBANs (mod 97). It imports neither Presidio nor
spaCy, so a run on a few files takes well under two seconds. `deep=True` adds names through Presidio's NER.

Files: CSV and TSV (cells), JSON and JSONL (top-level fields; nested values as JSON text), Parquet
(cells), and any other text file (lines). Rows are 1-based data rows (lines for text files). A file that
cannot be read is a finding too, never a crash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from toolkit.detectors import Detector, detectors, find
from toolkit.errors import UsageError
from toolkit.rules import PrivacyRules
from toolkit.text import fold, mask

SCANNED_ENTITIES = ("EMAIL_ADDRESS", "PHONE_NUMBER", "HANDLE", "IP_ADDRESS", "CREDIT_CARD", "IBAN_CODE")
BASELINE_VERSION = 1
UNREADABLE = "UNREADABLE"


@dataclass(frozen=True)
class Finding:
    path: str
    row: int
    column: str
    entity: str
    value: str
    """Kept in memory only: it is printed masked, and stored in a baseline only as a hash."""

    def line(self) -> str:
        shown = self.value if self.entity == UNREADABLE else mask(self.value)
        return f"{self.path}:{self.row}:{self.column}: {self.entity} ({shown})"

    def key(self) -> dict[str, str]:
        """The baseline key: no row, so that moving a value does not make the baseline churn."""
        digest = hashlib.sha256(self.value.encode()).hexdigest()
        return {"path": self.path, "column": self.column, "entity": self.entity, "hash": f"sha256:{digest}"}


def _cells(path: Path) -> Iterator[tuple[int, str, str]]:
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        frame = pl.read_csv(path, separator="\t" if suffix == ".tsv" else ",", infer_schema=False)
        yield from _frame_cells(frame)
    elif suffix == ".parquet":
        yield from _frame_cells(pl.read_parquet(path))
    elif suffix in (".jsonl", ".ndjson"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                yield from _record_cells(number, json.loads(line))
    elif suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        for number, record in enumerate(data if isinstance(data, list) else [data], start=1):
            yield from _record_cells(number, record)
    else:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            yield number, "-", line


def _frame_cells(frame: pl.DataFrame) -> Iterator[tuple[int, str, str]]:
    for column in frame.columns:
        for number, value in enumerate(frame.get_column(column).to_list(), start=1):
            if value is not None:
                yield number, column, value if isinstance(value, str) else json.dumps(value, default=str)


def _record_cells(number: int, record: Any) -> Iterator[tuple[int, str, str]]:
    if not isinstance(record, dict):
        yield number, "-", record if isinstance(record, str) else json.dumps(record, default=str)
        return
    for key, value in record.items():
        if value is not None:
            yield number, str(key), value if isinstance(value, str) else json.dumps(value, default=str)


class Scanner:
    def __init__(self, rules: PrivacyRules, allowed_values: Iterable[str], deep: bool = False) -> None:
        self.detectors: list[Detector] = detectors(rules.recognizers, SCANNED_ENTITIES)
        self.allowed = {fold(value) for value in allowed_values}
        self.rules = rules
        self.deep = deep

    def scan(self, paths: Sequence[Path]) -> list[Finding]:
        findings: list[Finding] = []
        texts: list[tuple[str, int, str, str]] = []
        for path in paths:
            try:
                cells = list(_cells(path))
            except (OSError, UnicodeDecodeError, ValueError, pl.exceptions.PolarsError) as exc:
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
                findings.append(Finding(str(path), 0, "-", UNREADABLE, reason[:200]))
                continue
            for row, column, text in cells:
                for entity, start, end in _outermost(find(self.detectors, text)):
                    value = text[start:end]
                    if fold(value) not in self.allowed:
                        findings.append(Finding(str(path), row, column, entity, value))
                texts.append((str(path), row, column, text))
        if self.deep:
            findings += self._names(texts)
        return sorted(set(findings), key=lambda f: (f.path, f.row, f.column, f.entity, f.value))

    def _names(self, texts: list[tuple[str, int, str, str]]) -> list[Finding]:
        from toolkit.scrub import scrubber_for
        from toolkit.scrub.keys import Keyring

        engine = scrubber_for(self.rules, Keyring(b"check: no key is needed to find", "none")).engine
        distinct = sorted({text for _, _, _, text in texts})
        people = {
            text: [text[s.start : s.end] for s in spans if s.entity == "PERSON" and s.score >= 0.5]
            for text, spans in zip(distinct, engine.analyze(distinct), strict=True)
        }
        return [
            Finding(path, row, column, "PERSON", name)
            for path, row, column, text in texts
            for name in people[text]
            if fold(name) not in self.allowed and fold(name) not in self.rules.allow_list
        ]


def _outermost(matches: Iterable[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """One finding per stretch of text: a match inside a longer one (a phone's national part) is dropped."""
    kept: list[tuple[str, int, int]] = []
    for entity, start, end in sorted(matches, key=lambda m: (m[1], -(m[2] - m[1]))):
        if not kept or start >= kept[-1][2]:
            kept.append((entity, start, end))
    return kept


def load_baseline(path: Path) -> set[tuple[str, str, str, str]]:
    """The accepted findings of a baseline file; a missing file accepts nothing."""
    if not path.exists():
        return set()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {(e["path"], e["column"], e["entity"], e["hash"]) for e in data["findings"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(
            f"{path}: not a baseline file written by `toolkit check --update-baseline` ({exc})"
        ) from None


def write_baseline(path: Path, findings: Iterable[Finding]) -> None:
    """Accept these findings: sorted keys, no rows and no timestamps, so the file does not churn."""
    keys = sorted({tuple(f.key().values()) for f in findings if f.entity != UNREADABLE})
    entries = [dict(zip(("path", "column", "entity", "hash"), key, strict=True)) for key in keys]
    path.write_text(
        json.dumps({"version": BASELINE_VERSION, "findings": entries}, indent=2) + "\n", encoding="utf-8"
    )


def not_in_baseline(findings: Iterable[Finding], baseline: set[tuple[str, str, str, str]]) -> list[Finding]:
    return [f for f in findings if tuple(f.key().values()) not in baseline]

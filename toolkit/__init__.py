"""Parse, validate and anonymize developer-profile datasets so they are safe to share.

The public API is what `__all__` lists; everything else may change without notice. Every function here
is what the command line calls too. Errors are one tree: `ToolkitError`, with `RulesError` for a broken
rules folder and `UsageError` for a bad request; bad input data is never an exception (see `rejects`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from toolkit._version import __version__
from toolkit.errors import JobFault, RejectReason, RulesError, ToolkitError, UsageError
from toolkit.model import TABLE_SCHEMAS, ProfileSet
from toolkit.parse import parse_paths
from toolkit.rules import load_parsing_rules, load_privacy_rules, load_quality_rules, load_risk_rules

if TYPE_CHECKING:
    from toolkit.quality import ValidationResult
    from toolkit.scrub import Keyring
    from toolkit.verify import Verification

__all__ = [
    "TABLE_SCHEMAS",
    "JobFault",
    "ProfileSet",
    "RejectReason",
    "Release",
    "RulesError",
    "ToolkitError",
    "UsageError",
    "__version__",
    "anonymize",
    "parse",
    "run",
    "scrub_frame",
    "validate",
]


def parse(paths: Iterable[str | Path], rules_dir: Path | None = None) -> ProfileSet:
    """Parse files and folders (recursively) into the contract's tables.

    Bad inputs never raise: each becomes a row of `rejects` with a stable reason code. Raises `RulesError`
    only when the rules folder itself is broken.
    """
    return parse_paths([str(path) for path in paths], load_parsing_rules(rules_dir))


def validate(profiles: ProfileSet, rules_dir: Path | None = None) -> ValidationResult:
    """Run the quality rules: `.valid` holds the rows that failed no error rule, `.quarantine` the others
    (with a `failed_rules` column; private data), `.findings` what each rule found, `.failed` whether an
    error rule failed beyond its threshold."""
    from toolkit.quality import validate_tables

    return validate_tables(profiles, load_quality_rules(rules_dir))


def _keyring(key: bytes | str | None) -> Keyring:
    from toolkit.scrub.keys import from_secret, keyring

    if key is None:
        return keyring()  # TOOLKIT_SECRET, else a random key for this process
    return from_secret(key.encode() if isinstance(key, str) else key, "given")


@dataclass(frozen=True)
class Release:
    """Anonymized tables and the proof that goes with them. Nothing is written until `write`.

    Persons in whose rows verification still found an identifier are not in `tables`: they are counted
    in `verification.suppressed` (by source profile_id: private). Then the re-identification risk pass of
    `rules/risk.yaml` has coarsened the quasi-identifiers, rewritten rare phrases and suppressed the
    persons still below target (`risk`: its report, None when `enabled: false`). The release is `safe`
    while both stay within their budgets.
    """

    tables: dict[str, pl.DataFrame]
    verification: Verification
    columns: list[dict[str, object]]
    """Per column: the action taken and how many values it changed."""
    budget: int
    """How many persons verification may suppress before the release is blocked."""
    risk: dict[str, object] | None = None

    @property
    def safe(self) -> bool:
        """True when verification and the risk pass suppressed no more persons than their budgets allow."""
        within = len(self.verification.suppressed) <= self.budget
        return within and (self.risk is None or bool(self.risk["target_met"]))

    def write(self, folder: Path) -> None:
        """Write `<table>.parquet` files, all at once (through a staging folder renamed into place);
        raises `ToolkitError` instead when the release is not safe."""
        from toolkit.io import write_frames
        from toolkit.publish import check_replaceable, publish, staging_for

        if not self.safe:
            raise ToolkitError(
                "the release is blocked: too many persons still showed identifiers, or could not reach "
                "the k of rules/risk.yaml"
            )
        folder = Path(folder)
        check_replaceable(folder, "release folder")
        stage = staging_for(folder)
        write_frames(self.tables, stage)
        (stage / "report.json").write_text('{"written": true}\n', encoding="utf-8")
        publish(stage, folder)


def anonymize(profiles: ProfileSet, rules_dir: Path | None = None, key: bytes | str | None = None) -> Release:
    """Apply the privacy policy to parsed (ideally validated) tables, then verify every person.

    `key` is the pseudonym secret (at least 16 bytes); without one, TOOLKIT_SECRET is used, else a random
    key whose pseudonyms do not link across runs.
    """
    from toolkit.kernels import scrub_and_verify
    from toolkit.verify import NameIndex

    rules = load_privacy_rules(rules_dir)
    people = profiles.profiles.get_column("name"), profiles.experience.get_column("supervisor")
    names = NameIndex.of(name for column in people for name in column.drop_nulls())
    anonymized, verification, tables = scrub_and_verify(profiles, rules, _keyring(key), names)
    budget = int(rules.policy.verification.max_suppressed * profiles.profiles.height)
    actions = [action.to_json() for action in anonymized.actions]
    risk_rules = load_risk_rules(rules_dir)
    if not risk_rules.enabled or risk_rules.phrases is None:
        return Release(tables, verification, actions, budget)
    from toolkit.risk import plan_risk
    from toolkit.risk.phrases import PhraseFinder, phrase_keys

    finder = PhraseFinder(risk_rules.phrases, rules)
    phrases = phrase_keys(tables, risk_rules.phrases, finder).lazy()
    plan = plan_risk({name: frame.lazy() for name, frame in tables.items()}, risk_rules, phrases, finder)
    if plan.written:
        tables = {name: plan.apply(name, frame.lazy()).collect() for name, frame in tables.items()}
    return Release(tables, verification, actions, budget, plan.to_json())


def scrub_frame(
    frame: pl.DataFrame,
    text_columns: Sequence[str],
    rules_dir: Path | None = None,
    key: bytes | str | None = None,
) -> pl.DataFrame:
    """Scrub free-text columns of any frame; each row is one record. Row order and other columns are kept."""
    from toolkit.scrub import scrub_frame as scrub_columns

    missing = [column for column in text_columns if column not in frame.columns]
    if missing:
        raise UsageError(f"no column {', '.join(missing)} in the frame")
    scrubbed, _ = scrub_columns(frame, list(text_columns), load_privacy_rules(rules_dir), _keyring(key))
    return scrubbed


def run(
    inputs: Iterable[str | Path],
    out: Path,
    rules_dir: Path | None = None,
    key: bytes | str | None = None,
    private_dir: Path | None = None,
    jobs: int = 0,
    batch_size: int | None = None,
) -> dict[str, Any]:
    """The whole job, as `toolkit run`: returns the release's report envelope (also written to
    `out/report.json` when the release is written); its `exit_code` is what the command would exit with.
    Raises `UsageError` for bad folders and `JobFault` when the job could not finish."""
    from toolkit import pipeline
    from toolkit.driver import DEFAULT_BATCH_SIZE, JobSettings

    settings = JobSettings(jobs=jobs, batch_size=batch_size or DEFAULT_BATCH_SIZE, progress=False)
    return pipeline.run(
        [str(path) for path in inputs],
        Path(out),
        pipeline.job_rules(rules_dir),
        _keyring(key),
        private_dir=private_dir,
        settings=settings,
    )

"""Parse, validate and anonymize developer-profile datasets so they are safe to share.

The public API is what `__all__` lists; everything else may change without notice. Every function here
is what the command line calls too. Errors are one tree: `ToolkitError`, with `RulesError` for a broken
rules folder and `UsageError` for a bad request; bad input data is never an exception (see `rejects`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

import polars as pl

from toolkit._version import __version__
from toolkit.errors import JobFault, RandomKeyWarning, RejectReason, RulesError, ToolkitError, UsageError
from toolkit.model import TABLE_SCHEMAS, TERMS_TABLE, ProfileSet, other_people
from toolkit.parse import parse_paths
from toolkit.rules import load_parsing_rules, load_privacy_rules, load_quality_rules, load_risk_rules

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from toolkit.quality import ValidationResult
    from toolkit.scrub import Keyring
    from toolkit.verify import Verification

__all__ = [
    "TABLE_SCHEMAS",
    "JobFault",
    "ProfileSet",
    "RandomKeyWarning",
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


PathLike = str | os.PathLike[str]
"""Wherever the API takes a path: a `str` or a `pathlib.Path`."""

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _public(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Every error out of the public API is a `ToolkitError`: a file system error becomes a `UsageError`
    naming the path, and anything else (a bug) a `ToolkitError` chained to its cause."""

    @functools.wraps(function)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return function(*args, **kwargs)
        except (ToolkitError, Warning):  # a warning the caller made an error is theirs, not a bug
            raise
        except OSError as exc:
            raise UsageError(f"{exc.filename or 'a file'}: {exc.strerror or exc}") from exc
        except Exception as exc:
            raise ToolkitError(f"unexpected error in toolkit.{function.__name__} (a bug): {exc!r}") from exc

    return call


def _paths(paths: PathLike | Iterable[PathLike], what: str) -> list[str]:
    """One path or several; a single `str` is one path, never a sequence of one-letter paths."""
    if isinstance(paths, str | os.PathLike):
        return [os.fspath(paths)]
    if isinstance(paths, bytes | Mapping) or not isinstance(paths, Iterable):
        raise UsageError(f"{what}: pass a path (str or pathlib.Path) or a list of them, not {_kind(paths)}")
    listed = list(paths)
    for path in listed:
        if not isinstance(path, str | os.PathLike):
            raise UsageError(f"{what}: {path!r} is not a path (str or pathlib.Path)")
    return [os.fspath(path) for path in listed]


def _folder(path: PathLike | None, what: str) -> Path | None:
    if path is None:
        return None
    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"{what}: pass a folder as a str or pathlib.Path, not {_kind(path)}")
    return Path(path)


def _given_folder(path: PathLike, what: str) -> Path:
    """The release folder, which must be given: None is a `UsageError`, never the current folder."""
    folder = _folder(path, what)
    if folder is None:
        raise UsageError(f"{what}: pass the release folder to write, as a str or pathlib.Path")
    return folder


def _columns(columns: str | Iterable[str]) -> list[str]:
    """One column name or several; a single `str` is one name, never its letters."""
    if isinstance(columns, str):
        return [columns]
    listed = list(columns) if isinstance(columns, Iterable) and not isinstance(columns, Mapping) else None
    if not listed or not all(isinstance(column, str) for column in listed):
        raise UsageError("text_columns: pass a column name or a non-empty list of column names")
    return listed


def _frame(frame: object) -> pl.DataFrame:
    if isinstance(frame, pl.DataFrame):
        return frame
    if isinstance(frame, pl.LazyFrame):
        raise UsageError("pass a polars DataFrame: call .collect() on the LazyFrame first")
    if type(frame).__module__.split(".")[0] == "pandas":
        raise UsageError(
            "pass a polars DataFrame: convert the pandas frame with polars.from_pandas(frame) "
            "(needs pyarrow) or polars.DataFrame(frame.to_dict('list'))"
        )
    raise UsageError(f"pass a polars DataFrame, not {_kind(frame)}")


def _kind(value: object) -> str:
    return f"a {type(value).__module__}.{type(value).__qualname__}".replace("builtins.", "")


@_public
def parse(paths: PathLike | Iterable[PathLike], rules_dir: PathLike | None = None) -> ProfileSet:
    """Parse files and folders (recursively) into the contract's tables; `paths` is one path or several.

    Bad inputs never raise: each becomes a row of `rejects` with a stable reason code (a path that does
    not exist too: the API parses what it can). Raises `RulesError` only when the rules folder itself is
    broken, `UsageError` when `paths` is not a path or a list of paths.
    """
    return parse_paths(_paths(paths, "paths"), load_parsing_rules(_folder(rules_dir, "rules_dir")))


@_public
def validate(profiles: ProfileSet, rules_dir: PathLike | None = None) -> ValidationResult:
    """Run the quality rules: `.valid` holds the rows that failed no error rule, `.quarantine` the others
    (with a `failed_rules` column; private data), `.findings` what each rule found, `.failed` whether an
    error rule failed beyond its threshold."""
    from toolkit.quality import validate_tables
    from toolkit.scrub.shapes import shown_as_is

    folder = _folder(rules_dir, "rules_dir")
    reveal = shown_as_is(load_privacy_rules(folder))
    return validate_tables(_profile_set(profiles), load_quality_rules(folder), reveal=reveal)


def _profile_set(profiles: object) -> ProfileSet:
    if not isinstance(profiles, ProfileSet):
        raise UsageError(f"pass the ProfileSet that toolkit.parse returns, not {_kind(profiles)}")
    return profiles


def _keyring(key: bytes | str | None, required: bool = False) -> Keyring:
    """The key given, else TOOLKIT_SECRET, else (a `UsageError` when `required`) a random key, with a
    `RandomKeyWarning`."""
    import warnings

    from toolkit.scrub.keys import RANDOM_KEY, from_secret, keyring

    if key is None:
        keys = keyring(required=required)  # TOOLKIT_SECRET, else a random key for this process
        if keys.source == RANDOM_KEY:
            warnings.warn(
                "no key and no TOOLKIT_SECRET: pseudonyms use a random key and link to no other result; pass "
                "key=, or set `key: required: true` in rules/privacy.yaml to make this an error",
                RandomKeyWarning,
                stacklevel=3,
            )
        return keys
    if not isinstance(key, str | bytes):
        raise UsageError(f"key: pass the secret as a str or bytes (16 bytes or more), not {_kind(key)}")
    return from_secret(key.encode() if isinstance(key, str) else key, "given")


def _count(value: object, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise UsageError(f"{what}: pass a whole number of at least {least}, not {value!r}")
    return value


@dataclass(frozen=True)
class Release:
    """Anonymized tables and the proof that goes with them. Nothing is written until `write`.

    Persons in whose rows verification still found an identifier are not in `tables`: they are counted
    in `verification.suppressed` (by source profile_id: private). Then the re-identification risk pass of
    `rules/risk.yaml` has coarsened the quasi-identifiers, rewritten rare phrases and suppressed the
    persons still below target (`risk`: its report, None when `enabled: false`), and the text pass has cut
    every run of words fewer than k persons hold (`text`). The release is `safe` while verification and
    the risk pass stay within their budgets.
    """

    tables: dict[str, pl.DataFrame]
    verification: Verification
    columns: list[dict[str, object]]
    """Per column: the action taken and how many values it changed."""
    budget: int
    """How many persons verification may suppress before the release is blocked."""
    risk: dict[str, object] | None = None
    text: dict[str, object] | None = None
    """The k-anonymous text pass's report (`toolkit.risk.runs`), None when `text.enabled: false`."""
    entities: Mapping[str, int] = field(default_factory=dict)
    """Replacements the scrubber made in free text, per entity type."""
    span_filters: Mapping[str, int] = field(default_factory=dict)
    """Per span filter, the spans it decided (kept out, or for `certain_person` kept in)."""
    recognizers: Mapping[str, int] = field(default_factory=dict)
    """Per recognizer (and NER), the spans it found that were replaced."""
    switched_off: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The recognizers, span filters and span adjusters the rules switched off."""
    span_adjusters: Mapping[str, int] = field(default_factory=dict)
    """Per span adjuster, the spans to replace it changed or added."""
    key_source: str = "given"
    """Where the pseudonyms' key came from ('given', 'TOOLKIT_SECRET' or 'random per run')."""
    suppressed_pseudonyms: tuple[tuple[str, str], ...] = ()
    """(pseudonym, reason) of each person verification kept out, sorted: what the report may name."""
    quasi_identifier_cells: int = 0
    """Cells of the attacker views' columns that held a value before the risk pass."""
    quasi_identifier_columns: Mapping[str, int] = field(default_factory=dict)
    """The same per column."""

    @property
    def safe(self) -> bool:
        """True when verification and the risk pass suppressed no more persons than their budgets allow."""
        within = len(self.verification.suppressed) <= self.budget
        return within and (self.risk is None or bool(self.risk["target_met"]))

    def report(self) -> dict[str, Any]:
        """The release's report envelope, as `toolkit run` writes it to report.json (`command`:
        "anonymize"). It names no input and no value; it holds no quality findings, since `toolkit.validate`
        ran apart (its `rules_checked` is 0, and the card says so)."""
        return _release_report(self)

    def write(self, folder: PathLike) -> None:
        """Write the release as `toolkit run` does: `<table>.parquet` files, `report.json` and the card
        (`README.md`, `report.html`), all at once (through a staging folder renamed into place); raises
        `ToolkitError` instead, writing nothing, when the release is not safe."""
        _write_release(self, _given_folder(folder, "folder"))


def _release_report(release: Release) -> dict[str, Any]:
    from toolkit.contents import release_contents, values_of
    from toolkit.errors import Exit
    from toolkit.report import JOB_REPORT_VERSION, privacy_section, release_section

    tables = {name: frame.lazy() for name, frame in release.tables.items()}
    views: Mapping[str, Any] = release.risk["views"] if release.risk else {}  # type: ignore[assignment]
    contents = release_contents(tables)
    columns = [column for view in views.values() for column in view["columns"]]
    released = values_of(contents, columns)
    before = release.quasi_identifier_columns if release.risk else released
    by_view = {
        name: (
            sum(before.get(column, 0) for column in view["columns"]),
            sum(released.get(column, 0) for column in view["columns"]),
        )
        for name, view in views.items()
    }
    cells = (sum(before.get(column, 0) for column in columns), sum(released[column] for column in columns))
    safe = release.safe
    exit_code = Exit.BLOCKED if not safe else Exit.FINDINGS if release.suppressed_pseudonyms else Exit.CLEAN
    rows = {name: frame.height for name, frame in release.tables.items()}
    return {
        "report_version": JOB_REPORT_VERSION,
        "tool": {"name": "toolkit", "version": __version__},
        "command": "anonymize",
        "counts": {
            "profiles": release.verification.persons_checked,
            "rows": rows,
            "suppressed_persons": len(release.suppressed_pseudonyms),
        },
        "quality": {"rules_checked": 0, "passed": True, "findings": []},
        "privacy": privacy_section(
            release.key_source,
            release.columns,
            release.entities,
            release.span_filters,
            release.recognizers,
            release.switched_off,
            release.span_adjusters,
        ),
        "verification": {
            "persons_checked": release.verification.persons_checked,
            "persons_suppressed": len(release.suppressed_pseudonyms),
            "suppression_budget": release.budget,
            "blocked": len(release.suppressed_pseudonyms) > release.budget,
            "hits": release.verification.hits_json(),
            "suppressed": [{"profile_id": pid, "reason": why} for pid, why in release.suppressed_pseudonyms],
        },
        "risk": release.risk if release.risk is not None else {"ran": False},
        "text": release.text if release.text is not None else {"ran": False},
        "anonymized": release.risk is not None and release.text is not None,
        "release": release_section(safe, "", rows, contents, cells, by_view),
        "exit_code": int(exit_code),
    }


@_public
def _write_release(release: Release, folder: Path) -> None:
    import shutil

    from toolkit.card import render_card
    from toolkit.io import write_frames
    from toolkit.publish import OutputKind, check_replaceable, mark, publish, staging_for, write_json

    if not release.safe:
        raise ToolkitError(
            "the release is blocked: too many persons still showed identifiers, or could not reach "
            "the k of rules/risk.yaml"
        )
    check_replaceable(folder, OutputKind.RELEASE)
    envelope = release.report()
    envelope["release"]["folder"] = folder.name
    stage = staging_for(folder)
    try:
        write_frames(release.tables, stage)
        for name, text in render_card(envelope).items():
            (stage / name).write_text(text, encoding="utf-8")
        write_json(stage / "report.json", envelope)
        mark(stage, OutputKind.RELEASE)
        publish(stage, folder)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


@_public
def anonymize(
    profiles: ProfileSet, rules_dir: PathLike | None = None, key: bytes | str | None = None
) -> Release:
    """Apply the privacy policy to parsed (ideally validated) tables, then verify every person.

    `key` is the pseudonym secret (at least 16 bytes); without one, TOOLKIT_SECRET is used, else a random
    key whose pseudonyms do not link across runs.
    """
    from toolkit.contents import values_in
    from toolkit.kernels import scrub_and_verify
    from toolkit.verify import NameIndex

    profiles = _profile_set(profiles)
    rules_dir = _folder(rules_dir, "rules_dir")
    rules = load_privacy_rules(rules_dir)
    people = (
        profiles.profiles.get_column("name"),
        other_people(profiles.profiles, profiles.experience).get_column("name"),
    )
    names = NameIndex.of(name for column in people for name in column.drop_nulls())
    keys = _keyring(key, rules.policy.key.required)
    anonymized, verification, tables = scrub_and_verify(profiles, rules, keys, names)
    budget = int(rules.policy.verification.max_suppressed * profiles.profiles.height)
    actions = [action.to_json() for action in anonymized.actions]
    suppressed = sorted(
        (keys.pseudonym("profile_id", pid), str(why)) for pid, why in verification.suppressed.items()
    )
    proof: dict[str, Any] = {
        "entities": dict(anonymized.entities),
        "span_filters": dict(anonymized.span_filters),
        "recognizers": dict(anonymized.recognizers),
        "span_adjusters": dict(anonymized.span_adjusters),
        "switched_off": rules.switched_off,
        "key_source": keys.source,
        "suppressed_pseudonyms": tuple(suppressed),
    }
    risk_rules = load_risk_rules(rules_dir)
    text_rules = risk_rules.text if risk_rules.text is not None and risk_rules.text.enabled else None
    function_words = risk_rules.phrases.function_words if risk_rules.phrases else ()
    if text_rules is not None:
        from toolkit.risk.runs import term_rows, term_vocabulary

        vocabulary = term_vocabulary(rules, text_rules.max_run, function_words)
        tables[TERMS_TABLE] = term_rows(tables, text_rules.terms_from, vocabulary)
    risk: dict[str, object] | None = None
    if risk_rules.enabled and risk_rules.phrases is not None:
        from toolkit.risk import plan_risk
        from toolkit.risk.phrases import PhraseFinder, phrase_keys

        finder = PhraseFinder(risk_rules.phrases, rules)
        phrases = phrase_keys(tables, risk_rules.phrases, finder).lazy()
        lazy = {name: frame.lazy() for name, frame in tables.items()}
        view_columns = [column for view in risk_rules.views.values() for column in view.columns]
        before = values_in(lazy, view_columns)
        proof["quasi_identifier_cells"] = sum(before[column] for column in view_columns)
        proof["quasi_identifier_columns"] = before
        plan = plan_risk(lazy, risk_rules, phrases, finder, phrases_distinct=True)  # one batch's: distinct
        risk = plan.to_json()
        if not plan.written:
            return Release(tables, verification, actions, budget, risk, **proof)
        tables = {name: plan.apply(name, frame.lazy()).collect() for name, frame in tables.items()}
    text = None
    if text_rules is not None:
        from toolkit.risk.runs import allowed_sets, anonymize_text

        allowed, terms = allowed_sets(rules, text_rules.max_run, function_words)
        tables, text = anonymize_text(tables, text_rules, risk_rules.k, allowed, terms)
    return Release(tables, verification, actions, budget, risk, text, **proof)


@_public
def scrub_frame(
    frame: pl.DataFrame,
    text_columns: str | Sequence[str],
    rules_dir: PathLike | None = None,
    key: bytes | str | None = None,
) -> pl.DataFrame:
    """Scrub free-text columns (one name or a list) of a polars DataFrame; each row is one record. Row
    order and the other columns are kept. A LazyFrame, a pandas frame or a column that is not text is a
    `UsageError` that says what to pass."""
    from toolkit.scrub import scrub_frame as scrub_columns

    frame = _frame(frame)
    columns = _columns(text_columns)
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise UsageError(f"no column {', '.join(map(repr, missing))} in the frame (it has {frame.columns})")
    for column in columns:
        dtype = frame.schema[column]
        if dtype not in (pl.String, pl.Null):
            raise UsageError(
                f"column {column!r} holds {dtype}, not text: scrub only text columns, or cast it first "
                f"(frame.with_columns(pl.col({column!r}).cast(pl.String)))"
            )
    rules = load_privacy_rules(_folder(rules_dir, "rules_dir"))
    scrubbed, _ = scrub_columns(frame, columns, rules, _keyring(key, rules.policy.key.required))
    return scrubbed


@_public
def run(
    inputs: PathLike | Iterable[PathLike] | Any,
    out: PathLike,
    rules_dir: PathLike | None = None,
    key: bytes | str | None = None,
    private_dir: PathLike | None = None,
    jobs: int = 0,
    batch_size: int | None = None,
    engine: str = "local",
    master: str | None = None,
) -> dict[str, Any]:
    """The whole job, as `toolkit run`: returns the release's report envelope (also written to
    `out/report.json` when the release is written); its `exit_code` is what the command would exit with.
    `engine="spark"` runs the kernels on Spark (the active session, else one started on `master`, default
    `local[*]`); there `inputs` may also be a Spark DataFrame of documents (`path`, `content`, as
    `spark.read.format("binaryFile")` gives), parsed where it lies (`toolkit.spark.read_release` reads the
    release back as DataFrames). Raises `UsageError` for bad folders and `JobFault` when the job could not
    finish."""
    from toolkit import pipeline
    from toolkit.job_config import DEFAULT_BATCH_SIZE, JobSettings
    from toolkit.outputs import check_inputs

    jobs = _count(jobs, "jobs", 0)
    batch_size = _count(batch_size, "batch_size", 1) if batch_size is not None else None
    if engine not in ("local", "spark"):
        raise UsageError(f"engine: give 'local' or 'spark', not {engine!r}")
    if master is not None and engine != "spark":
        raise UsageError("master: only with engine='spark'")
    settings = JobSettings(
        jobs=jobs,
        batch_size=batch_size or DEFAULT_BATCH_SIZE,
        progress=False,
        engine=engine,
        master=master,
    )
    rules = pipeline.job_rules(_folder(rules_dir, "rules_dir"))
    assert rules.privacy is not None
    source = None
    if type(inputs).__module__.startswith("pyspark.sql"):  # a DataFrame, without importing PySpark here
        if engine != "spark":
            raise UsageError("inputs: a Spark DataFrame of documents needs engine='spark'")
        from toolkit.spark.documents import Documents

        source, paths = Documents(cast("DataFrame", inputs)), []
    else:
        paths = _paths(inputs, "inputs")
    folder = _given_folder(out, "out")
    check_inputs(paths)  # a mistyped path before a warning about the key
    return pipeline.run(
        paths,
        folder,
        rules,
        _keyring(key, rules.privacy.policy.key.required),
        private_dir=_folder(private_dir, "private_dir"),
        settings=settings,
        source=source,
    )

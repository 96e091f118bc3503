"""The `toolkit` command. Exit codes (`toolkit.errors.Exit`): 0 done and clean, 1 done with findings, 2 usage
or rules error, 3 no release written (blocked, or a fault). No traceback reaches the user for bad input,
bad rules or a fault: one line on stderr instead."""

from __future__ import annotations

import os

# One BLAS thread makes spaCy's small matrix products faster; it must be set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from toolkit._version import __version__
from toolkit.errors import Exit, JobFault, ToolkitError, UsageError
from toolkit.rules import (
    load_allowed_values,
    load_parsing_rules,
    load_privacy_rules,
    load_quality_rules,
    load_risk_rules,
)
from toolkit.text import plural

if TYPE_CHECKING:
    from toolkit.rules import PrivacyRules
    from toolkit.scrub import Keyring


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"toolkit: error: {message}", file=sys.stderr)
        raise SystemExit(Exit.USAGE)


_EXIT_CODES: dict[str, tuple[str, ...]] = {
    "parse": ("0  parsed", "1  some inputs rejected (rows of rejects)", "2  usage or rules error"),
    "validate": (
        "0  no error rule failed",
        "1  an error rule failed beyond its threshold, or inputs were rejected",
        "2  usage or rules error",
    ),
    "run": (
        "0  released, nothing to report",
        "1  released with findings: rejected inputs, failed error rules, persons kept out by verification",
        "2  usage or rules error: nothing was done",
        "3  no release written: blocked (see the card and the private report), or a fault",
    ),
    "scrub": (
        "0  scrubbed",
        "1  scrubbed, and the leak check withheld some cells",
        "2  usage or rules error",
    ),
    "check": (
        "0  nothing new found",
        "1  personal data found, or a file could not be read",
        "2  usage or rules error",
    ),
    "lint-rules": ("0  the rules load and compile", "2  a rules error, named by file and key"),
}
_EXAMPLES = {
    "parse": ("toolkit parse sample_data --out out/parsed",),
    "validate": ("toolkit validate sample_data --report quality.json --quarantine out/quarantine",),
    "run": (
        "export TOOLKIT_SECRET='a secret of 16 bytes or more'",
        "toolkit run sample_data --out out/release --require-key",
    ),
    "scrub": ("toolkit scrub notes.csv --text-column text --out notes.scrubbed.csv --report scrub.json",),
    "check": (
        "toolkit check data/people.csv",
        "toolkit check --update-baseline data/people.csv   # accept findings that are not personal data",
    ),
    "lint-rules": ("toolkit lint-rules --rules my-rules",),
}


def _epilog(command: str) -> str:
    codes = "\n".join(f"  {line}" for line in _EXIT_CODES[command])
    example = "\n".join(f"  {line}" for line in _EXAMPLES[command])
    return f"exit codes:\n{codes}\n\nexample:\n{example}"


def _command(commands: Any, name: str, help: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=help, epilog=_epilog(name), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    return parser


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        type=Path,
        default=None,
        metavar="DIR",
        help="rules folder to use instead of the defaults (or set TOOLKIT_RULES)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="toolkit", description="Make developer-profile datasets safe to share.")
    parser.add_argument("--version", action="version", version=f"toolkit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    parse = _command(commands, "parse", "parse raw profiles into the contract's tables (private data)")
    parse.add_argument("inputs", nargs="+", metavar="INPUT", help="files or folders (searched recursively)")
    parse.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for <table>.parquet")
    add_rules_option(parse)

    validate = _command(
        commands, "validate", "run the quality rules on raw inputs or on a folder written by `toolkit parse`"
    )
    validate.add_argument(
        "inputs", nargs="+", metavar="INPUT", help="raw files or folders, or one parsed folder"
    )
    validate.add_argument("--report", type=Path, metavar="FILE", help="write the JSON report here")
    validate.add_argument(
        "--quarantine",
        type=Path,
        metavar="DIR",
        help="write rows that failed an error rule here, with their rule ids (private data)",
    )
    add_rules_option(validate)
    add_rules_from_repo_option(validate)

    run = _command(commands, "run", "the whole job: parse, validate, scrub, verify, write a release")
    run.add_argument("inputs", nargs="+", metavar="INPUT", help="raw files or folders, or one parsed folder")
    run.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="DIR",
        help="release folder: <table>.parquet, report.json and the card (README.md, report.html)",
    )
    run.add_argument(
        "--private",
        type=Path,
        metavar="DIR",
        help="folder for what must never be shared: quarantined, suppressed and rejected rows and the report "
        "that names the inputs (default: <out>.private, beside the release)",
    )
    run.add_argument(
        "--jobs",
        type=_count(0),
        default=0,
        metavar="N",
        help="worker processes (default 0: one per core; 1 runs everything in this process)",
    )
    run.add_argument(
        "--batch-size",
        type=_count(1),
        default=None,
        metavar="N",
        help="profiles per batch at most (default 500); the release does not depend on it",
    )
    run.add_argument(
        "--engine",
        choices=("local", "spark"),
        default="local",
        help="where the kernels run: this machine's processes (default), or Apache Spark (needs the "
        "toolkit[spark] extra and Java 17; the release is the same)",
    )
    run.add_argument(
        "--master",
        metavar="URL",
        help="the Spark master of the session the job starts (default local[*]; --engine spark only)",
    )
    add_key_option(run)
    add_json_option(run)
    add_rules_option(run)

    scrub = _command(commands, "scrub", "scrub free-text columns of any CSV, TSV, JSONL or Parquet table")
    scrub.add_argument("file", type=Path, metavar="FILE")
    scrub.add_argument("--text-column", action="append", required=True, metavar="COL", dest="text_columns",
                       help="a column of free text to scrub (repeat for several)")  # fmt: skip
    scrub.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="scrubbed table, same format by extension"
    )
    scrub.add_argument("--report", type=Path, metavar="FILE", help="write the JSON report here")
    scrub.add_argument(
        "--k", type=int, default=None, metavar="N",
        help="rows are persons: also cut every run of words that fewer than N rows hold (off by default)",
    )  # fmt: skip
    add_delimiter_option(scrub)
    add_key_option(scrub)
    add_json_option(scrub)
    add_rules_option(scrub)

    check = _command(commands, "check", "find personal data in data files (the pre-commit scan)")
    add_check_arguments(check)

    lint = _command(commands, "lint-rules", "load every rules file and compile the quality rules")
    add_rules_option(lint)
    add_rules_from_repo_option(lint)
    return parser


def _count(least: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}")
        return value

    return parse


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """Shared by `toolkit check` and the `scan-pii` pre-commit hook, which calls it."""
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="data files to scan")
    parser.add_argument("--deep", action="store_true", help="also find people's names with NER (slower)")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="FILE",
        help="accepted findings (default: .pii-baseline.json at the repository's root)",
    )
    parser.add_argument(
        "--update-baseline",
        action="store_true",
        help="accept the findings of the files scanned now into the baseline, keeping those of other files",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "sarif"),
        default="text",
        help="report as lines (default), a JSON envelope, or a SARIF 2.1.0 log",
    )
    parser.add_argument(
        "--hook",
        metavar="ID",
        default=None,
        help="running as the pre-commit hook ID: a failure says how to accept findings through pre-commit",
    )
    add_delimiter_option(parser)
    add_rules_option(parser)
    add_rules_from_repo_option(parser)


def add_delimiter_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--delimiter",
        type=_delimiter,
        default="auto",
        metavar="SEP",
        help="of CSV and TSV files: , ; | tab, or auto (default: sniffed, else , for .csv and tab for .tsv)",
    )


def add_key_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--key-file",
        type=Path,
        metavar="FILE",
        help="secret for keyed pseudonyms (default: TOOLKIT_SECRET; without either, a random key per run)",
    )
    parser.add_argument(
        "--require-key",
        action="store_true",
        help="stop (exit 2) without a key instead of using a random one (also: key: required: true in "
        "rules/privacy.yaml)",
    )


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a machine-readable JSON summary instead")


def _keyring(args: argparse.Namespace, privacy: PrivacyRules) -> Keyring:
    from toolkit.scrub import keyring

    return keyring(args.key_file, required=args.require_key or privacy.policy.key.required)


def _parse(args: argparse.Namespace) -> Exit:
    from toolkit import pipeline

    rules = load_parsing_rules(args.rules)
    outcome = pipeline.parse_to_dir(args.inputs, args.out, rules)
    print(f"{outcome.summary()}; tables written to {args.out}")
    return Exit.CLEAN if outcome.clean else Exit.FINDINGS


def _validate(args: argparse.Namespace) -> Exit:
    from toolkit import pipeline

    rules = rules_dir(args)
    parsing, quality = load_parsing_rules(rules), load_quality_rules(rules)
    privacy = load_privacy_rules(rules)
    report = pipeline.validate(
        args.inputs, parsing, quality, args.quarantine, privacy=privacy, report_file=args.report
    )
    if args.report is not None:
        report.write(args.report)
    for line in report.summary_lines():
        print(line)
    return Exit(report.exit_code)


def _run(args: argparse.Namespace) -> Exit:
    from toolkit import pipeline
    from toolkit.job_config import DEFAULT_BATCH_SIZE, JobSettings
    from toolkit.report import job_summary_lines

    if args.master is not None and args.engine != "spark":
        raise UsageError("--master needs --engine spark")
    settings = JobSettings(
        jobs=args.jobs,
        batch_size=args.batch_size or DEFAULT_BATCH_SIZE,
        progress=not args.json,
        engine=args.engine,
        master=args.master,
    )
    rules = pipeline.job_rules(args.rules)
    assert rules.privacy is not None
    envelope = pipeline.run(
        args.inputs,
        args.out,
        rules,
        _keyring(args, rules.privacy),
        private_dir=args.private,
        settings=settings,
    )
    if args.json:
        print(json.dumps(envelope, ensure_ascii=False))
    else:
        for line in job_summary_lines(envelope, str(args.out)):
            print(line)
        if envelope["counts"]["rejected_inputs"]:
            _list_rejects(args.private or pipeline.default_private_dir(args.out))
    return Exit(envelope["exit_code"])


_REJECTS_SHOWN = 5


def _list_rejects(private: Path) -> None:
    """The first rejected inputs (paths are the user's own: the terminal may show them; the release never
    does), and where all of them are listed."""
    try:
        rejects = json.loads((private / "report.json").read_text(encoding="utf-8")).get("rejects", [])
    except (OSError, ValueError):
        return
    for reject in rejects[:_REJECTS_SHOWN]:
        detail = f" ({reject['detail']})" if reject.get("detail") else ""
        print(f"rejected {reject['source']}: {reject['reason']}{detail}", file=sys.stderr)
    more = f"the other {len(rejects) - _REJECTS_SHOWN} and " if len(rejects) > _REJECTS_SHOWN else ""
    print(
        f"{more}every rejected input with its reason: {private / 'report.json'} (rejects) and "
        f"{private / 'rejects.parquet'}; private: never share them",
        file=sys.stderr,
    )


def _k_of(k: int | None) -> int | None:
    if k is not None and k < 2:
        raise UsageError(f"--k: give a number of rows of at least 2, not {k}")
    return k


def _scrub(args: argparse.Namespace) -> Exit:
    from toolkit import pipeline
    from toolkit.publish import write_json

    privacy = load_privacy_rules(args.rules)
    report = pipeline.scrub_file(
        args.file,
        args.out,
        list(dict.fromkeys(args.text_columns)),  # a column named twice is scrubbed once
        privacy,
        _keyring(args, privacy),
        delimiter=args.delimiter,
        report_file=args.report,
        keep=[args.key_file] if args.key_file is not None else [],
        k=_k_of(args.k),
        risk=load_risk_rules(args.rules) if args.k is not None else None,
    )
    if args.report is not None:
        write_json(args.report, report)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return Exit(report["exit_code"])
    replaced = ", ".join(f"{entity}: {n}" for entity, n in report["entities_replaced"].items()) or "nothing"
    print(f"scrubbed {plural(report['rows'], 'row')} of {args.file} into {args.out}; replaced {replaced}")
    verification = report["verification"]
    for hit in verification["hits"]:
        values = plural(hit["values"], "value")
        print(f"LEAK    {hit['column']}: {hit['kind']} in {values}", file=sys.stderr)
    if verification["values_withheld"]:
        values = plural(verification["values_withheld"], "value")
        print(
            f"the leak check still found personal data in {values} after scrubbing: "
            f"written as {pipeline.WITHHELD}",
            file=sys.stderr,
        )
    return Exit(report["exit_code"])


def add_rules_from_repo_option(parser: argparse.ArgumentParser) -> None:
    """`--rules-from-repo`, which the pre-commit hooks pass: see `rules_dir`."""
    parser.add_argument(
        "--rules-from-repo",
        action="store_true",
        help="use the rules/ folder at the git repository's root when it holds toolkit rules "
        "(--rules and TOOLKIT_RULES win over it)",
    )


def rules_dir(args: argparse.Namespace) -> Path | None:
    """The rules folder a command reads: `--rules`; else, with `--rules-from-repo` and no `TOOLKIT_RULES`,
    `<git root>/rules` when it is a toolkit rules folder (used whole: a file it lacks is an error naming
    it); else None, the defaults."""
    if args.rules is not None:
        return Path(args.rules)
    if getattr(args, "rules_from_repo", False) and not os.environ.get("TOOLKIT_RULES"):
        from toolkit.check import repo_rules_dir

        return repo_rules_dir()
    return None


def _delimiter(text: str) -> str:
    from toolkit.tabular import DELIMITER_NAMES

    if text not in DELIMITER_NAMES:
        raise argparse.ArgumentTypeError(f"not one of: auto , ; | tab (got {text!r})")
    return text


def _emit(lines: Sequence[str]) -> bool:
    """Print the lines; False when the reader went away (`toolkit check | head -1`). Then the rest of the
    output goes to the null device, as the Python documentation recommends, so that neither this nor the
    final flush in `entry` reports a broken pipe."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return False
    return True


def _check(args: argparse.Namespace) -> Exit:
    from toolkit.check import (
        BASELINE_NAME,
        UNREADABLE,
        Baseline,
        Scanner,
        Workspace,
        report_json,
        report_sarif,
    )

    if args.update_baseline and args.format != "text":
        raise UsageError("--update-baseline writes the baseline and reports no findings: drop --format")
    workspace = Workspace.here()
    files = workspace.files(args.files)
    baseline = Baseline.load(
        args.baseline if args.baseline is not None else workspace.root / BASELINE_NAME,
        migrate=args.update_baseline,
    )
    rules = rules_dir(args)
    scanner = Scanner(load_privacy_rules(rules), load_allowed_values(rules), args.deep, workspace)
    findings = scanner.scan(files, delimiter=args.delimiter)
    if args.update_baseline:
        summary = baseline.update(findings, {workspace.relative(path) for path in files}, workspace)
        baseline.write()
        unreadable = [f for f in findings if f.entity == UNREADABLE]
        _emit([f.line_text() for f in unreadable] + [summary])
        return Exit.FINDINGS if unreadable else Exit.CLEAN
    new = baseline.new(findings)
    code = Exit.FINDINGS if new else Exit.CLEAN
    if args.format == "json":
        envelope = report_json(new, len(files), len(findings) - len(new), int(code))
        _emit([json.dumps(envelope, ensure_ascii=False, indent=2)])
    elif args.format == "sarif":
        _emit([json.dumps(report_sarif(new, baseline), ensure_ascii=False, indent=2)])
    elif _emit([f.line_text() for f in new]) and new:
        found = f"{plural(len(new), 'finding')} in {plural(len({f.uri for f in new}), 'file')}"
        print(f"personal data found: {found}", file=sys.stderr)
        print(_next_step(sorted({f.path for f in new}), args.hook), file=sys.stderr)
    return code


def _next_step(paths: Sequence[str], hook: str | None) -> str:
    """What to do about findings: remove them, or accept those that are not personal data, with the command
    that does it from where the scan ran (a pre-commit hook's environment is not on the shell's PATH)."""
    import shlex

    files = " ".join(shlex.quote(path) for path in paths)
    accept = (
        f"pre-commit run accept-pii --hook-stage manual --files {files}"
        if hook
        else f"toolkit check --update-baseline {files}"
    )
    return (
        "next: remove or mask these values and scan again; or, if they are not personal data, accept them "
        f"(recorded by hash in the baseline, .pii-baseline.json, which you commit with them):\n  {accept}"
    )


def _lint_rules(args: argparse.Namespace) -> Exit:
    from toolkit.model import ProfileSet
    from toolkit.quality import validate_tables
    from toolkit.scrub.engine import check_model

    rules = rules_dir(args)
    load_parsing_rules(rules)
    privacy = load_privacy_rules(rules)
    check_model(privacy.policy.nlp)  # an NER model that is not installed would fail the first job
    load_risk_rules(rules)
    load_allowed_values(rules)
    quality = load_quality_rules(rules)
    validate_tables(ProfileSet.from_frames({}), quality)  # compiles every rule to pandera and runs it
    print(f"rules are valid: {len(quality.rules)} quality rules compile, the NER model loads")
    return Exit.CLEAN


_COMMANDS = {
    "parse": _parse,
    "validate": _validate,
    "run": _run,
    "scrub": _scrub,
    "check": _check,
    "lint-rules": _lint_rules,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(_COMMANDS[args.command](args))
    except JobFault as exc:
        print(f"toolkit: error: {exc}", file=sys.stderr)
        return int(Exit.BLOCKED)
    except KeyboardInterrupt:  # a signal outside a job's staging (while starting or finishing)
        print("toolkit: error: interrupted", file=sys.stderr)
        return int(Exit.BLOCKED)
    except ToolkitError as exc:
        print(f"toolkit: error: {exc}", file=sys.stderr)
        return int(Exit.USAGE)
    except OSError as exc:
        print(f"toolkit: error: {exc.strerror or exc} ({exc.filename or 'output'})", file=sys.stderr)
        return int(Exit.USAGE)


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def entry() -> NoReturn:
    """The `toolkit` command: `main`, then an exit that skips the interpreter's teardown. With spaCy and
    Presidio loaded, tearing down thousands of modules takes about half a second and has nothing left to
    do: every output file is closed by then, and only the standard streams need flushing."""
    signal.signal(signal.SIGTERM, _terminated)
    code = main()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # done: a late Ctrl-C must not undo the exit code
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logging.shutdown()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass  # a reader that went away (`toolkit check | head`): nothing more can be said
    os._exit(code)

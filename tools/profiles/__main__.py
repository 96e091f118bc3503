"""Write generated profiles to a folder, 1,000 to a sub-folder, streaming (memory does not grow with N).

Run: python -m tools.profiles OUT --count N [--seed S] [--planted | --scrape] [--truth] [--expected] [--check]

  OUT/0000/doc000000.txt ... OUT/0000/doc000999.txt, OUT/0001/doc001000.txt, ...
  OUT/truth.jsonl (with --truth): one line per document, its file and truth (and expected rows with
  --expected). `toolkit run OUT` reads every file under OUT, truth.jsonl too: give it OUT/[0-9]* instead.
--planted writes the planted style (Faker names, planted identifiers); --scrape the planted style skewed
as a scrape is (head employers, titles, places; a long tail of small firms) with rare phrases per person;
the default is the seed style.
--check then parses the documents with the toolkit and reports any that do not parse as intended (it holds
them all in memory: for small counts).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from tools.profiles import PLANTED, SCRAPE, SEED, Profile, check, generate, write_documents


def main(argv: Sequence[str] | None = None) -> int:
    options = argparse.ArgumentParser(prog="python -m tools.profiles", description=__doc__.splitlines()[0])
    options.add_argument("out", type=Path, help="folder to write (created; files in it are overwritten)")
    options.add_argument("--count", type=int, required=True, help="how many documents")
    options.add_argument("--seed", type=int, default=7)
    options.add_argument("--planted", action="store_true", help="planted identifiers (Faker names)")
    options.add_argument(
        "--scrape", action="store_true", help="planted, skewed as a scrape, with rare phrases per person"
    )
    options.add_argument("--resume-share", type=float, default=0.4, help="share of résumés (0.4)")
    options.add_argument("--truth", action="store_true", help="write OUT/truth.jsonl")
    options.add_argument("--expected", action="store_true", help="with --truth, the expected rows too")
    options.add_argument("--check", action="store_true", help="parse them with the toolkit and check")
    args = options.parse_args(argv)
    style = SCRAPE if args.scrape else PLANTED if args.planted else SEED
    layouts: Counter[str] = Counter()

    def counted(docs: Iterator[Profile]) -> Iterator[Profile]:
        for doc in docs:
            layouts[doc.layout] += 1
            yield doc

    started = time.perf_counter()
    docs = counted(generate(args.count, args.seed, style, args.resume_share))
    truth = args.out / "truth.jsonl" if args.truth else None
    written = write_documents(args.out, docs, truth, args.expected)
    seconds = time.perf_counter() - started
    print(
        f"{written} {style.name} documents ({layouts['talent_page']} talent pages, {layouts['resume']} "
        f"résumés) under {args.out} in {seconds:.1f} s" + (f"; truth in {truth}" if truth else "")
    )
    if not args.check:
        return 0
    problems = check(list(generate(args.count, args.seed, style, args.resume_share)), style)
    for problem in problems[:50]:
        print(problem, file=sys.stderr)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

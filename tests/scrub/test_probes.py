"""A pattern's probe: the look-behind every match needs, searched forwards; a text without it is not read by
the pattern, and what the recognizers find is the same with probes and without, and with the engine's
screens (`toolkit.screens`) and without."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.screens import Screen
from toolkit.scrub.engine import _Running
from toolkit.scrub.probes import lookbehind_probe
from toolkit.scrub.text import TextScrubber

DATA = Path(__file__).parent / "data" / "prose_dev_small.jsonl"
SAMPLE = Path(__file__).parent.parent.parent / "sample_data"


@pytest.mark.parametrize(
    ("pattern", "probe"),
    [
        (r"(?<=\b(?i:born|dob)\s?:?\s?)\d{4}", r"\b(?i:born|dob)\s?:?\s?"),
        (r"(?<=(?:Dr|Prof)\.? )\p{Lu}\p{Ll}+", r"(?:Dr|Prof)\.? "),
        (r"(?<=[(\[]at[)\]] )\w+", r"[(\[]at[)\]] "),  # a class holding a bracket
        (r"(?<=tel:)\d+|\+\d{6,}", None),  # an alternative without the look-behind
        (r"(?<=\b(?:phone|tel)\s*+)\d+", None),  # possessive: reads differently backwards
        (r"(?<=(?>ab|a)b)c", None),  # atomic group
        (r"(?<=(a)\1)b", None),  # back-reference
        (r"\b(?<=x)y", None),  # not first
        (r"(?<!x)y", None),  # a negative look-behind needs nothing
        (r"(?<=x", None),  # never closes
    ],
)
def test_the_probe_of_a_pattern(pattern: str, probe: str | None) -> None:
    assert lookbehind_probe(pattern) == probe


def _texts() -> list[str]:
    lines = DATA.read_text(encoding="utf-8").splitlines()
    texts = [json.loads(line)["text"] for line in lines]
    texts += [path.read_text(encoding="utf-8") for path in sorted(SAMPLE.rglob("*.txt"))]
    return texts


def test_probes_change_no_finding(scrubber: TextScrubber) -> None:
    texts = _texts()
    probed = [running for running in scrubber.engine.recognizers if any(p[2] for p in running.patterns)]
    assert len(probed) >= 10
    skipped = 0
    for running in probed:
        plain = _Running(
            running.order,
            running.requires,
            running.recognizer,
            running.name_words,
            [(pattern, score, None, place) for pattern, score, _, place in running.patterns],
            running.unknown_words,
            running.name,
        )
        for text in texts:
            found = [finding[:4] for finding in running.findings(text)]
            assert found == [finding[:4] for finding in plain.findings(text)], (running.name, text)
            skipped += sum(1 for _, _, probe, _ in running.patterns if probe and not probe.search(text))
    assert skipped > len(texts)  # most texts hold no cue: the probes spare work


def test_screens_change_no_finding(scrubber: TextScrubber) -> None:
    engine = scrubber.engine
    texts = _texts()
    engine.forget()
    screened = engine.recognized(texts)
    screen = engine.screen
    try:
        engine.screen = Screen([None] * len(screen.required))
        engine.forget()
        assert engine.recognized(texts) == screened
    finally:
        engine.screen = screen
    assert sum(r is not None for r in screen.required) >= 60  # most patterns need one of a few strings
    ruled_out = sum(not possible for row in screen.possible(texts) for possible in row)
    assert ruled_out > 20 * len(texts)

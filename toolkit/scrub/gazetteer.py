"""A first-name recognizer: a known given name followed by capitalised words that are not allowed terms.

NER misses names at the top of a document, unusual or accented names and names in capitals; a gazetteer
of given names catches many of them ("Marcelo Sales", "MARIA SILVA"), and the allow-list keeps it off
technical phrases ("Julia Kernels" is not a person when Julia is not in the gazetteer; "Ray Tune" is not
when "Tune" is allowed... only if every following word is allowed).
"""

from __future__ import annotations

import regex
from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from toolkit.names import PARTICLES
from toolkit.text import fold

_CANDIDATE = regex.compile(
    r"(?<![\p{L}\p{N}])(?P<first>\p{Lu}[\p{Ll}\p{Lu}]+)(?P<rest>(?:\s+(?:"
    + "|".join(sorted(PARTICLES))
    + r"))*(?:\s+\p{Lu}[\p{L}'\u2019-]*\p{L}){1,2})"
)
SCORE = 0.7


class FirstNameRecognizer(LocalRecognizer):
    """PERSON: a given name from the gazetteer, then one or two capitalised words (particles allowed)."""

    def __init__(self, first_names: frozenset[str], allow_list: frozenset[str]) -> None:
        self.first_names = first_names
        self.allow_list = allow_list
        super().__init__(supported_entities=["PERSON"], name="first_name_gazetteer", supported_language="en")

    def load(self) -> None:
        """Nothing to load: the names come with the rules."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results = []
        for match in _CANDIDATE.finditer(text):
            first = match["first"]
            if first.capitalize() not in self.first_names or (first.isupper() != match["rest"].isupper()):
                continue
            following = [word for word in match["rest"].split() if word.lower() not in PARTICLES]
            if all(fold(word) in self.allow_list for word in following):
                continue
            results.append(RecognizerResult("PERSON", match.start(), match.end(), SCORE))
        return results

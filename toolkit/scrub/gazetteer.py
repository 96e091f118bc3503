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
    r"(?<![\p{L}\p{N}])(?P<first>\p{Lu}[\p{Ll}\p{Lu}]+)(?P<rest>(?:[^\S\n]+(?:"
    + "|".join(sorted(PARTICLES))
    + r"|\p{Lu}\.?(?=[^\S\n])))*(?:[^\S\n]+\p{Lu}[\p{L}'\u2019-]*\p{L}){1,2})"
)
"""A given name, then (on the same line) particles or initials ('Renze S Akkermans'), then one or two
capitalised words."""
_ALONE = regex.compile(r"(?<![\p{L}\p{N}'\u2019.-])\p{Lu}\p{Ll}{2,}(?![\p{L}\p{N}-])(?![^\S\n]+\p{Lu})")
"""A capitalised word on its own: not followed by another capitalised word (the candidate above)."""
SCORE = 0.7
ALONE_SCORE = 0.6


class FirstNameRecognizer(LocalRecognizer):
    """PERSON: a given name from the gazetteer, then one or two capitalised words (particles allowed);
    or a given name alone ('Mitchell is a very sympathetic person') when it is neither an allowed term nor
    an English word ('Will', 'Grace', 'Hugo' when the allow-list has it are no one alone)."""

    NAME = "first_name_gazetteer"

    def __init__(
        self,
        first_names: frozenset[str],
        allow_list: frozenset[str],
        english_words: frozenset[str] = frozenset(),
    ) -> None:
        self.first_names = first_names
        self.allow_list = allow_list
        self.english_words = english_words
        super().__init__(supported_entities=["PERSON"], name=self.NAME, supported_language="en")

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
        if self.english_words:
            for match in _ALONE.finditer(text):
                word = match.group()
                folded = fold(word)
                if (
                    word in self.first_names
                    and folded not in self.allow_list
                    and folded not in self.english_words
                ):
                    results.append(RecognizerResult("PERSON", match.start(), match.end(), ALONE_SCORE))
        return results


_PLACE_WORD = r"\p{Lu}[\p{L}\p{M}'\u2019.-]*\p{L}"
_PLACE_CANDIDATE = regex.compile(
    rf"(?<![\p{{L}}\p{{N}}@/._-]){_PLACE_WORD}(?:[^\S\n]+(?:(?:de|do|da|del|la|el|am|upon|on|of)[^\S\n]+)?{_PLACE_WORD}){{0,3}}"
    r"(?![\p{L}\p{N}@_-]|\.[\p{L}\p{N}])"
)
"""A run of one to four capitalised words on one line (with the connectors of place names: 'Rio de
Janeiro'), not inside an address, a path or a handle."""
_WORD = regex.compile(r"\S+")
PLACE_SCORE = 0.7


class PlaceRecognizer(LocalRecognizer):
    """LOCATION: the longest run of capitalised words that names a known place (`rules/vocabularies/
    places.yaml`: countries and large cities), compared folded. The small NER model takes many places for
    persons ('Kraków', 'Bangalore'); a place found here is also learned as one, so the record's other
    mentions of it are places too."""

    NAME = "place_gazetteer"

    def __init__(self, places: frozenset[str]) -> None:
        self.places = places
        self.longest = max((len(place.split()) for place in places), default=0)
        super().__init__(supported_entities=["LOCATION"], name=self.NAME, supported_language="en")

    def load(self) -> None:
        """Nothing to load: the places come with the rules."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results = []
        for match in _PLACE_CANDIDATE.finditer(text):
            words = list(_WORD.finditer(match.group()))
            start = 0
            while start < len(words):
                for end in range(min(len(words), start + self.longest), start, -1):
                    first, last = words[start], words[end - 1]
                    if fold(match.group()[first.start() : last.end()]) in self.places:
                        results.append(
                            RecognizerResult(
                                "LOCATION",
                                match.start() + first.start(),
                                match.start() + last.end(),
                                PLACE_SCORE,
                            )
                        )
                        start = end - 1
                        break
                start += 1
        return results

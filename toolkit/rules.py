"""The only reader of `rules/`: YAML files in, typed and frozen models out.

A mistake in a rules file becomes one `RulesError` naming the file and the key. The default rules are the
repository's `rules/` folder, shipped inside the wheel as `toolkit/_rules`; `TOOLKIT_RULES` or an explicit
folder overrides them (users copy `rules/` and edit it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from toolkit.errors import RulesError
from toolkit.text import clean

_PACKAGED = Path(__file__).parent / "_rules"
_SOURCE_TREE = Path(__file__).parent.parent / "rules"

PARSING_FILE = "parsing.yaml"
TECHNICAL_TERMS_FILE = "vocabularies/technical_terms.yaml"
SPOKEN_LANGUAGES_FILE = "vocabularies/spoken_languages.yaml"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _clean_words(values: tuple[str, ...]) -> tuple[str, ...]:
    words = tuple(clean(v) for v in values)
    if any(not w for w in words):
        raise ValueError("entries must not be blank")
    return words


class ParsingFile(_Frozen):
    """`rules/parsing.yaml`: the wording of the layouts the parser knows."""

    site_footers: tuple[str, ...] = Field(
        description="Marketing text a site appends; a line is cut where one of these starts."
    )
    badges: tuple[str, ...] = Field(description="Badge labels a talent page shows above the bio.")
    award_keywords: tuple[str, ...] = Field(
        description="Words that mark a line of a résumé's trailing list as an award title, not an issuer."
    )
    max_input_bytes: int = Field(gt=0, description="Inputs larger than this are rejected as too_large.")

    _check_words = field_validator("site_footers", "badges", "award_keywords")(_clean_words)


class VocabularyFile(_Frozen):
    """A vocabulary: a list of terms, compared case-insensitively."""

    terms: tuple[str, ...] = Field(min_length=1)

    _check_words = field_validator("terms")(_clean_words)


class ParsingRules(_Frozen):
    """Everything the parse stage reads from `rules/`."""

    site_footers: tuple[str, ...]
    badges: tuple[str, ...]
    award_keywords: tuple[str, ...]
    max_input_bytes: int
    technical_terms: frozenset[str] = Field(description="Lower-cased known tags, skills and tools.")
    spoken_languages: frozenset[str] = Field(description="Lower-cased names of human languages.")


def default_rules_dir() -> Path:
    """`TOOLKIT_RULES` if set, else the rules shipped in the wheel, else the source tree's `rules/`."""
    env = os.environ.get("TOOLKIT_RULES")
    if env:
        return Path(env)
    return _PACKAGED if _PACKAGED.is_dir() else _SOURCE_TREE


_M = TypeVar("_M", bound=BaseModel)


def _load(rules_dir: Path, name: str, model: type[_M]) -> _M:
    path = rules_dir / name
    shown = str(path)
    try:
        raw: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(shown, "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(shown, "", f"cannot be read ({exc.__class__.__name__})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise RulesError(shown, "", f"not valid YAML{where}") from None
    if not isinstance(raw, dict):
        raise RulesError(shown, "", "must be a mapping of keys to values")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise RulesError(shown, key, first["msg"]) from None


def load_parsing_rules(rules_dir: Path | None = None) -> ParsingRules:
    """Read the parser's rules and vocabularies. Raises `RulesError` naming the file and key at fault."""
    rules_dir = rules_dir or default_rules_dir()
    parsing = _load(rules_dir, PARSING_FILE, ParsingFile)
    terms = _load(rules_dir, TECHNICAL_TERMS_FILE, VocabularyFile)
    languages = _load(rules_dir, SPOKEN_LANGUAGES_FILE, VocabularyFile)
    return ParsingRules(
        **parsing.model_dump(),
        technical_terms=frozenset(t.lower() for t in terms.terms),
        spoken_languages=frozenset(t.lower() for t in languages.terms),
    )

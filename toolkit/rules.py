"""The only reader of `rules/`: YAML files in, typed and frozen models out.

A mistake in a rules file becomes one `RulesError` naming the file and the key. The default rules are the
repository's `rules/` folder, shipped inside the wheel as `toolkit/_rules`; `TOOLKIT_RULES` or an explicit
folder overrides them (users copy `rules/` and edit it).
"""

from __future__ import annotations

import difflib
import os
import re
import typing
from collections.abc import Callable, Iterable
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import polars as pl
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from toolkit.errors import RulesError
from toolkit.text import clean, fold

_PACKAGED = Path(__file__).parent / "_rules"
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the same, faster
_SOURCE_TREE = Path(__file__).parent.parent / "rules"

PARSING_FILE = "parsing.yaml"
TECHNICAL_TERMS_FILE = "vocabularies/technical_terms.yaml"
SPOKEN_LANGUAGES_FILE = "vocabularies/spoken_languages.yaml"
FORMATS_FILE = "formats.yaml"
COUNTRY_CODES_FILE = "vocabularies/country_codes.yaml"


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
    max_input_bytes: int = Field(
        gt=0, le=2**40, description="Inputs larger than this are rejected as too_large (at most 1 TiB)."
    )

    _check_words = field_validator("site_footers", "badges", "award_keywords")(_clean_words)


class VocabularyFile(_Frozen):
    """A vocabulary: a list of terms, compared case-insensitively. A long list of single words may be
    written as one text, the words separated by white space (it loads many times faster)."""

    terms: tuple[str, ...] = Field(min_length=1)

    _split_words = field_validator("terms", mode="before")(
        lambda value: tuple(value.split()) if isinstance(value, str) else value
    )
    _check_words = field_validator("terms")(_clean_words)


class VocabularyLines(_Frozen):
    """A vocabulary whose terms may hold spaces ('São Paulo'): a list, or one text with a term per line."""

    terms: tuple[str, ...] = Field(min_length=1)

    _split_lines = field_validator("terms", mode="before")(
        lambda value: (
            tuple(line.strip() for line in value.splitlines() if line.strip())
            if isinstance(value, str)
            else value
        )
    )
    _check_words = field_validator("terms")(_clean_words)


class ListedTerms(_Frozen):
    """A vocabulary a recognizer's pattern names (`\\L<name>`): a YAML list of terms, written as the
    pattern must match them (case included, unless the pattern ignores case)."""

    terms: tuple[str, ...] = Field(min_length=1)

    _check_words = field_validator("terms")(_clean_words)


class ExportFileKind(_Frozen):
    """One kind of file of a data export (`rules/formats.yaml`): the header names of each column."""

    needs: tuple[str, ...] = Field(min_length=1, description="Columns whose presence makes a file this kind.")
    columns: dict[str, tuple[str, ...]] = Field(description="Column -> the header names it goes by.")
    never_read: str | None = Field(
        default=None, description="Why a file of this kind is counted but its rows are never read."
    )

    @model_validator(mode="after")
    def _needs_are_columns(self) -> ExportFileKind:
        missing = [need for need in self.needs if need not in self.columns]
        if missing:
            raise ValueError(f"needs names columns not listed under columns: {', '.join(missing)}")
        if any(not names for names in self.columns.values()):
            raise ValueError("every column needs at least one header name")
        return self


class FormatsFile(_Frozen):
    """`rules/formats.yaml`: how the files of structured exports are recognised and read."""

    linkedin: dict[str, ExportFileKind] = Field(min_length=1)


class CountryCodesFile(_Frozen):
    """`rules/vocabularies/country_codes.yaml`: ISO 3166-1 alpha-2 code -> the country's name."""

    codes: dict[str, str] = Field(min_length=1)


class ParsingRules(_Frozen):
    """Everything the parse stage reads from `rules/`."""

    site_footers: tuple[str, ...]
    badges: tuple[str, ...]
    award_keywords: tuple[str, ...]
    max_input_bytes: int
    technical_terms: frozenset[str] = Field(description="Lower-cased known tags, skills and tools.")
    spoken_languages: frozenset[str] = Field(description="Lower-cased names of human languages.")
    linkedin: dict[str, ExportFileKind] = Field(default_factory=dict)
    country_codes: dict[str, str] = Field(default_factory=dict, description="Upper-case code -> name.")


def default_rules_dir() -> Path:
    """`TOOLKIT_RULES` if set, else the rules shipped in the wheel, else the source tree's `rules/`."""
    env = os.environ.get("TOOLKIT_RULES")
    if env:
        return Path(env)
    return _PACKAGED if _PACKAGED.is_dir() else _SOURCE_TREE


_M = TypeVar("_M", bound=BaseModel)


def _load(
    rules_dir: Path, name: str, model: type[_M], prepare: Callable[[dict[str, Any]], None] | None = None
) -> _M:
    """`rules_dir/name` read into `model`; `prepare` may rewrite the raw mapping first (and raise
    `RulesError`)."""
    path = rules_dir / name
    shown = str(path)
    try:
        raw: Any = yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
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
    if prepare is not None:
        prepare(raw)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        loc, problem = _first_problem(exc, model)
        key = ".".join(str(part) for part in loc) or "(top level)"
        raise RulesError(shown, key, problem + _rule_named(raw, loc)) from None


def _first_problem(exc: ValidationError, model: type[BaseModel]) -> tuple[tuple[int | str, ...], str]:
    """The error to show first: an unknown key explains a missing one beside it (`severty:` is why
    `severity` is missing), so it comes first, with the known key of its level it is closest to."""
    errors = exc.errors()
    unknown = [error for error in errors if error["type"] == "extra_forbidden"]
    if not unknown:
        return tuple(errors[0]["loc"]), errors[0]["msg"]
    loc = tuple(unknown[0]["loc"])
    missing = [
        str(e["loc"][-1]) for e in errors if e["type"] == "missing" and tuple(e["loc"][:-1]) == loc[:-1]
    ]
    known = missing + [name for name in _fields_at(model, loc[:-1]) if name not in missing]
    close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6) or missing[:1]
    return loc, "unknown key" + (f" (did you mean {close[0]}?)" if close else "")


def _fields_at(model: type[BaseModel], path: tuple[int | str, ...]) -> list[str]:
    """The keys a model takes at `path` (list positions and mapping keys pass through), or none known."""
    current: Any = model
    for part in path:
        if isinstance(part, int):
            continue
        fields = getattr(current, "model_fields", None)
        if not isinstance(fields, dict) or part not in fields:
            return []
        current = _model_in(fields[part].annotation)
        if current is None:
            return []
    fields = getattr(current, "model_fields", None)
    return list(fields) if isinstance(fields, dict) else []


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model an annotation holds (`Rule`, `tuple[Rule, ...]`, `Rule | None`), if exactly one."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    found = {model for arg in typing.get_args(annotation) if (model := _model_in(arg)) is not None}
    return found.pop() if len(found) == 1 else None


def _rule_named(raw: dict[str, Any], loc: tuple[int | str, ...]) -> str:
    """' (rule <id>)' when `loc` points inside an entry of a list that has an id."""
    if len(loc) >= 2 and isinstance(loc[1], int) and isinstance(raw.get(str(loc[0])), list):
        entries = raw[str(loc[0])]
        if loc[1] < len(entries) and isinstance(entries[loc[1]], dict) and "id" in entries[loc[1]]:
            return f" (rule {entries[loc[1]]['id']})"
    return ""


def load_parsing_rules(rules_dir: Path | None = None) -> ParsingRules:
    """Read the parser's rules and vocabularies. Raises `RulesError` naming the file and key at fault."""
    rules_dir = rules_dir or default_rules_dir()
    parsing = _load(rules_dir, PARSING_FILE, ParsingFile)
    terms = _load(rules_dir, TECHNICAL_TERMS_FILE, VocabularyFile)
    languages = _load(rules_dir, SPOKEN_LANGUAGES_FILE, VocabularyFile)
    formats = _load(rules_dir, FORMATS_FILE, FormatsFile)
    countries = _load(rules_dir, COUNTRY_CODES_FILE, CountryCodesFile)
    return ParsingRules(
        **parsing.model_dump(),
        technical_terms=frozenset(t.lower() for t in terms.terms),
        spoken_languages=frozenset(t.lower() for t in languages.terms),
        linkedin=formats.linkedin,
        country_codes={code.upper(): name for code, name in countries.codes.items()},
    )


# --- Quality rules: rules/quality.yaml -------------------------------------------------------------------

QUALITY_FILE = "quality.yaml"

CheckKind = Literal[
    "not_null",
    "unique",
    "in_range",
    "matches",
    "one_of",
    "references",
    "ordered",
    "duration_agrees",
    "declared_count",
    "no_repeat",
    "no_match",
]
TableName = Literal["profiles", "education", "skills", "contributions", "experience", "awards"]


class NoParams(_Frozen):
    """unique, ordered, no_repeat: nothing to set."""


class NotNullParams(_Frozen):
    when: dict[str, str] = Field(
        default_factory=dict, description="Only rows where these columns equal these values."
    )


class InRangeParams(_Frozen):
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _one_bound(self) -> InRangeParams:
        if self.min is None and self.max is None:
            raise ValueError("set min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("min is greater than max")
        return self


class MatchesParams(_Frozen):
    pattern: str = Field(description="A regular expression the whole value must match.")

    _check_pattern = field_validator("pattern")(lambda value: _compiles(value))


class OneOfParams(_Frozen):
    values: tuple[str, ...] = Field(min_length=1)


class ReferencesParams(_Frozen):
    table: TableName
    column: str


class DurationAgreesParams(_Frozen):
    tolerance_months: int = Field(default=1, ge=0)


class DeclaredCountParams(_Frozen):
    child_table: TableName
    where: dict[str, str] = Field(
        default_factory=dict, description="Count only child rows with these values."
    )


class NoMatchParams(_Frozen):
    patterns: tuple[str, ...] = Field(min_length=1, description="Regular expressions no value may contain.")

    _check_patterns = field_validator("patterns")(lambda values: tuple(_compiles(v) for v in values))


def _compiles(pattern: str) -> str:
    """Patterns run in Polars (Rust's regex syntax: \\p{Lu} yes, look-around no), so Polars checks them."""
    try:
        pl.select(pl.lit("").str.contains(pattern))
    except pl.exceptions.PolarsError as exc:
        problem = str(exc).strip().splitlines()[-1] if str(exc).strip() else exc.__class__.__name__
        raise ValueError(f"not a valid regular expression: {problem}") from None
    return pattern


CHECK_PARAMS: dict[str, type[_Frozen]] = {
    "not_null": NotNullParams,
    "unique": NoParams,
    "in_range": InRangeParams,
    "matches": MatchesParams,
    "one_of": OneOfParams,
    "references": ReferencesParams,
    "ordered": NoParams,
    "duration_agrees": DurationAgreesParams,
    "declared_count": DeclaredCountParams,
    "no_repeat": NoParams,
    "no_match": NoMatchParams,
}
"""Each check kind and the parameters it takes; `toolkit.quality` gives each kind its meaning."""

_COLUMN_COUNT = {"ordered": 2, "duration_agrees": 3, "no_repeat": 2}


class QualityRule(_Frozen):
    """One quality rule: what to check, where, and how serious a failure is."""

    id: str = Field(pattern=r"^[a-z0-9_]+(\.[a-z0-9_]+)*$", description="Stable id; reports key on it.")
    table: TableName
    columns: tuple[str, ...] = Field(min_length=1)
    check: CheckKind
    params: Any = Field(default_factory=dict, description="Settings of the check; see CHECK_PARAMS.")
    severity: Literal["error", "warning"]
    threshold: int | float | None = Field(
        default=None, description="Failing rows tolerated: an integer count, or a fraction below 1."
    )
    description: str = Field(min_length=1)

    @field_validator("threshold")
    @classmethod
    def _threshold(cls, value: int | float | None) -> int | float | None:
        if value is None:
            return None
        if value < 0 or (isinstance(value, float) and value >= 1):
            raise ValueError("a count (integer >= 0) or a fraction (0 <= f < 1)")
        return value

    def tolerated_rows(self, table_rows: int) -> int:
        """How many failing rows the threshold tolerates in a table of `table_rows` rows."""
        if self.threshold is None:
            return 0
        if isinstance(self.threshold, float):
            return int(self.threshold * table_rows)
        return self.threshold


class QualityRules(_Frozen):
    """`rules/quality.yaml`."""

    rules: tuple[QualityRule, ...] = Field(min_length=1)

    @field_validator("rules")
    @classmethod
    def _unique_ids(cls, rules: tuple[QualityRule, ...]) -> tuple[QualityRule, ...]:
        seen: set[str] = set()
        for rule in rules:
            if rule.id in seen:
                raise ValueError(f"rule id {rule.id} is used twice")
            seen.add(rule.id)
        return rules


def load_quality_rules(rules_dir: Path | None = None) -> QualityRules:
    """Read `quality.yaml`. Raises `RulesError` naming the file and the key at fault.

    After the shape of each rule, its columns are checked against the data contract and its `params`
    against the check's own model, so `params` of every returned rule is a typed model.
    """
    from toolkit.model import TABLE_SCHEMAS

    rules_dir = rules_dir or default_rules_dir()
    loaded = _load(rules_dir, QUALITY_FILE, QualityRules)
    shown = str(rules_dir / QUALITY_FILE)
    checked = []
    for index, rule in enumerate(loaded.rules):
        where, named = f"rules.{index}", f" (rule {rule.id})"
        missing = [column for column in rule.columns if column not in TABLE_SCHEMAS[rule.table]]
        if missing:
            raise RulesError(
                shown, f"{where}.columns", f"not in table {rule.table}: {', '.join(missing)}{named}"
            )
        wanted = _COLUMN_COUNT.get(rule.check)
        if wanted is not None and len(rule.columns) != wanted:
            raise RulesError(
                shown, f"{where}.columns", f"check {rule.check} takes exactly {wanted} columns{named}"
            )
        try:
            params = CHECK_PARAMS[rule.check].model_validate(rule.params or {})
        except ValidationError as exc:
            loc, problem = _first_problem(exc, CHECK_PARAMS[rule.check])
            key = ".".join(str(part) for part in (where, "params", *loc))
            raise RulesError(shown, key, problem + named) from None
        if isinstance(params, ReferencesParams) and params.column not in TABLE_SCHEMAS[params.table]:
            raise RulesError(shown, f"{where}.params.column", f"not in table {params.table}{named}")
        for column in getattr(params, "when", {}) | getattr(params, "where", {}):
            table = getattr(params, "child_table", rule.table)
            if column not in TABLE_SCHEMAS[table]:
                raise RulesError(shown, f"{where}.params", f"column {column} not in table {table}{named}")
        checked.append(rule.model_copy(update={"params": params}))
    return QualityRules(rules=tuple(checked))


# --- Privacy policy and recognizers: rules/privacy.yaml, rules/recognizers.yaml ---------------------------

PRIVACY_FILE = "privacy.yaml"
RECOGNIZERS_FILE = "recognizers.yaml"
ALLOW_LIST_FILE = "vocabularies/allow_list.yaml"
PLAIN_WORDS_FILE = "vocabularies/plain_words.yaml"
TOOL_NAMES_FILE = "vocabularies/tool_names.yaml"
FIRST_NAMES_FILE = "vocabularies/first_names.yaml"
PLACES_FILE = "vocabularies/places.yaml"
PRODUCT_WORDS_FILE = "vocabularies/product_words.yaml"
TECHNICAL_GIVEN_NAMES_FILE = "vocabularies/technical_given_names.yaml"
ADDRESS_WORDS_FILE = "vocabularies/address_words.yaml"
PLACE_NAME_JOINERS_FILE = "vocabularies/place_name_joiners.yaml"
VENDORS_FILE = "vocabularies/vendors.yaml"
COMMON_WORDS_FILE = "vocabularies/common_words.yaml"
ENGLISH_WORDS_FILE = "vocabularies/english_words.yaml"
ALLOWED_VALUES_FILE = "vocabularies/allowed_values.yaml"

Action = Literal["keep", "drop", "pseudonymize", "scrub", "generalize"]


class NlpSettings(_Frozen):
    model: str = Field(description="An installed spaCy pipeline package (loaded offline, NER only).")
    batch_size: int = Field(default=128, gt=0, le=100_000)


class Hierarchy(_Frozen):
    """A generalization: `date_to_year` (a date -> its year) or `number_band` (a number -> 'lo-hi')."""

    kind: Literal["date_to_year", "number_band"]
    edges: tuple[int, ...] = Field(default=(), description="number_band: ascending lower edges of the bands.")

    @model_validator(mode="after")
    def _edges(self) -> Hierarchy:
        if self.kind == "number_band" and (
            len(self.edges) < 2 or list(self.edges) != sorted(set(self.edges))
        ):
            raise ValueError("number_band needs at least two ascending, distinct edges")
        return self


class VerificationSettings(_Frozen):
    max_suppressed: float = Field(
        default=0.01,
        ge=0,
        lt=1,
        description="The share of persons verification may suppress before the release is blocked: more "
        "means the scrubber is failing systematically.",
    )


class KeySettings(_Frozen):
    required: bool = Field(
        default=False,
        description="A job without a secret (TOOLKIT_SECRET or --key-file) stops with a usage error instead "
        "of pseudonymizing with a random key whose pseudonyms link to no other release.",
    )


class ColumnPolicy(_Frozen):
    action: Action
    hierarchy: str | None = None
    shape: str | None = None
    """keep:<shape>: kept while the value has the shape; a value that has not is scrubbed as free text."""


class Shape(_Frozen):
    """What the values of a kept column look like: one of the `known` terms (compared folded), a match of
    `pattern` as a whole, or a value every word of which is one of the `words` terms; exactly one of the
    three is given."""

    known: tuple[str, ...] = Field(
        default=(),
        description="Files of terms ('vocabularies/x.yaml', 'hierarchies/x.yaml', 'parsing.yaml:badges').",
    )
    pattern: str | None = Field(default=None, description="A regular expression the whole value matches.")
    words: tuple[str, ...] = Field(default=(), description="Files of terms each word of the value is one of.")

    _check_pattern = field_validator("pattern")(lambda value: value and _compiles_python(value))

    @model_validator(mode="after")
    def _one(self) -> Shape:
        if sum((bool(self.known), self.pattern is not None, bool(self.words))) != 1:
            raise ValueError("a shape is either known (files of terms), a pattern, or words (files of terms)")
        return self


class Entity(StrEnum):
    """Every entity type a recognizer or NER can report; `text_entities` and recognizers name only these,
    so a typo ('PERSONS') is an error at load instead of protection silently switched off."""

    PERSON = "PERSON"
    LOCATION = "LOCATION"
    ORGANIZATION = "ORGANIZATION"
    EMAIL_ADDRESS = "EMAIL_ADDRESS"
    PHONE_NUMBER = "PHONE_NUMBER"
    URL = "URL"
    IP_ADDRESS = "IP_ADDRESS"
    HANDLE = "HANDLE"
    CREDIT_CARD = "CREDIT_CARD"
    IBAN_CODE = "IBAN_CODE"
    STREET_ADDRESS = "STREET_ADDRESS"
    """A street address, a PO box or a postcode with its town."""
    DATE_OF_BIRTH = "DATE_OF_BIRTH"
    NATIONAL_ID = "NATIONAL_ID"
    """An identity, tax or social-security number."""


class PrivacyPolicy(_Frozen):
    """`rules/privacy.yaml`: what happens to every column of every released table."""

    nlp: NlpSettings
    verification: VerificationSettings = Field(default_factory=VerificationSettings)
    key: KeySettings = Field(default_factory=KeySettings)
    text_entities: tuple[Entity, ...] = Field(min_length=1, description="Entity types replaced in free text.")
    hierarchies: dict[str, Hierarchy] = Field(default_factory=dict)
    shapes: dict[str, Shape] = Field(default_factory=dict)
    tables: dict[TableName, dict[str, str]]
    """Table -> column -> 'keep' | 'drop' | 'pseudonymize' | 'scrub' | 'generalize:<hierarchy>'."""

    def column(self, table: str, column: str) -> ColumnPolicy:
        action, _, argument = self.tables[table][column].partition(":")  # type: ignore[index]
        if action == "keep":
            return ColumnPolicy(action="keep", shape=argument or None)
        return ColumnPolicy(action=action, hierarchy=argument or None)  # type: ignore[arg-type]


class PatternSpec(_Frozen):
    name: str
    regex: str
    score: float = Field(default=0.85, gt=0, le=1)

    _check_regex = field_validator("regex")(lambda value: _compiles_python(value))


class RecognizerSpec(_Frozen):
    """A pattern recognizer declared as data (turned into a Presidio PatternRecognizer by toolkit.scrub)."""

    name: str
    entity: Entity
    patterns: tuple[PatternSpec, ...] = Field(min_length=1)
    ignore_case: bool = False
    context: tuple[str, ...] = ()
    check: Literal["luhn", "iban", "phone", "ipv6", "digit_run"] | None = Field(
        default=None, description="A check a match must pass."
    )
    regions: tuple[str, ...] = Field(
        default=(), description="check: phone: the regions a national number may belong to, default first."
    )
    requires: Literal["digit", "non_ascii"] | None = Field(
        default=None,
        description="A text is read by this recognizer only when it holds a digit, or a character outside "
        "ASCII: every match of its patterns needs one (a speed-up; a wrong declaration loses matches).",
    )
    names_only: bool = Field(
        default=False,
        description="A match is kept only when none of its words is an allowed or everyday word (names in "
        "lowercase, which have no capital to tell them from ordinary words).",
    )
    name_words: int = Field(
        default=2,
        ge=1,
        le=3,
        description="names_only: how many name words a match must keep (1: a name alone after a cue, 'My "
        "name is Nikolaj'; then the word may not be an English word either).",
    )
    unknown_words: bool = Field(
        default=False,
        description="names_only: no word of the match may be an English word either, wherever it stands (a "
        "name told by its shape alone: 'Sveinung Tveito', never 'Polar Field School').",
    )
    enabled: bool = Field(
        default=True,
        description="false switches the recognizer off in scrubbing and in the pre-commit scan; verification "
        "reads none of the recognizers and still runs. The report and the card name it.",
    )

    @model_validator(mode="after")
    def _regions(self) -> RecognizerSpec:
        import phonenumbers

        if (self.check == "phone") != bool(self.regions):
            raise ValueError("regions are given with check: phone, and only with it")
        if self.unknown_words and not self.names_only:
            raise ValueError("unknown_words is given with names_only: true, and only with it")
        unknown = [region for region in self.regions if region not in phonenumbers.SUPPORTED_REGIONS]
        if unknown:
            raise ValueError(f"unknown phone regions {unknown}")
        return self


SpanFilterName = Literal[
    "certain_person",
    "allowed_words",
    "product_name",
    "english_words",
    "listed_with_a_tool",
    "inside_a_tool_name",
    "item_of_a_tool_list",
]
"""The span filters of the scrubber (`toolkit.scrub.filters`), in the order they are tried: each keeps a
span found as a person or a place out of the replacements when it names a tool, a product or a job;
`certain_person` is the exception that keeps a span whatever the others say."""
SPAN_FILTERS: tuple[SpanFilterName, ...] = typing.get_args(SpanFilterName)


class SpanFilterSpec(_Frozen):
    name: SpanFilterName
    enabled: bool = True


SpanAdjusterName = Literal[
    "surname_after_a_name",
    "given_name_before_a_name",
    "possessive_left_out",
    "names_listed_with_a_person",
    "address_parts",
    "phone_extension",
]
"""The span adjusters of the scrubber (`toolkit.scrub.adjusters`): each changes a span found, or adds one
beside it, so that a replacement covers the whole identifier."""
SPAN_ADJUSTERS: tuple[SpanAdjusterName, ...] = typing.get_args(SpanAdjusterName)


class SpanAdjusterSpec(_Frozen):
    name: SpanAdjusterName
    enabled: bool = True


BuiltInName = Literal["first_name_gazetteer", "place_gazetteer", "NER"]
"""The recognizers that are not patterns of the rules: the gazetteers of given names and places
(`toolkit.scrub.gazetteer`, from `vocabularies/first_names.yaml` and `places.yaml`) and spaCy's NER."""
BUILT_IN: tuple[BuiltInName, ...] = typing.get_args(BuiltInName)


class BuiltInSpec(_Frozen):
    name: BuiltInName
    enabled: bool = True


class RecognizersFile(_Frozen):
    recognizers: tuple[RecognizerSpec, ...] = Field(min_length=1)
    built_in: tuple[BuiltInSpec, ...] = Field(
        default=(),
        description="The gazetteers and NER with their `enabled` flag; one not listed is on.",
    )
    filters: tuple[SpanFilterSpec, ...] = Field(
        default=(),
        description="The span filters with their `enabled` flag; a filter not listed is on.",
    )
    adjusters: tuple[SpanAdjusterSpec, ...] = Field(
        default=(),
        description="The span adjusters with their `enabled` flag; an adjuster not listed is on.",
    )

    @field_validator("recognizers", "built_in", "filters", "adjusters")
    @classmethod
    def _named_once(
        cls, specs: tuple[RecognizerSpec | BuiltInSpec | SpanFilterSpec | SpanAdjusterSpec, ...]
    ) -> tuple[Any, ...]:
        names = [spec.name for spec in specs]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"named more than once: {repeated}")
        return specs


class PrivacyRules(_Frozen):
    """Everything the scrub and verify stages read from `rules/`."""

    policy: PrivacyPolicy
    recognizers: tuple[RecognizerSpec, ...]
    """The pattern recognizers switched on."""
    built_in: frozenset[BuiltInName] = frozenset(BUILT_IN)
    """The gazetteers and NER switched on."""
    span_filters: frozenset[SpanFilterName] = frozenset(SPAN_FILTERS)
    """The span filters switched on."""
    span_adjusters: frozenset[SpanAdjusterName] = frozenset(SPAN_ADJUSTERS)
    """The span adjusters switched on."""
    switched_off: dict[str, tuple[str, ...]] = Field(
        default_factory=dict,
        description="'recognizers', 'span_filters' and 'span_adjusters' -> the names switched off in the "
        "rules (reported).",
    )
    allow_list: frozenset[str] = Field(
        description="Lower-cased words and phrases never taken for personal data."
    )
    plain_words: frozenset[str] = Field(
        default=frozenset(),
        description="Lower-cased role words and sentence starters: in allow_list, but no technical terms.",
    )
    first_names: frozenset[str] = Field(description="Given names (Title Case) for the first-name recognizer.")
    places: frozenset[str] = Field(
        default=frozenset(), description="Folded names of places for the place recognizer (none: it is off)."
    )
    common_words: frozenset[str] = Field(
        default=frozenset(), description="Lower-cased everyday words that are not names: no NER for them."
    )
    english_words: frozenset[str] = Field(
        default=frozenset(), description="Every lower-case English word, names included ('young')."
    )
    product_words: frozenset[str] = Field(
        default=frozenset(), description="Lower-cased words naming a kind of product ('studio', 'rtos')."
    )
    technical_given_names: frozenset[str] = Field(
        default=frozenset(), description="Given names (Title Case) that are technical words ('Julia')."
    )
    spoken_languages: frozenset[str] = Field(
        default=frozenset(), description="Lower-cased names of human languages ('czech'), also in allow_list."
    )
    vendors: frozenset[str] = Field(
        default=frozenset(), description="Lower-cased vendors that begin names of products ('amazon')."
    )
    address_words: frozenset[str] = Field(
        default=frozenset(), description="Lower-cased words of addresses ('ul', 'apto'), no final period."
    )
    place_name_joiners: frozenset[str] = Field(
        default=frozenset(), description="Lower-cased small words inside names of streets and towns ('da')."
    )
    shape_terms: dict[str, frozenset[str]] = Field(
        default_factory=dict, description="Shape -> the folded terms of its `known` files."
    )


VOCABULARIES_DIR = "vocabularies"
_NAMED_LIST = re.compile(r"\\\\|\\L<([^>]*)>")
"""`\\L<name>` in a recognizer's pattern (the `regex` package's syntax for a named list), or an escaped
backslash, which is left alone ('\\\\L<x>' is a backslash, then 'L<x>')."""


def alternation(terms: Iterable[str]) -> str:
    """A pattern matching any of `terms` literally: one group, longer terms first (so 'cats' is tried
    before 'cat', as the `regex` package does for a named list)."""
    import regex

    ordered = sorted(set(terms), key=lambda term: (-len(term), term))
    return "(?:" + "|".join(regex.escape(t, special_only=True, literal_spaces=True) for t in ordered) + ")"


def _fill_vocabularies(rules_dir: Path, raw: dict[str, Any]) -> None:
    """Replace each `\\L<name>` in the patterns of `recognizers.yaml` by the terms of
    `vocabularies/<name>.yaml` (`alternation`). A name that is no vocabulary, or a vocabulary that holds no
    term, is a rules error: an empty alternative would match everywhere, and a missing one nowhere."""
    shown = str(rules_dir / RECOGNIZERS_FILE)
    filled: dict[str, str] = {}

    def fill(match: re.Match[str], key: str) -> str:
        name = match.group(1)
        if name is None:
            return match.group()
        if name not in filled:
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                raise RulesError(shown, key, f"\\L<{name}>: a vocabulary's name is lower case, digits and _")
            path = f"{VOCABULARIES_DIR}/{name}.yaml"
            if not (rules_dir / path).is_file():
                raise RulesError(shown, key, f"\\L<{name}>: no vocabulary {rules_dir / path}")
            filled[name] = alternation(_load(rules_dir, path, ListedTerms).terms)
        return filled[name]

    recognizers = raw.get("recognizers")
    for index, recognizer in enumerate(recognizers if isinstance(recognizers, list) else ()):
        patterns = recognizer.get("patterns") if isinstance(recognizer, dict) else None
        for number, pattern in enumerate(patterns if isinstance(patterns, list) else ()):
            if isinstance(pattern, dict) and isinstance(pattern.get("regex"), str):
                key = f"recognizers.{index}.patterns.{number}.regex"
                pattern["regex"] = _NAMED_LIST.sub(partial(fill, key=key), pattern["regex"])


def _compiles_python(pattern: str) -> str:
    """Recognizer patterns run in Presidio, which uses the `regex` package."""
    import regex

    try:
        regex.compile(pattern)
    except regex.error as exc:
        raise ValueError(f"not a valid regular expression: {exc}") from None
    return pattern


def _hyphens_as_spaces(words: Iterable[str]) -> frozenset[str]:
    """`words` and each hyphenated one written with spaces ("deep-learning": "deep learning")."""
    listed = frozenset(words)
    return listed | {word.replace("-", " ") for word in listed}


def load_privacy_rules(rules_dir: Path | None = None) -> PrivacyRules:
    """Read the privacy policy, recognizers and allow-list. Raises `RulesError` naming the file and key.

    The policy must name every column of every contract table (rejects excepted): a column left out would
    otherwise be released or lost by accident.
    """
    from toolkit.model import TABLE_SCHEMAS

    rules_dir = rules_dir or default_rules_dir()
    policy = _load(rules_dir, PRIVACY_FILE, PrivacyPolicy)
    shown = str(rules_dir / PRIVACY_FILE)
    for table, schema in TABLE_SCHEMAS.items():
        if table == "rejects":
            continue
        columns = policy.tables.get(table)  # type: ignore[call-overload]
        if columns is None:
            raise RulesError(shown, f"tables.{table}", "missing: every released table needs a policy")
        for column in schema:
            if column not in columns:
                raise RulesError(shown, f"tables.{table}.{column}", "missing: every column needs an action")
        for column, spec in columns.items():
            key = f"tables.{table}.{column}"
            if column not in schema:
                raise RulesError(shown, key, f"not a column of {table}")
            action, _, hierarchy = spec.partition(":")
            if action not in ("keep", "drop", "pseudonymize", "scrub", "generalize"):
                raise RulesError(
                    shown,
                    key,
                    f"unknown action {spec!r}: keep, drop, pseudonymize, scrub, generalize:<hierarchy>",
                )
            if action == "generalize" and hierarchy not in policy.hierarchies:
                raise RulesError(shown, key, f"unknown hierarchy {hierarchy!r}")
            if action == "keep" and hierarchy and hierarchy not in policy.shapes:
                known = sorted(policy.shapes)
                raise RulesError(shown, key, f"unknown shape {hierarchy!r}: shapes are {known}")
            if action not in ("generalize", "keep") and hierarchy:
                raise RulesError(shown, key, f"only generalize and keep take an argument: {spec!r}")
    if policy.tables["profiles"]["profile_id"] != "pseudonymize":
        raise RulesError(shown, "tables.profiles.profile_id", "must be pseudonymize: it links the tables")
    recognizers = _load(rules_dir, RECOGNIZERS_FILE, RecognizersFile, partial(_fill_vocabularies, rules_dir))
    if not any(spec.enabled for spec in recognizers.recognizers):
        raise RulesError(str(rules_dir / RECOGNIZERS_FILE), "recognizers", "every recognizer is switched off")
    filters_off = frozenset(spec.name for spec in recognizers.filters if not spec.enabled)
    adjusters_off = frozenset(spec.name for spec in recognizers.adjusters if not spec.enabled)
    built_in_off = frozenset(spec.name for spec in recognizers.built_in if not spec.enabled)
    allow = _load(rules_dir, ALLOW_LIST_FILE, VocabularyFile)
    plain = _load(rules_dir, PLAIN_WORDS_FILE, VocabularyFile)
    terms = _load(rules_dir, TECHNICAL_TERMS_FILE, VocabularyFile)
    languages = _load(rules_dir, SPOKEN_LANGUAGES_FILE, VocabularyFile)
    tools = _load(rules_dir, TOOL_NAMES_FILE, VocabularyFile)
    words = [t.lower() for t in (*allow.terms, *plain.terms, *terms.terms, *languages.terms, *tools.terms)]
    allow_list = _hyphens_as_spaces(words)
    plain_words = _hyphens_as_spaces(t.lower() for t in plain.terms)
    first_names = frozenset(
        name.capitalize() for name in _load(rules_dir, FIRST_NAMES_FILE, VocabularyFile).terms
    )
    common_words = frozenset(t.lower() for t in _load(rules_dir, COMMON_WORDS_FILE, VocabularyFile).terms)
    # Optional (a rules folder copied before it existed has none): it only tells places from persons.
    places = (
        frozenset(fold(place) for place in _load(rules_dir, PLACES_FILE, VocabularyLines).terms)
        if (rules_dir / PLACES_FILE).exists()
        else frozenset()
    )
    shape_terms = {
        name: frozenset(
            fold(term) for kind, sources in (("known", shape.known), ("words", shape.words))
            for index, source in enumerate(sources)
            for term in _terms_of(rules_dir, source, shown, f"shapes.{name}.{kind}.{index}")
        )
        for name, shape in policy.shapes.items()
    }  # fmt: skip
    return PrivacyRules(
        policy=policy,
        recognizers=tuple(spec for spec in recognizers.recognizers if spec.enabled),
        span_filters=frozenset(SPAN_FILTERS) - filters_off,
        span_adjusters=frozenset(SPAN_ADJUSTERS) - adjusters_off,
        built_in=frozenset(BUILT_IN) - built_in_off,
        switched_off={
            kind: names
            for kind, names in (
                (
                    "recognizers",
                    tuple(spec.name for spec in recognizers.recognizers if not spec.enabled)
                    + tuple(name for name in BUILT_IN if name in built_in_off),
                ),
                ("span_filters", tuple(name for name in SPAN_FILTERS if name in filters_off)),
                ("span_adjusters", tuple(name for name in SPAN_ADJUSTERS if name in adjusters_off)),
            )
            if names
        },
        allow_list=allow_list,
        plain_words=plain_words,
        first_names=first_names,
        places=places,
        common_words=common_words,
        english_words=frozenset(_load(rules_dir, ENGLISH_WORDS_FILE, VocabularyFile).terms),
        product_words=frozenset(
            term.lower() for term in _load(rules_dir, PRODUCT_WORDS_FILE, VocabularyFile).terms
        ),
        technical_given_names=frozenset(
            name.capitalize() for name in _load(rules_dir, TECHNICAL_GIVEN_NAMES_FILE, VocabularyFile).terms
        ),
        spoken_languages=frozenset(term.lower() for term in languages.terms),
        vendors=frozenset(term.lower() for term in _load(rules_dir, VENDORS_FILE, VocabularyFile).terms),
        address_words=frozenset(
            term.lower().rstrip(".") for term in _load(rules_dir, ADDRESS_WORDS_FILE, VocabularyFile).terms
        ),
        place_name_joiners=frozenset(
            term.lower() for term in _load(rules_dir, PLACE_NAME_JOINERS_FILE, ListedTerms).terms
        ),
        shape_terms=shape_terms,
    )


def _terms_of(rules_dir: Path, source: str, shown: str, key: str) -> list[str]:
    """The terms of a file of `rules/`: its `terms`, the members of its `groups`, or the list under a key
    ('parsing.yaml:badges')."""
    name, _, list_key = source.partition(":")
    path = rules_dir / name
    try:
        raw: Any = yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        raise RulesError(shown, key, f"{source!r}: no readable YAML file {path}") from None
    found: Any = raw.get(list_key or "terms") if isinstance(raw, dict) else None
    if found is None and not list_key and isinstance(raw, dict) and isinstance(raw.get("groups"), dict):
        found = [term for group in raw["groups"].values() for term in group or ()]
    if not isinstance(found, list) or not found or not all(isinstance(term, str) for term in found):
        raise RulesError(shown, key, f"{source!r} holds no list of terms")
    return found


def load_allowed_values(rules_dir: Path | None = None) -> tuple[str, ...]:
    """Values the pre-commit scan never reports (`vocabularies/allowed_values.yaml`)."""
    return _load(rules_dir or default_rules_dir(), ALLOWED_VALUES_FILE, VocabularyFile).terms


RISK_FILE = "risk.yaml"
HIERARCHIES_DIR = "hierarchies"


class Classification(_Frozen):
    """`rules/hierarchies/<name>.yaml`: groups of terms; a value is in the first group with a term in it."""

    default: str | None = Field(description="The label of a value in no group (null: no label).")
    groups: dict[str, tuple[str, ...]] = Field(min_length=1)

    @field_validator("groups")
    @classmethod
    def _terms(cls, groups: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for label, terms in groups.items():
            if not clean(label):
                raise ValueError("a group's label must not be blank")
            if not terms:
                raise ValueError(f"group {label!r} has no terms")
            _clean_words(terms)
        return groups


class Step(_Frozen):
    """One step of a ladder: exactly one of `frequent`, `classify`, `band`, `span`."""

    frequent: bool = False
    classify: tuple[str, ...] = ()
    of: str = Field(
        default="value",
        description="classify: what is classified: the released `value`, the `previous` step's label (an "
        "institution's country -> its region), or another column of the same row as `table.column` (a "
        "repository -> the category of its contribution's tags).",
    )
    band: tuple[int, ...] = ()
    span: int | None = Field(default=None, ge=2)

    @model_validator(mode="before")
    @classmethod
    def _word(cls, value: Any) -> Any:
        return {"frequent": True} if value == "frequent" else value

    @model_validator(mode="after")
    def _one(self) -> Step:
        given = [self.frequent, bool(self.classify), bool(self.band), self.span is not None]
        if sum(given) != 1:
            raise ValueError("a step is one of: frequent, classify: [files], band: [edges], span: years")
        if self.of != "value" and not self.classify:
            raise ValueError("only classify takes `of`")
        if self.of not in ("value", "previous") and "." not in self.of:
            raise ValueError("`of` is value, previous or a column of the same table (table.column)")
        if self.band and (len(self.band) < 2 or list(self.band) != sorted(set(self.band))):
            raise ValueError("band needs at least two ascending, distinct edges")
        return self

    @property
    def label(self) -> str:
        if self.frequent:
            return "frequent"
        if self.classify:
            return "classify:" + "+".join(self.classify) + (f" of {self.of}" if self.of != "value" else "")
        if self.band:
            return "band:" + ",".join(map(str, self.band))
        return f"span:{self.span}"


ViewKind = Literal["record", "sequence", "items", "set"]
Recoding = Literal["global", "local"]


class View(_Frozen):
    """An attacker's view: quasi-identifiers seen together, with the k every person must reach in it."""

    kind: ViewKind
    columns: tuple[str, ...] = Field(min_length=1, description="`table.column` quasi-identifiers.")
    k: int | None = Field(default=None, ge=2, description="The view's target (default: the file's k).")
    m: int = Field(default=1, ge=1, le=2, description="items: the size of the item sets that need k.")
    order: str | None = Field(default=None, description="sequence: the `table.column` that orders rows.")
    max_withheld: float | None = Field(
        default=None,
        ge=0,
        lt=1,
        description="items, set and sequence: the share of rows this view may withhold before its columns "
        "are coarsened further (default: the file's max_withheld_items).",
    )

    @model_validator(mode="after")
    def _shape(self) -> View:
        tables = {column.partition(".")[0] for column in self.columns}
        if self.kind != "record" and len(tables) != 1:
            raise ValueError(f"a {self.kind} view reads one table")
        if self.kind == "sequence" and self.order is None:
            raise ValueError("a sequence view needs an `order` column")
        if self.kind != "sequence" and self.order is not None:
            raise ValueError("only a sequence view takes an `order` column")
        if self.kind != "items" and self.m != 1:
            raise ValueError("only an items view takes `m`")
        if self.kind == "record" and self.max_withheld is not None:
            raise ValueError("a record view withholds no rows: `max_withheld` is for the other kinds")
        return self

    @property
    def table(self) -> str:
        return self.columns[0].partition(".")[0]


class PhraseRules(_Frozen):
    """`phrases` of `rules/risk.yaml`: free text in which rare phrases become typed tokens."""

    columns: tuple[str, ...] = Field(min_length=1, description="`table.column` free-text columns (scrub).")
    types: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Token type -> words that give a phrase that type."
    )
    default_type: str = Field(default="PROJECT", pattern=r"^[A-Z][A-Z_]*$")
    time_units: tuple[str, ...] = Field(
        default=(), description="A number before one of these words is always replaced."
    )
    unkeyed: tuple[str, ...] = Field(
        default=("PERSON",), description="Entity types whose keyed tokens always lose their key."
    )
    function_words: tuple[str, ...] = Field(
        default=(), description="Words that neither open nor close a phrase (at, the, he...)."
    )
    restated: dict[str, tuple[str, ...]] = Field(
        default_factory=dict,
        description="A column of `columns` -> the ladder columns whose coarsened values are replaced inside "
        "the values it keeps as they are while coarsened (never a whole value: that is its own).",
    )

    @field_validator("types")
    @classmethod
    def _type_names(cls, types: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for kind, words in types.items():
            if re.fullmatch(r"[A-Z][A-Z_]*", kind) is None:
                raise ValueError(f"a token type is written in capitals: {kind!r}")
            _clean_words(words)
        return types


TextMode = Literal["k_anonymous", "terms", "drop", "scrubbed"]


class TextFile(_Frozen):
    """`text` of `rules/risk.yaml`: k-anonymous text (`toolkit.risk.runs`)."""

    enabled: bool = Field(
        default=True, description="false: text is released as the scrubber left it, and the card says so."
    )
    max_run: int = Field(
        default=5, ge=1, le=12, description="The longest run of words kept unless k persons share the cell."
    )
    columns: dict[str, TextMode] = Field(
        default_factory=dict,
        description="`table.column` -> k_anonymous | terms | drop | scrubbed; every other released text "
        "column outside the views is k_anonymous.",
    )
    follows: dict[str, str] = Field(
        default_factory=dict,
        description="A text column -> the column whose value it repeats (a repository's description): "
        "released only where that column is released as it is, else withheld (its terms listed).",
    )


class TextRules(_Frozen):
    """The text pass's resolved columns: every released text column outside the risk views, by mode."""

    enabled: bool
    max_run: int
    modes: dict[str, TextMode]
    """`table.column` -> its mode, for every column the pass governs."""
    withheld_by: dict[str, str] = Field(default_factory=dict)
    """Columns withheld because the column they follow is not released as it is -> that column."""
    terms_from: tuple[str, ...] = ()
    """The free-text columns (scrubbed by the policy) whose technical terms the `terms` table lists."""

    def columns(self, mode: TextMode) -> list[str]:
        return sorted(column for column, its in self.modes.items() if its == mode)

    def withheld(self) -> list[str]:
        """The columns released null: `drop`, and `terms` (only their terms are listed)."""
        return sorted(column for column, its in self.modes.items() if its in ("drop", "terms"))


class RiskFile(_Frozen):
    """`rules/risk.yaml`: attacker views, their target k, the suppression budget, and the ladders."""

    enabled: bool = Field(
        default=True,
        description="false: no risk pass, and every report says the release is pseudonymized only.",
    )
    k: int = Field(default=5, ge=2, description="The target of every view that sets none.")
    max_suppressed: float = Field(
        default=0.05, ge=0, lt=1, description="The share of persons the risk pass may suppress."
    )
    max_withheld_items: float = Field(
        default=0.1,
        ge=0,
        lt=1,
        description="The share of an items view's rows that may be withheld before its columns are coarsened "
        "further.",
    )
    recoding: Recoding = Field(
        default="local",
        description="global: one level per column for every person; local: then, in record, set and sequence "
        "views, persons are split into groups of at least k (Mondrian-like), each at the finest levels its "
        "group shares.",
    )
    views: dict[str, View] = Field(min_length=1)
    ladders: dict[str, tuple[Step, ...]] = Field(default_factory=dict)
    worth: dict[str, Annotated[float, Field(gt=0)]] = Field(
        default_factory=dict,
        description="`table.column` -> what the column is worth to a reader (default 1): the search gives "
        "way first on the columns worth least.",
    )
    presence: float = Field(
        default=0.5,
        ge=0,
        lt=1,
        description="The share of a cell's information that lies in holding a value at all, at any step of "
        "its ladder; the rest lies in how many values the step tells apart. 0: a step loses as much as its "
        "distinct values fall short (an institution's region loses most of it), and the search would "
        "rather withhold a column for many than coarsen it for all.",
    )
    phrases: PhraseRules
    text: TextFile = Field(default_factory=TextFile)


class RiskRules(_Frozen):
    """Everything the risk pass reads from `rules/`, checked against the privacy policy."""

    enabled: bool
    k: int
    max_suppressed: float
    max_withheld_items: float
    views: dict[str, View]
    ladders: dict[str, tuple[Step, ...]]
    """`table.column` -> its steps; every column of a view has one (empty: only withholding is left)."""
    classifications: dict[str, Classification]
    recoding: Recoding = "local"
    presence: float = 0.5
    phrases: PhraseRules | None = None
    text: TextRules | None = None
    worth: dict[str, float] = Field(default_factory=dict)

    def weight(self, column: str) -> float:
        """What `column` is worth to a reader, in the search's weighing of losses (default 1)."""
        return self.worth.get(column, 1.0)

    def target(self, view: View) -> int:
        return view.k or self.k

    def column_k(self, column: str) -> int:
        """The largest target among the views that read `column` (what `frequent` counts against)."""
        return max(self.target(view) for view in self.views.values() if column in view.columns)

    def read_by_one_view(self, column: str) -> bool:
        """Whether only one view reads `column` (recoding it for that view changes no other's classes)."""
        return sum(column in view.columns for view in self.views.values()) == 1

    def items_apart(self) -> list[str]:
        """The items views whose table no other view reads."""
        return [
            name
            for name, view in self.views.items()
            if view.kind == "items"
            and all(other.table != view.table for key, other in self.views.items() if key != name)
        ]


def _text_rules(risk: RiskFile, policy: PrivacyPolicy, viewed: set[str], shown: str) -> TextRules:
    """Every released text column (kept or scrubbed text, a value or a list) that no risk view reads (the
    views guard their own columns; with the risk pass off, the text pass governs them too), by mode:
    named, or k_anonymous. A column named that the pass cannot govern is an error."""
    from toolkit.model import TABLE_SCHEMAS

    text_types = (pl.String(), pl.List(pl.String()))
    governed: dict[str, TextMode] = {}
    for table, actions in policy.tables.items():
        for name, action in actions.items():
            column = f"{table}.{name}"
            is_text = TABLE_SCHEMAS[table][name] in text_types
            guarded = risk.enabled and column in viewed
            if is_text and action.partition(":")[0] in ("keep", "scrub") and not guarded:
                governed[column] = "k_anonymous"
    for column, mode in risk.text.columns.items():
        if column not in governed:
            why = "read by a risk view, which guards it" if column in viewed else "not released text"
            raise RulesError(shown, f"text.columns.{column}", f"{column!r} is {why}")
        governed[column] = mode
    withheld_by: dict[str, str] = {}
    for column, followed in risk.text.follows.items():
        if column not in governed:
            raise RulesError(shown, f"text.follows.{column}", f"{column!r} is not text the pass governs")
        followed_table, _, followed_name = followed.partition(".")
        action = policy.tables.get(followed_table, {}).get(followed_name)  # type: ignore[call-overload]
        if action is None:
            raise RulesError(shown, f"text.follows.{column}", f"{followed!r} is no column of the policy")
        if action != "keep" or (risk.enabled and risk.ladders.get(followed)):
            governed[column] = "terms"
            withheld_by[column] = followed
    free_text = sorted(
        column
        for column, mode in governed.items()
        if mode in ("k_anonymous", "terms") and policy.column(*column.split(".", 1)).action == "scrub"
    )
    return TextRules(
        enabled=risk.text.enabled,
        max_run=risk.text.max_run,
        modes=governed,
        withheld_by=withheld_by,
        terms_from=tuple(free_text),
    )


def load_risk_rules(rules_dir: Path | None = None) -> RiskRules:
    """Read the risk views and ladders. Raises `RulesError` naming the file and key.

    Every column named must be a column that the privacy policy releases (not dropped), a ladder's step
    must suit the released column (bands and spans only on numbers), and every ladder must belong to a
    view: a misspelt column is an error, never a view that silently checks nothing.
    """
    from toolkit.model import TABLE_SCHEMAS, TERMS, TERMS_TABLE

    rules_dir = rules_dir or default_rules_dir()
    risk = _load(rules_dir, RISK_FILE, RiskFile)
    policy = _load(rules_dir, PRIVACY_FILE, PrivacyPolicy)
    shown = str(rules_dir / RISK_FILE)

    def released(key: str, column: str) -> pl.DataType:
        table, _, name = column.partition(".")
        if table == TERMS_TABLE and name in TERMS and name != "profile_id":
            return TERMS[name]
        schema = TABLE_SCHEMAS.get(table)
        if table == "rejects" or schema is None or name not in schema:
            raise RulesError(shown, key, f"{column!r} is not a released table's column (table.column)")
        action = policy.tables.get(table, {}).get(name, "drop")  # type: ignore[call-overload]
        if action == "drop":
            raise RulesError(shown, key, f"{column!r} is dropped by {PRIVACY_FILE}: nothing to check")
        if action.startswith("generalize:"):
            hierarchy = policy.hierarchies.get(action.partition(":")[2])
            return pl.Int32() if hierarchy and hierarchy.kind == "date_to_year" else pl.String()
        return pl.String() if action == "pseudonymize" else schema[name]

    viewed: set[str] = set()
    for name, view in risk.views.items():
        for index, column in enumerate(view.columns):
            released(f"views.{name}.columns.{index}", column)
        if view.order is not None:
            if view.order.partition(".")[0] != view.table:
                raise RulesError(shown, f"views.{name}.order", "must be a column of the view's table")
            released(f"views.{name}.order", view.order)
        viewed |= set(view.columns)
    classifications: dict[str, Classification] = {}
    for column, steps in risk.ladders.items():
        if column not in viewed:
            raise RulesError(shown, f"ladders.{column}", "not a column of any view")
        dtype = released(f"ladders.{column}", column)
        for index, step in enumerate(steps):
            key = f"ladders.{column}.{index}"
            if step.frequent and index and steps[index - 1].frequent:
                raise RulesError(shown, key, "frequent twice in a row: the second would count the first")
            if step.of == "previous" and not (index and steps[index - 1].classify):
                raise RulesError(shown, key, "`of: previous` needs a classify step before it")
            if step.of not in ("value", "previous"):
                source = released(f"{key}.of", step.of)
                if step.of.partition(".")[0] != column.partition(".")[0]:
                    raise RulesError(shown, f"{key}.of", f"must be a column of {column.partition('.')[0]}")
                if source not in (pl.String(), pl.List(pl.String())):
                    raise RulesError(
                        shown, f"{key}.of", f"classify needs text; {step.of} is released as {source}"
                    )
            if (step.band or step.span) and not (dtype.is_numeric() or dtype.is_temporal()):
                raise RulesError(shown, key, f"{step.label} needs numbers; {column} is released as text")
            if step.classify and step.of in ("value", "previous") and dtype != pl.String():
                raise RulesError(shown, key, f"classify needs text; {column} is released as {dtype}")
            for file in step.classify:
                if file not in classifications:
                    classifications[file] = _load(rules_dir, f"{HIERARCHIES_DIR}/{file}.yaml", Classification)
    for column in risk.worth:
        if column not in viewed:
            raise RulesError(shown, f"worth.{column}", "not a column of any view")
    for index, column in enumerate(risk.phrases.columns):
        key = f"phrases.columns.{index}"
        released(key, column)
        table, _, name = column.partition(".")
        action = policy.tables[table][name]  # type: ignore[index]
        if action != "scrub" and not action.startswith("keep:"):
            raise RulesError(
                shown, key, f"{column!r} is not released text (scrub or keep:<shape> in {PRIVACY_FILE})"
            )
    for column, named in risk.phrases.restated.items():
        key = f"phrases.restated.{column}"
        if column not in risk.phrases.columns:
            raise RulesError(shown, key, f"{column!r} is not one of phrases.columns")
        for other in named:
            if other not in viewed or other == column:
                raise RulesError(shown, key, f"{other!r} is not another column of a view")
    return RiskRules(
        enabled=risk.enabled,
        phrases=risk.phrases,
        text=_text_rules(risk, policy, viewed, shown),
        k=risk.k,
        max_suppressed=risk.max_suppressed,
        max_withheld_items=risk.max_withheld_items,
        recoding=risk.recoding,
        presence=risk.presence,
        views=risk.views,
        ladders={column: risk.ladders.get(column, ()) for column in sorted(viewed)},
        classifications=classifications,
        worth=dict(risk.worth),
    )

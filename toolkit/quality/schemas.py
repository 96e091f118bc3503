"""Quality rules compiled to pandera schemas (Polars backend), and the failing rows they find.

Two passes per table, both through pandera with lazy (collect-all) error handling on an eager DataFrame:
1. the contract: every column present with its dtype (a failure here is table-wide: no data check can run);
2. the data: one DataFrame-level check per rule, named by the rule id, at depth SCHEMA_AND_DATA, set
   explicitly so that neither a LazyFrame nor PANDERA_VALIDATION_DEPTH can turn it into a schema-only pass.
A check that raises is an error of the toolkit, reported loudly, never a skipped check.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from toolkit.errors import ToolkitError
from toolkit.model import TABLE_SCHEMAS
from toolkit.quality.checks import CheckPlan, Tables, plan
from toolkit.rules import QualityRule

if TYPE_CHECKING:  # pandera (and pandas under it) loads only where a check runs: not in the job's driver
    import pandera.polars as pa
    from pandera.api.polars.types import PolarsData


def _pandera() -> None:
    """Import pandera's Polars API once, quietly: where PySpark is installed (the `spark` extra), pandera's
    import loads `pyspark.pandas`, which writes a FutureWarning about the pandas version to standard error;
    the job's output is its own."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message="PySpark does not yet fully support", category=FutureWarning
        )
        import pandera.polars  # noqa: F401


@dataclass(frozen=True)
class ContractBreach:
    """The table does not have the contract's columns and dtypes."""

    table: str
    problems: tuple[str, ...]


@dataclass(frozen=True)
class RuleFailures:
    """The rows (0-based positions in the table) that failed one rule."""

    rule: QualityRule
    plan: CheckPlan
    rows: pl.Series


def _contract_schema(table: str) -> pa.DataFrameSchema:
    _pandera()
    import pandera.polars as pa

    columns = {name: pa.Column(dtype, nullable=True) for name, dtype in TABLE_SCHEMAS[table].items()}
    return pa.DataFrameSchema(columns, name=table)


def check_contract(table: str, frame: pl.DataFrame) -> ContractBreach | None:
    """Columns and dtypes of `frame` against the data contract."""
    _pandera()
    from pandera.config import ValidationDepth, config_context
    from pandera.errors import SchemaErrors

    with config_context(validation_depth=ValidationDepth.SCHEMA_ONLY):
        try:
            _contract_schema(table).validate(frame, lazy=True)
        except SchemaErrors as errors:
            cases = errors.failure_cases.select("check", "column", "failure_case").rows()
            problems = tuple(
                f"{column or case} {check}" + (f" (found {case})" if column else "")
                for check, column, case in cases
            )
            return ContractBreach(table, problems)
    return None


def _pandera_check(rule: QualityRule, check_plan: CheckPlan) -> pa.Check:
    _pandera()
    import pandera.polars as pa

    def passes(data: PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(check_plan.passes.alias("passes"))

    return pa.Check(passes, name=rule.id, ignore_na=False)


def run_rules(
    table: str, frame: pl.DataFrame, rules: Sequence[QualityRule], tables: Tables
) -> list[RuleFailures]:
    """Every rule of `table` over `frame`, all failures collected; one entry per rule, failing or not."""
    _pandera()
    import pandera.polars as pa
    from pandera.config import ValidationDepth, config_context
    from pandera.errors import SchemaErrors

    plans = {rule.id: (rule, plan(rule, tables)) for rule in rules}
    if not plans:
        return []
    schema = pa.DataFrameSchema(
        checks=[_pandera_check(rule, check_plan) for rule, check_plan in plans.values()], name=table
    )
    failing: Mapping[str, pl.Series] = {}
    with config_context(validation_depth=ValidationDepth.SCHEMA_AND_DATA):
        try:
            schema.validate(frame, lazy=True)
        except SchemaErrors as errors:
            failing = _rows_by_rule(table, errors.failure_cases)
    empty = pl.Series("row", [], dtype=pl.UInt32)
    return [
        RuleFailures(rule, check_plan, failing.get(rule_id, empty))
        for rule_id, (rule, check_plan) in plans.items()
    ]


def _rows_by_rule(table: str, cases: pl.DataFrame) -> dict[str, pl.Series]:
    broken = cases.filter(pl.col("index").is_null())
    if not broken.is_empty():
        check, case = broken.row(0, named=True)["check"], broken.row(0, named=True)["failure_case"]
        raise ToolkitError(f"quality check {check} on table {table} could not run: {case}")
    grouped = (
        cases.select(pl.col("check"), pl.col("index").cast(pl.UInt32).alias("row"))
        .unique()
        .sort("check", "row")
        .group_by("check", maintain_order=True)
        .agg("row")
    )
    return {check: pl.Series("row", rows, dtype=pl.UInt32) for check, rows in grouped.iter_rows()}

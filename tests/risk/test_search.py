"""The search's shared suppression budget: a view is solved with what the views before it left of the
budget, a person an earlier view already leaves below target costs a later view nothing, and the order of
the views is the one of least total loss."""

from __future__ import annotations

import polars as pl
import pytest

from tests.risk.helpers import release, risk_rules
from toolkit.risk import plan_risk
from toolkit.rules import View

PERSONS = [f"p{n}" for n in range(10)]
EMPLOYERS = ["E1", "E2", "E3", "E3", "E4", "E4", "E5", "E5", "E6", "E6"]  # p0 and p1 alone
COUNTRIES = ["C0", "C0", "C1", "C2", "C0", "C0", "C0", "C0", "C0", "C0"]  # p2 and p3 alone
NETWORK = View(kind="record", columns=("profiles.employer", "profiles.title"))
PLACE = View(kind="record", columns=("profiles.country",))


def _tables(countries: list[str]) -> dict[str, pl.LazyFrame]:
    return release(
        PERSONS,
        profiles=[
            {"profile_id": person, "employer": employer, "title": "Engineer", "country": country}
            for person, employer, country in zip(PERSONS, EMPLOYERS, countries, strict=True)
        ],
    )


@pytest.mark.parametrize(
    "views", [{"network": NETWORK, "place": PLACE}, {"place": PLACE, "network": NETWORK}]
)
def test_views_share_the_budget_in_the_order_of_least_loss(views: dict[str, View]) -> None:
    """Each view alone fits a budget of 2 persons, together they would leave 4 below target. The place
    view's one column costs it all to withhold; the network view loses half by withholding the employer:
    whatever the order of the rules, the country stays, the employer goes, and p2 and p3 are suppressed."""
    rules = risk_rules(views, k=2, max_suppressed=0.2).model_copy(update={"recoding": "global"})
    plan = plan_risk(_tables(COUNTRIES), rules)
    assert plan.written
    assert plan.levels["profiles.country"] == 0
    assert plan.levels["profiles.title"] == 0
    assert plan.levels["profiles.employer"] == 1
    assert len(plan.suppressed) == 2


def test_a_person_two_views_leave_below_target_is_counted_once() -> None:
    """p0 and p1 are alone in both views: suppressing them once serves both, and both views keep all."""
    same = ["C1", "C2", *["C0"] * 8]
    rules = risk_rules({"network": NETWORK, "place": PLACE}, k=2, max_suppressed=0.2)
    plan = plan_risk(_tables(same), rules.model_copy(update={"recoding": "global"}))
    assert plan.written
    assert plan.levels == {"profiles.country": 0, "profiles.employer": 0, "profiles.title": 0}
    assert len(plan.suppressed) == 2

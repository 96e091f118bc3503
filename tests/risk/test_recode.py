"""The choice of a recoding (toolkit/risk/recode.py): with local recoding, suppression is chosen after it.
The lattice search alone would suppress a person to keep a finer level for everyone; local recoding gives
most of a coarser level back, so the plan of least loss in the end suppresses nobody."""

from __future__ import annotations

from collections import Counter

from tests.risk.helpers import release, risk_rules
from tests.risk.test_local import INDUSTRIES, NETWORK, _profiles, _released
from toolkit.risk import RiskPlan, plan_risk
from toolkit.rules import Step, View

# Fifteen persons at three software and banking firms, four at Dune Bank, and Echo Bank's one employee.
EMPLOYERS = ["Acme Soft"] * 5 + ["Blue Soft"] * 5 + ["Cobalt Bank"] * 5 + ["Dune Bank"] * 4 + ["Echo Bank"]
TABLES = _profiles([(employer, "Chile") for employer in EMPLOYERS])


def _plan(recoding: str) -> RiskPlan:
    ladders = {"profiles.employer": [Step(classify=("industries",))]}
    rules = risk_rules(NETWORK, ladders, k=2, max_suppressed=0.05, classifications={"industries": INDUSTRIES})
    return plan_risk(TABLES, rules.model_copy(update={"recoding": recoding}))


def test_the_search_alone_suppresses_the_one_person_to_keep_every_employer() -> None:
    plan = _plan("global")
    assert len(plan.suppressed) == 1
    assert plan.levels["profiles.employer"] == 0


def test_recoded_locally_nobody_is_suppressed_and_less_is_lost() -> None:
    local = _plan("local")
    assert local.written
    assert not local.suppressed
    assert local.loss < _plan("global").loss
    employers = Counter(_released(TABLES, local, "profiles").get_column("employer").to_list())
    # Echo Bank's employee and Dune Bank's four share their industry: a class of five.
    assert employers == {"Acme Soft": 5, "Blue Soft": 5, "Cobalt Bank": 5, "banking": 5}


def test_a_plan_within_the_budget_is_chosen_over_a_cheaper_one_beyond_it() -> None:
    """Suppressing p0, alone at their employer, leaves p1 alone with the code host's list they shared with
    p0: two persons, over a budget of one, at a loss of 0.15 (two persons and a row of twenty). Withholding
    the employer and giving it back locally costs p0 and the three persons of the smallest firm theirs
    (0.2): that plan, within the budget, is the one released."""
    persons = [f"p{n:02d}" for n in range(20)]
    employers = ["Solo", *["A"] * 3, *["B"] * 4, *["C"] * 4, *["D"] * 4, *["E"] * 4]
    tables = release(
        persons,
        profiles=[{"profile_id": p, "employer": e} for p, e in zip(persons, employers, strict=True)],
        contributions=[
            {"profile_id": p, "repository": "r1" if p in ("p00", "p01") else "r2"} for p in persons
        ],
    )
    views = {
        "network": View(kind="record", columns=("profiles.employer",)),
        "code": View(kind="set", columns=("contributions.repository",)),
    }
    plan = plan_risk(tables, risk_rules(views, k=2, max_suppressed=0.05))
    assert plan.written
    assert not plan.suppressed
    released = _released(tables, plan, "profiles").sort("profile_id").get_column("employer").to_list()
    assert released == [None] * 4 + employers[4:]

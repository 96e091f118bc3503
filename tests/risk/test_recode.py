"""The choice of a recoding (toolkit/risk/recode.py): with local recoding, suppression is chosen after it.
The lattice search alone would suppress a person to keep a finer level for everyone; local recoding gives
most of a coarser level back, so the plan of least loss in the end suppresses nobody."""

from __future__ import annotations

from collections import Counter

from tests.risk.helpers import risk_rules
from tests.risk.test_local import INDUSTRIES, NETWORK, _profiles, _released
from toolkit.risk import RiskPlan, plan_risk
from toolkit.rules import Step

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

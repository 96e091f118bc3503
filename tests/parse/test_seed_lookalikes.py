"""Fictional look-alikes of the two seed documents parse into exactly the values their text states."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from tests.parse.helpers import parse_ok, profile_view
from toolkit.rules import ParsingRules

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _parse(name: str, rules: ParsingRules) -> dict[str, Any]:
    return parse_ok((FIXTURES / name).read_bytes(), rules, source=name)


def test_talent_page_lookalike(rules: ParsingRules) -> None:
    parsed = _parse("talent_page_lookalike.txt", rules)
    profile = profile_view(parsed)
    summary = profile.pop("summary")
    assert profile == {
        "layout": "talent_page",
        "name": "Maribel Okonkwo-Reyes",  # the no-break space folded
        "headline": "Principal Compiler Engineer at Kestrel Compute",
        "title": "Principal Compiler Engineer",
        "employer": "Kestrel Compute",
        "location": "Porto Alegre, Rio Grande do Sul, Brazil",
        "city": "Porto Alegre",
        "region": "Rio Grande do Sul",
        "country": "Brazil",
        "badges": ["Senior", "Top School"],  # icons dropped, the glued label cut off the bio
        "coding_years": 14,
        "employment_years": 10,
        "spoken_languages": ["Portuguese", "Spanish", "English"],
        "declared_skills": 9,  # 7 listed
        "declared_programming_languages": 3,  # none listed
        "declared_contributions": 4,  # 2 listed
    }
    assert summary.startswith("Maribel Okonkwo-Reyes is a Principal Compiler Engineer in Porto Alegre")
    assert summary.endswith("she pairs rigor with practical engineering.")
    assert parsed["education"] == [
        {
            "degree": "Doctor of Philosophy (Ph.D.)",
            "field": "Computer Engineering, Doctor of Philosophy (Ph.D.), Computer Engineering",
            "institution": "Lakeside Institute of Technology",
        }
    ]
    assert parsed["skills"] == [
        {"kind": "github_skill", "skill": skill, "score": score}
        for skill, score in [
            ("c-language", 10),
            ("xla", 10),
            ("compiler", 10),
            ("mlir", 10),
            ("python3", 9),
            ("linear-algebra", 9),
            ("code-optimization", 8),
        ]
    ]
    first, second = parsed["contributions"]
    assert first == {
        "repository": "tessellate-ai/tessera",
        "description": "Tessera is a tensor compiler for heterogeneous accelerators. "
        "It is incubated by an open foundation.",
        "start": dt.date(2018, 3, 1),
        "end": dt.date(2019, 5, 1),
        "role": "Back-end Developer",  # "Role in this project:" with the role on the next line
        "commits": 61,
        "duration_months": 14,
        "summary": "Maribel's commits primarily involve refactoring the clustering pass and renaming "
        "attributes. Their work adds the `_TesseraJitScope` attribute to guide clustering.",
        "tags": ["ai", "deep-learning", "tensorflow", "machine-learning", "python"],
    }
    assert second == {
        "repository": "openquill/quill",
        "description": "A fast, embeddable markdown engine",
        "start": dt.date(2019, 6, 1),
        "end": dt.date(2021, 7, 1),
        "role": "Core Contributor",  # "Role in this project:Core Contributor" on one line
        "commits": 87,
        "duration_months": 25,
        "summary": "Maribel primarily fixed build breaks and added horizontal fusion to the renderer.",
        "tags": ["compiler", "machine-learning"],  # the site footer after them is gone
    }
    assert parsed["experience"] == parsed["awards"] == parsed["unparsed_lines"] == []


def test_resume_lookalike(rules: ParsingRules) -> None:
    parsed = _parse("resume_lookalike.txt", rules)
    assert profile_view(parsed)["layout"] == "resume"
    experience = [
        (row["position"], row["title"], row["organization"], row["supervisor"], len(row["bullets"]))
        for row in parsed["experience"]
    ]
    assert experience == [
        (1, "Distinguished Engineer and Compiler Team Lead (Director)", "Orbital Freight Research", None, 2),
        (2, "Senior Staff Engineer", "Orbital Freight Research/Applied ML", None, 2),
        (
            3,
            "Research Assistant",
            "Parallel Systems Lab., Lakeside University",
            "Dr. Alexander van den Hoek",
            2,
        ),
        (4, "Intern", "Lumen Robotics", None, 1),
        (
            5,
            "Undergrad. Research Assistant",
            "Vision Lab at Hillcrest Institute",
            "Dr. Siobhán Ní Bhriain",
            1,
        ),
    ]
    assert parsed["experience"][2]["bullets"] == [
        "Conducted research in high-performance GPU computing and compiler optimization.",
        "Developed GPU optimization strategies for dense/sparse BLAS, working with Abigaíl Perea.",
    ]
    assert parsed["awards"] == [
        {"title": "Marlow Endowed Fellowship", "issuer": "School of Engineering, Lakeside University"},
        {
            "title": "Graduate Research Traineeship (GRT): Neural Computation",
            "issuer": "Science Foundation, Brazil",
        },
        {"title": "Regional Merit Scholarship", "issuer": "Ministry of Education, Brazil"},
        {"title": "Presidential Awards", "issuer": "Hillcrest Institute, Brazil"},
        {"title": "Silver medal in the Southern Cone Mathematics Olympiad (SCMO)", "issuer": None},
    ]
    assert parsed["unparsed_lines"] == []

"""Fictional developer profiles in the two known layouts, with the defects real scraped data has.

Every generated document comes with the rows the parser must produce from it (`expected`), so tests can
check parsing exactly, and benchmarks and sample data use the same generator. All people, employers'
teams, repositories and awards here are invented; names are drawn from small hand-made lists of common
given names and surnames from many cultures, combined at random.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any

FIRST_NAMES = [
    "Maria",
    "Júlia",
    "Amara",
    "Kenji",
    "Sofia",
    "Mateus",
    "Ingrid",
    "Rahul",
    "Leila",
    "Tomasz",
    "Chloé",
    "Oluwaseun",
    "Mei",
    "Björn",
    "Ana",
    "Dmitri",
    "Priya",
    "Lucas",
    "Yara",
    "Hannah",
    "Ezra",
    "Nadia",
    "Kwame",
    "Élodie",
    "Santiago",
    "Aiko",
    "Farid",
    "Greta",
    "Jonas",
    "Imani",
    "Rosa",
    "Tariq",
    "Linnea",
    "Abigaíl",
    "Wen",
    "Zoltán",
    "Niamh",
    "Iker",
    "Selin",
    "Mateo",
]
LAST_NAMES = [
    "da Mata",
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Tanaka",
    "Kowalczyk",
    "Haddad",
    "Ferreira",
    "Nakamura",
    "van den Hoek",
    "Perea",
    "Osei",
    "Novák",
    "Iyer",
    "Castellanos",
    "Brennan",
    "Schäfer",
    "Yilmaz",
    "Dubois",
    "Mensah",
    "Sørensen",
    "Quintero",
    "Abernathy",
    "Petrović",
    "Ueda",
    "Marchetti",
    "Oyelaran",
    "Halvorsen",
    "Arslan",
    "de la Cruz",
    "Kiriakou",
    "Wójcik",
    "Achterberg",
    "Fonseca",
]
SPACES = ["\u00a0", "\u2009", "\u202f", " ", "  "]
TITLES = [
    "Senior Software Engineer",
    "Staff Engineer",
    "Machine Learning Engineer",
    "Backend Developer",
    "Principal Engineer",
    "Data Engineer",
    "Compiler Engineer",
    "Site Reliability Engineer",
    "Research Scientist",
    "Engineering Manager",
]
EMPLOYERS = [
    "Northwind Labs",
    "Blue Heron Systems",
    "Quillfeather",
    "Tessellate AI",
    "Orbital Freight",
    "Kestrel Compute",
    "Marigold Health",
    "Ironbark Data",
    "Lumen Robotics",
    "Cobalt Harbor",
]
LOCATIONS = [
    ("Lisbon", None, "Portugal"),
    ("Austin", "Texas", "United States"),
    ("Osaka", None, "Japan"),
    ("Toronto", "Ontario", "Canada"),
    ("Kraków", None, "Poland"),
    ("Accra", None, "Ghana"),
    ("Bengaluru", "Karnataka", "India"),
    ("Porto Alegre", "Rio Grande do Sul", "Brazil"),
    ("Utrecht", None, "Netherlands"),
    ("Seattle", "Washington", "United States"),
]
BADGES = [("👤", "Senior"), ("🎓", "Top School"), ("🏢", "Top Company"), ("🌱", "Open Source Contributor")]
DEGREES = [
    ("Bachelor of Science (B.Sc.)", "Computer Science"),
    ("Master of Science (M.Sc.)", "Electrical Engineering"),
    ("Doctor of Philosophy (Ph.D.)", "Computer Engineering"),
    ("Master of Engineering (M.Eng.)", "Software Engineering"),
]
INSTITUTIONS = [
    "Universidade Nova de Lisboa",
    "Kyoto Institute of Technology",
    "University of Waterloo",
    "AGH University of Krakow",
    "Indian Institute of Science",
    "Delft University of Technology",
]
LANGUAGES = ["English", "Portuguese", "Japanese", "Polish", "Hindi", "Dutch", "Spanish", "Twi", "Mandarin"]
SKILLS = [
    "python",
    "rust",
    "go",
    "kubernetes",
    "tensorflow",
    "pytorch",
    "compiler",
    "machine-learning",
    "linear-algebra",
    "algorithms",
    "docker",
    "postgresql",
    "kafka",
    "distributed-systems",
    "cuda",
    "llvm",
    "mlir",
    "numpy",
    "code-optimization",
    "build-system",
    "python3",
    "c-language",
]
PROGRAMMING_LANGUAGES = ["python", "rust", "go", "java", "typescript", "scala", "kotlin", "julia"]
TAGS = [
    "ai",
    "deep-learning",
    "tensorflow",
    "machine-learning",
    "python",
    "compiler",
    "kubernetes",
    "docker",
    "gpu",
    "rust",
    "database",
    "distributed-systems",
    "kafka",
    "llvm",
    "mlir",
    "numpy",
]
UNKNOWN_TAGS = ["quokkaflow", "zephyrdb"]
ROLES = ["Back-end Developer", "Front-end Developer", "Maintainer", "Core Contributor", "ML Engineer"]
REPOSITORIES = [
    ("tessellate-ai/tessera", "A tensor compiler for heterogeneous accelerators."),
    ("ironbark/ledgerline", "Streaming change-data-capture for analytical databases."),
    ("lumen-robotics/gait", "Motion planning toolkit for legged robots."),
    ("openquill/quill", "A fast, embeddable markdown engine."),
    ("kestrel-compute/skyhook", "Job scheduler for GPU clusters."),
    ("marigold/pulse", "Privacy-preserving analytics for clinical trials."),
]
BULLETS = [
    "Led a team of six building an MLIR-based compiler for in-house accelerators.",
    "Cut inference latency by 40% through kernel fusion on GPU and CPU back ends.",
    "Designed a streaming pipeline on Kafka and Flink processing 2 billion events a day.",
    "Mentored interns on compiler optimization and performance engineering.",
    "Migrated 300 services to Kubernetes with zero downtime.",
    "Published two papers on sparse linear algebra for GPUs.",
]
POSITIONS = [
    "Principal Research Engineer",
    "Senior Staff Engineer and Team Lead",
    "Research Assistant",
    "Software Engineer",
    "Intern",
    "Undergraduate Research Assistant",
]
ORGANIZATIONS = [
    "Northwind Labs",
    "Blue Heron Systems, Applied AI",
    "Parallel Systems Lab., Lakeside University",
    "Kestrel Compute",
    "Vision Group at Hillcrest Institute",
    "Quillfeather Research",
]
AWARDS = [
    ("Marlow Endowed Fellowship", "School of Engineering, Lakeside University"),
    ("National Merit Scholarship", "Ministry of Education"),
    ("Best Paper Award", "Symposium on Compiler Construction"),
    ("Gold medal in the Regional Informatics Olympiad", None),
    ("Graduate Research Traineeship: Neural Computation", "Science Foundation"),
]
FOOTER = (
    "Find and Hire Top DevelopersWe\u2019ve analyzed the source code of millions of developers and scored "
    "them by skill. Sign up to search for developers."
)
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@dataclass
class Generated:
    """A rendered document and the parse result it must give (rows without `profile_id`)."""

    layout: str
    text: str
    expected: dict[str, Any] = field(default_factory=dict)


def _person(rng: random.Random) -> tuple[str, str, str]:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    return first, last, f"{first} {last}"


def _month(rng: random.Random, year_from: int, year_to: int) -> tuple[str, dt.date]:
    year, month = rng.randint(year_from, year_to), rng.randint(1, 12)
    return f"{MONTHS[month - 1]} {year}", dt.date(year, month, 1)


def _months_between(start: dt.date, end: dt.date) -> int:
    return (end.year - start.year) * 12 + end.month - start.month


def _duration_text(months: int) -> str:
    years, rest = divmod(months, 12)
    parts = []
    if years:
        parts.append(f"{years} year{'s' if years != 1 else ''}")
    if rest or not years:
        parts.append(f"{rest} month{'s' if rest != 1 else ''}")
    return " ".join(parts)


def talent_page(rng: random.Random) -> Generated:
    first, _, name = _person(rng)
    title, employer = rng.choice(TITLES), rng.choice(EMPLOYERS)
    city, region, country = rng.choice(LOCATIONS)
    location = ", ".join(part for part in (city, region, country) if part)
    badges = rng.sample(BADGES, rng.randint(1, 3))
    coding, employment = rng.randint(3, 25), rng.randint(1, 20)
    colleague = _person(rng)[2]
    bio = (
        f"{name} is a {title} in {city} with {coding} years of experience building compilers and data "
        f"platforms. At {employer} {first} works with {colleague} on GPU scheduling, and {first}'s "
        "open-source work on XLA, Kubernetes and Kafka shows a knack for performance."
    )
    degree, field_ = rng.choice(DEGREES)
    institution = rng.choice(INSTITUTIONS)
    twice = rng.random() < 0.4
    studies = f"{degree}, {field_}, {degree}, {field_}" if twice else f"{degree}, {field_}"
    languages = rng.sample(LANGUAGES, rng.randint(1, 3))
    skills = [(skill, rng.randint(5, 10)) for skill in rng.sample(SKILLS, rng.randint(3, 12))]
    skills.sort(key=lambda item: -item[1])
    declared_skills = len(skills) + rng.choice([0, 0, 2, 3])
    programming = [
        (lang, rng.randint(5, 10)) for lang in rng.sample(PROGRAMMING_LANGUAGES, rng.randint(0, 3))
    ]
    declared_programming = len(programming) + rng.choice([0, 1, 4])
    repositories = rng.sample(REPOSITORIES, rng.randint(1, 3))
    declared_contributions = len(repositories) + rng.choice([0, 0, 3])
    name_space = rng.choice(SPACES)

    lines = [name.replace(" ", name_space, 1), f"{title} at {employer}", location, "Summary"]
    icons_and_labels = [icon for icon, _ in badges[:1]]
    for (_, label), (icon, _) in zip(badges, [*badges[1:], ("", "")], strict=True):
        icons_and_labels.append(f"{label}{icon}" if icon else label)
    lines += icons_and_labels[:-1]
    lines.append(icons_and_labels[-1] + bio)  # the last badge label glued to the bio
    lines += [
        f"{coding} years of coding experience",
        f"{employment} years of employment as a software developer",
        f"{studies} at {institution}",
        ", ".join(languages),
        f"Github Skills ({declared_skills})",
        *[f"{skill}{score}" for skill, score in skills],
        f"Programming languages ({declared_programming})",
        *[f"{lang}{score}" for lang, score in programming],
        f"Github contributions ({declared_contributions})",
    ]
    contributions = []
    for repository, description in repositories:
        start_text, start = _month(rng, 2014, 2020)
        end_year = start.year + rng.randint(0, 3)
        end = dt.date(
            end_year, rng.randint(1, 12) if end_year > start.year else rng.randint(start.month, 12), 1
        )
        months = _months_between(start, end)
        role, commits = rng.choice(ROLES), rng.randint(1, 400)
        tags = rng.sample(TAGS, rng.randint(1, 4))
        if rng.random() < 0.2:
            tags.insert(rng.randint(0, len(tags)), rng.choice(UNKNOWN_TAGS))
        summary = (
            f"{first}'s commits primarily involve refactoring the scheduler and adding tests. "
            "Their work focuses on reducing kernel launch overhead."
        )
        lines += [repository, f"{start_text} - {MONTHS[end.month - 1]} {end.year}", description]
        if rng.random() < 0.5:
            lines += ["Role in this project:", role]
        else:
            lines.append(f"Role in this project:{role}")
        plural = "s" if commits != 1 else ""
        lines += [
            f"{role}Contributions:{commits} commit{plural} in {_duration_text(months)}",
            f"Contributions summary:{summary}",
            "".join(tags),
        ]
        contributions.append(
            {
                "repository": repository,
                "description": description,
                "start": start,
                "end": end,
                "role": role,
                "commits": commits,
                "duration_months": months,
                "summary": summary,
                "tags": tags,
            }
        )
    lines.append(FOOTER)
    profile = {
        "layout": "talent_page",
        "name": name,
        "headline": f"{title} at {employer}",
        "title": title,
        "employer": employer,
        "location": location,
        "city": city,
        "region": region,
        "country": country,
        "summary": bio,
        "badges": [label for _, label in badges],
        "coding_years": coding,
        "employment_years": employment,
        "spoken_languages": languages,
        "declared_skills": declared_skills,
        "declared_programming_languages": declared_programming,
        "declared_contributions": declared_contributions,
    }
    expected = {
        "profile": profile,
        "education": [{"degree": degree, "field": studies.partition(", ")[2], "institution": institution}],
        "skills": [{"kind": "github_skill", "skill": s, "score": n} for s, n in skills]
        + [{"kind": "programming_language", "skill": s, "score": n} for s, n in programming],
        "contributions": contributions,
        "experience": [],
        "awards": [],
        "unparsed_lines": [],
    }
    return Generated("talent_page", "\n".join(lines) + "\n", expected)


def resume(rng: random.Random) -> Generated:
    lines = ["Experience", ""]
    experience = []
    positions = rng.sample(POSITIONS, rng.randint(1, 5))
    organizations = rng.sample(ORGANIZATIONS, len(positions))
    for position, (title, organization) in enumerate(zip(positions, organizations, strict=True), start=1):
        bullets = rng.sample(BULLETS, rng.randint(1, 4))
        supervisor = f"Dr. {_person(rng)[2]}" if rng.random() < 0.3 else None
        lines.append(title)
        lines += [f"- {bullet}" for bullet in bullets]
        lines.append("")
        if supervisor:
            lines += [f"{organization},", f"supervised by {supervisor}"]
        else:
            lines.append(organization)
        lines.append("")
        experience.append(
            {
                "position": position,
                "title": title,
                "organization": organization,
                "supervisor": supervisor,
                "bullets": bullets,
                "start": None,
                "end": None,
            }
        )
    awards = []
    for title, issuer in rng.sample(AWARDS, rng.randint(0, 4)):
        lines += [title, ""]
        if issuer:
            lines += [issuer, ""]
        awards.append({"title": title, "issuer": issuer})
    expected = {
        "profile": {"layout": "resume"},
        "education": [],
        "skills": [],
        "contributions": [],
        "experience": experience,
        "awards": awards,
        "unparsed_lines": [],
    }
    return Generated("resume", "\n".join(lines).rstrip("\n"), expected)


def profiles(count: int, seed: int = 7, resume_share: float = 0.4) -> list[Generated]:
    """`count` documents; about `resume_share` of them résumés. Same seed, same documents."""
    rng = random.Random(seed)
    return [resume(rng) if rng.random() < resume_share else talent_page(rng) for _ in range(count)]

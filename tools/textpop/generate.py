"""Generate a population of fictional developer profiles whose free text is real public wording.

    python -m tools.textpop OUT --count 2000 --seed 7

writes OUT/NNNN/docNNNNNN.txt (at most 1000 documents a folder) and OUT/truth.jsonl. It reads only the
stored data in benchmarks/data/textpop/ (see SOURCES.md there): no network, no mirror.

About 62% of the persons carry real per-person text (each real sentence is given to one person only):
  - résumé persons: the bullets of one résumé of the dotin-inc corpus (CC0);
  - talent-page persons: the commit messages of one numpy/scipy author (BSD-3) as contribution
    summaries, unique repository descriptions from awesome lists, and for some a bio made of the
    summary sentences of one résumé.
The rest carry template text (shared phrases written for this generator). Every person, colleague,
supervisor and employer is invented (Faker); only the wording of the real sentences is real.

truth.jsonl, one line a document: doc, layout, real_text, sources, and terms: a list of
[term, where] for every technical term of the vocabulary (dotin "Tech Tools" labels, Linguist
programming languages) that the document's free text mentions (bio, contribution summary, repository
description, experience bullet).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "textpop"

FOOTER = (
    "Find and Hire Top DevelopersWe\u2019ve analyzed the source code of millions of developers and "
    "scored them by skill. Sign up to search for developers."
)
BADGES = [
    ("\U0001f464", "Senior"),
    ("\U0001f393", "Top School"),
    ("\U0001f331", "Open Source Contributor"),
    ("\U0001f3e2", "Top Company"),
]
NAME_SEPS = [" ", " ", " ", "  ", "\u00a0", "\u2009", "\u202f"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
LOCALES = [
    "en_US",
    "en_GB",
    "de_DE",
    "fr_FR",
    "es_ES",
    "it_IT",
    "pt_BR",
    "pl_PL",
    "nl_NL",
    "tr_TR",
    "sv_SE",
    "cs_CZ",
    "ro_RO",
    "id_ID",
    "en_IN",
    "fi_FI",
    "da_DK",
    "es_MX",
    "hu_HU",
    "en_NG",
]
CITIES = [
    "Porto, Portugal",
    "Valencia, Spain",
    "Gdansk, Poland",
    "Brno, Czechia",
    "Cluj-Napoca, Romania",
    "Tampere, Finland",
    "Aarhus, Denmark",
    "Eindhoven, Netherlands",
    "Leipzig, Saxony, Germany",
    "Lyon, France",
    "Turin, Italy",
    "Izmir, Turkey",
    "Pune, Maharashtra, India",
    "Hyderabad, Telangana, India",
    "Lagos, Nigeria",
    "Nairobi, Kenya",
    "Bandung, Indonesia",
    "Curitiba, Brazil",
    "Guadalajara, Mexico",
    "Denver, Colorado, United States",
    "Raleigh, North Carolina, United States",
    "Toronto, Ontario, Canada",
    "Manchester, England, United Kingdom",
    "Gothenburg, Sweden",
    "Debrecen, Hungary",
    "Cork, Ireland",
    "Pittsburgh, Pennsylvania, United States",
    "Montreal, Quebec, Canada",
    "Wroclaw, Poland",
    "Graz, Austria",
]
TITLES = [
    "Software Engineer",
    "Senior Software Engineer",
    "Backend Developer",
    "Data Engineer",
    "Machine Learning Engineer",
    "Platform Engineer",
    "Full Stack Developer",
    "DevOps Engineer",
    "Research Engineer",
    "Mobile Developer",
    "Embedded Software Engineer",
    "Engineering Manager",
    "Site Reliability Engineer",
    "QA Automation Engineer",
    "Database Administrator",
    "Staff Engineer",
]
RES_TITLES = [
    "Software Developer",
    "Graduate Research Assistant",
    "Junior Developer",
    "Lead Engineer",
    "Technical Consultant",
    "Systems Analyst",
    "Intern",
    "Teaching Assistant",
    "Senior Developer",
    "Project Engineer",
    "Postdoctoral Researcher",
    "Team Lead, Data Services",
]
DEGREES = [
    "Bachelor of Science (B.Sc.), Computer Science",
    "Master of Science (M.Sc.), Computer Science",
    "Bachelor of Technology (B.Tech.), Information Technology",
    "Master of Engineering (M.Eng.), Software Engineering",
    "Doctor of Philosophy (Ph.D.), Applied Mathematics",
    "Bachelor of Engineering (B.E.), Electronics",
    "Master of Science (M.Sc.), Data Science",
]
UNIS = [
    "University of Tampere",
    "Brno University of Technology",
    "University of Porto",
    "Gdansk University of Technology",
    "University of Lagos",
    "University of Waterloo",
    "Politecnico di Torino",
    "Eindhoven University of Technology",
    "Indian Institute of Technology Bombay",
    "University of Manchester",
    "Technical University of Denmark",
    "Universidad de Guadalajara",
    "University of Nairobi",
    "Institut Teknologi Bandung",
    "Graz University of Technology",
]
LANGS = [
    "English",
    "German",
    "French",
    "Spanish",
    "Portuguese",
    "Polish",
    "Hindi",
    "Turkish",
    "Swahili",
    "Italian",
    "Dutch",
    "Czech",
    "Romanian",
    "Indonesian",
    "Yoruba",
    "Finnish",
    "Swedish",
    "Hungarian",
]
SKILLS = [
    "python",
    "java",
    "javascript",
    "docker",
    "kubernetes",
    "postgresql",
    "linux",
    "git",
    "numpy",
    "machine-learning",
    "algorithms",
    "data-structures",
    "testing",
    "ci-cd",
    "rest-api",
    "sql",
    "react",
    "c-language",
    "cpp",
    "scipy",
    "cython",
    "fortran",
    "linear-algebra",
    "statistics",
    "html",
    "css",
    "mysql",
    "spring",
    "django",
    "aws",
    "bash",
    "performance",
    "build-system",
    "optimization",
]
PLANGS = [
    "python",
    "java",
    "javascript",
    "typescript",
    "c",
    "cpp",
    "go",
    "rust",
    "kotlin",
    "scala",
    "ruby",
    "php",
    "fortran",
    "julia",
    "r",
    "cython",
    "shell",
]
ROLES = [
    "Back-end Developer",
    "Front-end Developer",
    "Core Contributor",
    "Maintainer",
    "ML Engineer",
    "Documentation Writer",
    "Contributor",
    "Release Manager",
]
REAL_REPO_DESC = {
    "numpy/numpy": "The fundamental package for scientific computing with Python.",
    "scipy/scipy": "SciPy library main repository",
}
# template text (shared phrases, written for this generator)
T_REPOS = [
    ("harborlight/tidewatch", "Lightweight metrics collector for container fleets."),
    ("fernwork/quarry", "A SQL query planner playground for teaching."),
    ("copperleaf-labs/loom", "Workflow engine for batch data jobs."),
    ("northgate/parcel", "Package registry mirror with offline sync."),
    ("bluefin-io/skein", "Structured logging library with pluggable sinks."),
    ("mosswood/atlas-ui", "Component library for internal dashboards."),
    ("tallgrass/relay", "Message relay between MQTT devices and Kafka topics."),
    ("ridgeline-ai/sprout", "Small experiments with gradient boosting on tabular data."),
]
T_BIO = [
    "{first} {last} is a {title} in {city} with {years} years of experience building {area}. At {employer} "
    "{first} works with {colleague} on {topic}, and {first}'s open-source work on {t1}, {t2} and {t3} shows "
    "a knack for {quality}.",
    "{first} {last} is a {title} in {city} who has spent {years} years on {area}. {first} currently works at "
    "{employer} alongside {colleague}, mostly with {t1} and {t2}, and enjoys {quality}.",
]
T_AREA = [
    "web back ends",
    "data pipelines",
    "developer tooling",
    "mobile apps",
    "numerical libraries",
    "payment systems",
    "search infrastructure",
    "test automation frameworks",
]
T_TOPIC = [
    "release tooling",
    "observability",
    "query performance",
    "API design",
    "build reproducibility",
    "onboarding documentation",
]
T_QUALITY = [
    "clean abstractions",
    "careful testing",
    "performance tuning",
    "readable documentation",
    "pragmatic design",
]
T_SUMMARY = [
    "{first}'s commits primarily involve {act}. Their work focuses on {focus}.",
    "{first} mainly contributed {act}. Most changes concern {focus}.",
]
T_ACT = [
    "bug fixes and small refactorings",
    "new tests and documentation updates",
    "build and CI changes",
    "API additions with accompanying tests",
    "performance improvements in hot loops",
]
T_FOCUS = [
    "the {t1} integration",
    "error handling around {t1}",
    "support for {t1} and {t2}",
    "the packaging of the {t1} bindings",
    "examples written in {t1}",
]
T_BULLETS = [
    "Developed and maintained services in {t1} and {t2} for internal customers.",
    "Wrote unit and integration tests using {t1}.",
    "Automated deployment of the team's applications with {t1}.",
    "Designed database schemas and reports on {t1}.",
    "Migrated legacy modules from {t1} to {t2}.",
    "Reviewed code and mentored two junior developers.",
    "Documented the system architecture and on-call procedures.",
    "Improved page load times by tuning queries in {t1}.",
    "Built dashboards for operations staff with {t1}.",
    "Participated in requirement analysis with business users.",
    "Took part in sprint planning and retrospectives as part of an agile team.",
    "Prepared monthly status reports for project stakeholders.",
]
T_AWARDS = [
    ("Dean's List", "Faculty of Engineering, {uni}"),
    ("Employee of the Quarter", "{org}"),
    ("Best Poster Award", "Student Research Symposium"),
    ("Merit Scholarship", "{uni}"),
    ("Hackathon Winner", "City Open Data Challenge"),
]
T_LABS = [
    "Distributed Systems Lab.",
    "Data Science Group",
    "Software Engineering Lab.",
    "Networks Group",
    "Scientific Computing Lab.",
]


def load(name: str) -> Any:
    with gzip.open(DATA / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def term_re(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![0-9a-z])" + re.escape(term) + r"(?![0-9a-z+#])")


class Vocab:
    def __init__(self, entries: list[dict[str, Any]]):
        self.entries = entries
        self.pats = [(e["term"], term_re(e["term"]), bool(e.get("ordinary_word"))) for e in entries]
        self.template_terms = [
            e["term"]
            for e in entries
            if "dotin-tech-tools" in e["sources"]
            and e.get("dotin_cvs", 0) >= 8
            and not e.get("ordinary_word")
        ] or [e["term"] for e in entries]
        self.display: dict[str, str] = {}

    def find(self, text: str, labelled: bool) -> list[str]:
        low = text.casefold()
        found = []
        for t, p, amb in self.pats:
            if amb and not labelled:
                continue
            if p.search(low):
                found.append(t)
        # drop terms contained in a longer found term at the same places (e.g. "java" in "core java")
        return sorted(found)


def display_term(t: str) -> str:
    special = {
        "c#": "C#",
        "c++": "C++",
        "javascript": "JavaScript",
        "mysql": "MySQL",
        "postgresql": "PostgreSQL",
        "php": "PHP",
        "html": "HTML",
        "css": "CSS",
        "xml": "XML",
        "json": "JSON",
        "jquery": "jQuery",
        "node.js": "Node.js",
        "mongodb": "MongoDB",
        "sqlite": "SQLite",
        "git": "Git",
    }
    if t in special:
        return special[t]
    return " ".join(w.upper() if len(w) <= 3 else w.capitalize() for w in t.split())


class Gen:
    def __init__(self, seed: int):
        from faker import Faker

        self.r = random.Random(seed)
        self.fakers = {loc: Faker(loc) for loc in LOCALES}
        for i, f in enumerate(self.fakers.values()):
            f.seed_instance(seed * 1000 + i)
        self.fake_en = self.fakers["en_US"]

    def person(self) -> tuple[str, str]:
        f = self.fakers[self.r.choice(LOCALES)]
        first = f.first_name().split()[0]
        last = f.last_name().split()[0]
        return first, last

    def company(self) -> str:
        name = self.fakers[self.r.choice(LOCALES)].company()
        name = re.sub(r"\s+", " ", name).strip()
        return name[:60]

    def slug(self) -> str:
        w = re.sub(r"[^a-z0-9]+", "-", self.company().lower()).strip("-")
        return "-".join(w.split("-")[:2]) or "labs"

    def dates(self) -> tuple[str, str]:
        y0 = self.r.randint(2011, 2022)
        m0 = self.r.randint(0, 11)
        span = self.r.randint(0, 44)
        m1 = m0 + span
        y1 = y0 + m1 // 12
        m1 %= 12
        a = f"{MONTHS[m0]} {y0} - {MONTHS[m1]} {y1}"
        yrs, mos = divmod(span, 12)
        if yrs and mos:
            d = f"{yrs} year{'s' if yrs > 1 else ''} {mos} month{'s' if mos > 1 else ''}"
        elif yrs:
            d = f"{yrs} year{'s' if yrs > 1 else ''}"
        else:
            d = f"{mos} month{'s' if mos != 1 else ''}"
        return a, d


def render_talent(g: Gen, p: dict[str, Any]) -> str:
    r = g.r
    lines = [
        f"{p['first']}{r.choice(NAME_SEPS)}{p['last']}",
        f"{p['title']} at {p['employer']}",
        p["city"],
        "Summary",
    ]
    badges = r.sample(BADGES, r.randint(1, 3))
    lines.append(badges[0][0])
    for i, (_emo, name) in enumerate(badges):
        if i + 1 < len(badges):
            lines.append(name + badges[i + 1][0])
        else:
            lines.append(name + p["bio"])
    lines.append(f"{p['years_code']} years of coding experience")
    lines.append(f"{p['years_emp']} years of employment as a software developer")
    deg = r.choice(DEGREES)
    lines.append((f"{deg}, {deg}" if r.random() < 0.4 else deg) + f" at {r.choice(UNIS)}")
    lines.append(", ".join(r.sample(LANGS, r.randint(1, 3))))
    sk = r.sample(SKILLS, r.randint(3, 12))
    lines.append(f"Github Skills ({len(sk) + r.choice([0, 0, 0, 1, 2, 3])})")
    for s in sorted(sk, key=lambda _: -r.random()):
        lines.append(f"{s}{r.randint(5, 10)}")
    pl = r.sample(PLANGS, r.randint(0, 3))
    lines.append(f"Programming languages ({len(pl) + r.choice([0, 0, 1, 2])})")
    for s in pl:
        lines.append(f"{s}{r.randint(5, 10)}")
    lines.append(f"Github contributions ({len(p['contribs'])})")
    for c in p["contribs"]:
        span, dur = g.dates()
        role = r.choice(ROLES)
        lines += [c["repo"], span, c["desc"]]
        if r.random() < 0.5:
            lines.append(f"Role in this project:{role}")
        else:
            lines += ["Role in this project:", role]
        lines.append(f"{role}Contributions:{r.randint(3, 400)} commits in {dur}")
        lines.append("Contributions summary:" + c["summary"])
        lines.append("".join(r.sample(SKILLS, r.randint(1, 4))))
    lines.append(FOOTER)
    return "\n".join(lines) + "\n"


def render_resume(g: Gen, p: dict[str, Any]) -> str:
    out = ["Experience", ""]
    for pos in p["positions"]:
        out.append(pos["title"])
        out += [f"- {b}" for b in pos["bullets"]]
        out.append("")
        if pos.get("supervisor"):
            out.append(pos["org"] + ",")
            out.append(f"supervised by Dr. {pos['supervisor']}")
        else:
            out.append(pos["org"])
        out.append("")
    for a, b in p["awards"]:
        out += [a, "", b, ""]
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def org_name(g: Gen) -> str:
    r = g.r
    k = r.random()
    if k < 0.5:
        return g.company()
    if k < 0.8:
        return f"{r.choice(T_LABS)}, {r.choice(UNIS)}"
    return f"{g.company()}, {r.choice(['Research', 'Applied AI', 'Platform Group', 'Digital Services'])}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.textpop")
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--real-share", type=float, default=0.62)
    a = ap.parse_args(argv)
    out = Path(a.out)
    g = Gen(a.seed)
    r = g.r
    vocab = Vocab(load("vocabulary"))
    cvs = load("cvs")
    authors = load("commit_authors")
    repos = load("repo_descriptions")
    r.shuffle(cvs)
    r.shuffle(authors)
    r.shuffle(repos)

    n = a.count
    n_res = n // 2
    n_tal = n - n_res
    # résumé persons with real text: one per résumé; long résumés are split in two persons (each
    # sentence still goes to one person); some résumés give their first sentences as a talent bio.
    res_real: list[dict[str, Any]] = []
    bios: list[dict[str, Any]] = []
    for cv in cvs:
        sents = cv["summary"] + cv["body"]
        titles = cv["titles"]
        if len(sents) >= 14 and len(bios) < n_tal // 4:
            k = r.randint(2, 4)
            bios.append({"sents": sents[:k], "src": cv["src"]})
            sents = sents[k:]
        if len(sents) >= 26:
            half = len(sents) // 2
            res_real.append({"sents": sents[:half], "titles": titles, "src": cv["src"]})
            res_real.append({"sents": sents[half:], "titles": titles, "src": cv["src"]})
        elif sents:
            res_real.append({"sents": sents, "titles": titles, "src": cv["src"]})
    target_real = round(n * a.real_share)
    n_res_real = min(len(res_real), n_res, target_real)
    n_tal_real = min(len(authors), n_tal, target_real - n_res_real)
    res_real = res_real[:n_res_real]

    persons = []
    for i in range(n_res):
        persons.append(("resume", res_real[i] if i < len(res_real) else None))
    repo_iter = iter(repos)
    bio_iter = iter(bios)
    for i in range(n_tal):
        persons.append(("talent", authors[i] if i < n_tal_real else None))
    r.shuffle(persons)

    folder_docs: dict[int, int] = {}
    out.mkdir(parents=True, exist_ok=True)
    truth_f = open(out / "truth.jsonl", "w", encoding="utf-8")  # noqa: SIM115
    n_real = 0
    for idx, (layout, src) in enumerate(persons):
        first, last = g.person()
        terms: list[list[str]] = []
        sources: list[str] = []

        def note(text: str, where: str, labelled: bool = False, terms: list[list[str]] = terms) -> None:
            for t in vocab.find(text, labelled):
                if [t, where] not in terms:
                    terms.append([t, where])

        def tpl_terms(k: int) -> list[str]:
            return [display_term(t) for t in r.sample(vocab.template_terms, k)]

        if layout == "talent":
            title = r.choice(TITLES)
            employer = g.company()
            city = r.choice(CITIES)
            years = r.randint(2, 20)
            cfirst, clast = g.person()
            if src is not None:
                bio_sents = next(bio_iter, None)
                lead = f"{first} {last} is a {title} in {city.split(',')[0]}."
                if bio_sents:
                    bio = lead + " " + " ".join(bio_sents["sents"])
                    sources.append(f"dotin-cv-summary:{bio_sents['src']}")
                else:
                    t1, t2, t3 = tpl_terms(3)
                    bio = r.choice(T_BIO).format(
                        first=first,
                        last=last,
                        title=title,
                        city=city.split(",")[0],
                        years=years,
                        area=r.choice(T_AREA),
                        employer=employer,
                        colleague=f"{cfirst} {clast}",
                        topic=r.choice(T_TOPIC),
                        t1=t1,
                        t2=t2,
                        t3=t3,
                        quality=r.choice(T_QUALITY),
                    )
                commits = [s for c in src["commits"] for s in c]
                ncon = max(1, min(r.randint(1, 4), len(commits) // 3))
                chunks = [commits[j::ncon] for j in range(ncon)]
                contribs = []
                for j, ch in enumerate(chunks):
                    if j == 0:
                        repo, desc = src["repo"], REAL_REPO_DESC[src["repo"]]
                    else:
                        rd = next(repo_iter, None)
                        if rd is None:
                            repo, desc = r.choice(T_REPOS)
                        else:
                            repo, desc = f"{g.slug()}/{rd['repo']}", rd["desc"]
                            note(desc, "repo_description")
                            sources.append(f"awesome-list:{rd['list']}")
                    contribs.append({"repo": repo, "desc": desc, "summary": " ".join(ch[:6])})
                    note(" ".join(ch[:6]), "contribution_summary")
                sources.append(f"commits:{src['repo']}")
            else:
                t1, t2, t3 = tpl_terms(3)
                bio = r.choice(T_BIO).format(
                    first=first,
                    last=last,
                    title=title,
                    city=city.split(",")[0],
                    years=years,
                    area=r.choice(T_AREA),
                    employer=employer,
                    colleague=f"{cfirst} {clast}",
                    topic=r.choice(T_TOPIC),
                    t1=t1,
                    t2=t2,
                    t3=t3,
                    quality=r.choice(T_QUALITY),
                )
                contribs = []
                for repo, desc in r.sample(T_REPOS, r.randint(1, 3)):
                    u1, u2 = tpl_terms(2)
                    summ = r.choice(T_SUMMARY).format(
                        first=first, act=r.choice(T_ACT), focus=r.choice(T_FOCUS).format(t1=u1, t2=u2)
                    )
                    contribs.append({"repo": repo, "desc": desc, "summary": summ})
                    note(summ, "contribution_summary")
                    note(desc, "repo_description")
            note(bio, "bio", labelled=any(x.startswith("dotin-cv-summary") for x in sources))
            p = {
                "first": first,
                "last": last,
                "title": title,
                "employer": employer,
                "city": city,
                "bio": bio,
                "years_code": years,
                "years_emp": r.randint(1, 20),
                "contribs": contribs,
            }
            text = render_talent(g, p)
        else:
            positions = []
            if src is not None:
                sents = list(src["sents"])
                npos = max(1, min(r.randint(2, 5), (len(sents) + 2) // 3))
                per = [sents[j::npos][:5] for j in range(npos)]
                titles = src["titles"] or []
                for j, bl in enumerate(per):
                    if not bl:
                        continue
                    t = titles[j] if j < len(titles) else r.choice(RES_TITLES)
                    positions.append({"title": t, "bullets": bl, "org": org_name(g)})
                    for b in bl:
                        note(b, "experience_bullet", labelled=True)
                sources.append(f"dotin-cv:{src['src']}")
            else:
                for _ in range(r.randint(1, 4)):
                    bl = []
                    for tb in r.sample(T_BULLETS, r.randint(1, 4)):
                        u1, u2 = tpl_terms(2)
                        bl.append(tb.format(t1=u1, t2=u2))
                    positions.append({"title": r.choice(RES_TITLES), "bullets": bl, "org": org_name(g)})
                    for b in bl:
                        note(b, "experience_bullet")
            for pos in positions:
                if r.random() < 0.25:
                    sf, sl = g.person()
                    pos["supervisor"] = f"{sf} {sl}"
            awards = []
            for aw, body in r.sample(T_AWARDS, r.choice([0, 0, 1, 1, 2, 3])):
                awards.append((aw, body.format(uni=r.choice(UNIS), org=g.company())))
            text = render_resume(g, {"positions": positions, "awards": awards})
        real = src is not None
        n_real += real
        folder = idx // 1000
        d = out / f"{folder:04d}"
        d.mkdir(parents=True, exist_ok=True)
        rel = f"{folder:04d}/doc{idx:06d}.txt"
        (out / rel).write_text(text, encoding="utf-8")
        folder_docs[folder] = folder_docs.get(folder, 0) + 1
        truth_f.write(
            json.dumps(
                {"doc": rel, "layout": layout, "real_text": real, "sources": sources, "terms": terms},
                ensure_ascii=False,
            )
            + "\n"
        )
    truth_f.close()
    print(json.dumps({"docs": len(persons), "real_text_persons": n_real, "folders": len(folder_docs)}))


if __name__ == "__main__":
    main()

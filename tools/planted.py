"""Fictional developer profiles with planted identifiers: the ground truth for privacy evaluations.

Like tools.synth, every document is in one of the two layouts the parser reads (talent page or résumé), with
the same defects. Unlike synth, each document records what a scrubber must remove and what it must keep:
- `person_identifiers`: the person's own names and contact details, in the forms real data has them (full
  name behind a no-break space, glued to a badge, in capitals, "First's", e-mail and its local part, handle,
  profile URL, personal site, repositories under the person's account, a phone number);
- `other_names`: colleagues, co-authors and supervisors ("with X", "mentored by X", "supervised by Dr. X"),
  including names with particles ("van der Heyden", "da Cunha") and accented names;
- `technical_words`: tools, languages and fields written inside the free text, many of which NER takes for
  people or places (Triton, Kafka, Azure, Oracle, Go, Julia ...).

All people are made up by Faker from many locales (Latin-script names only), seeded, so the same seed gives
the same documents. Handles and e-mail local parts are mostly made from the name ("maria.dacunha"), about
a third not ("quietotter42"). Names are chosen so that evaluations can match them on word boundaries
without false hits: no name word is a word of the templates or a technical term, and no word of a person's
own name is used by anyone else in the set (up to about 1,000 documents; beyond, Faker's name lists run
short and a few owners share a name word with someone else). Technical words appear only in free text
(bio, descriptions, contribution summaries, bullets), so counting them in a whole document counts them in
its free text.

Run `python -m tools.planted OUT [--count N] [--seed S]` to write OUT/docs/docNNNN.txt and OUT/truth.jsonl
and check that every document parses as intended.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import sys
import tempfile
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import phonenumbers
from faker import Faker


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


LOCALES = _words("en_US pt_BR de_DE fr_FR es_ES nl_NL pl_PL it_IT tr_TR vi_VN ja_JP en_IN yo_NG sv_SE cs_CZ")
PARTICLE_LOCALES = ("nl_NL", "pt_BR")
PARTICLES = frozenset(
    _words("van von der den de da das do dos di del della la le du des ten ter te zu bin al el y e")
)
SPACES = ("\u00a0", "\u00a0", "\u2009", "\u202f", " ", "  ")

# Technical words written in free text. Single words are terms of rules/vocabularies/technical_terms.yaml
# (compared case-insensitively); TRICKY are the ones NER tends to take for people or places.
TRICKY = _words("Triton Kafka Azure XLA Spark Oracle Go Rust Julia Ruby Flask Django Jupyter")
TECHNICAL = _words(
    "Python Scala Kotlin Haskell Erlang Elixir Fortran CUDA OpenCL TypeScript WebAssembly Kubernetes Docker "
    "Terraform Ansible Helm Flink Airflow Hadoop Dask Ray MLIR LLVM TVM ONNX TensorRT JAX PyTorch TensorFlow "
    "Keras NumPy Pandas Polars SciPy PostgreSQL MySQL SQLite MongoDB Redis Elasticsearch Cassandra AWS GCP "
    "React Vue Angular Svelte FastAPI Spring Rails Bazel CMake gRPC Protobuf GraphQL Nginx OpenCV LangChain "
    "OpenMP MPI BLAS Vulkan OpenGL Unity Caffe MXNet Linux Git"
)
FIELDS = (
    "Computer Science",
    "Deep Learning",
    "Linear Algebra",
    "Distributed Systems",
    "Computer Vision",
    "Natural Language Processing",
    "Reinforcement Learning",
)
MULTI_WORD_TOOLS = (
    "Apache Spark",
    "Google Cloud",
    "Spring Boot",
    "Ruby on Rails",
    "ONNX Runtime",
    "Unreal Engine",
)

TITLES = (
    "Senior Software Engineer",
    "Staff Engineer",
    "Backend Developer",
    "Principal Engineer",
    "Data Engineer",
    "Compiler Engineer",
    "Site Reliability Engineer",
    "Research Scientist",
    "Engineering Manager",
    "Platform Engineer",
)
EMPLOYERS = (
    "Northwind Labs",
    "Blue Heron Systems",
    "Quillfeather",
    "Tessellate",
    "Orbital Freight",
    "Kestrel Compute",
    "Marigold Health",
    "Ironbark Data",
    "Lumen Robotics",
    "Cobalt Harbor",
)
LOCATIONS = (
    ("Lisbon", None, "Portugal"),
    ("Seattle", "Washington", "United States"),
    ("Osaka", None, "Japan"),
    ("Toronto", "Ontario", "Canada"),
    ("Kraków", None, "Poland"),
    ("Lagos", None, "Nigeria"),
    ("Bengaluru", "Karnataka", "India"),
    ("Porto Alegre", "Rio Grande do Sul", "Brazil"),
    ("Utrecht", None, "Netherlands"),
    ("Lyon", None, "France"),
    ("Valencia", None, "Spain"),
    ("Turin", None, "Italy"),
    ("Izmir", None, "Turkey"),
    ("Hanoi", None, "Vietnam"),
    ("Brno", None, "Czechia"),
    ("Gothenburg", None, "Sweden"),
    ("Munich", "Bavaria", "Germany"),
)
BADGES = (("👤", "Senior"), ("🎓", "Top School"), ("🏢", "Top Company"), ("🌱", "Open Source Contributor"))
DEGREES = (
    ("Bachelor of Science (B.Sc.)", "Software Engineering"),
    ("Master of Science (M.Sc.)", "Electrical Engineering"),
    ("Doctor of Philosophy (Ph.D.)", "Computer Engineering"),
    ("Master of Engineering (M.Eng.)", "Applied Mathematics"),
)
INSTITUTIONS = (
    "Lakeside University",
    "Hillcrest Institute of Technology",
    "Northgate Polytechnic",
    "Riverbend University",
    "Coastal Institute of Science",
)
LANGUAGES = _words("English Portuguese Japanese Polish Hindi Dutch Spanish Turkish German")
SKILLS = _words(
    "python rust go kubernetes tensorflow pytorch compiler machine-learning linear-algebra algorithms docker "
    "postgresql kafka distributed-systems cuda llvm mlir numpy code-optimization build-system python3"
)
PROGRAMMING_LANGUAGES = _words("python rust go java typescript scala kotlin julia")
TAGS = _words(
    "ai deep-learning tensorflow machine-learning python compiler kubernetes docker gpu rust database "
    "distributed-systems kafka llvm mlir numpy"
)
ROLES = ("Back-end Developer", "Front-end Developer", "Maintainer", "Core Contributor", "ML Engineer")
ORG_REPOSITORIES = _words(
    "tessellate-labs/tessera ironbark/ledgerline lumen-robotics/gait openquill/quill kestrel-compute/skyhook "
    "marigold/pulse"
)
OWN_REPOSITORIES = _words(
    "tessera-bench dotfiles quill-lint sched-sim fusion-playground tiny-profiler ledger-lab sparse-kit "
    "bench-harness paper-code talks notebooks"
)
DESCRIPTIONS = (
    "A tensor compiler for heterogeneous accelerators, with a {T} front end and a {T} back end.",
    "Streaming change-data-capture from {T} into {T} for analytical databases.",
    "Motion planning toolkit for legged robots, written in {T}.",
    "A fast, embeddable markdown engine with {T} bindings.",
    "Job scheduler for GPU clusters on {T} and {T}.",
    "Benchmarks and notes on {MW} kernels in {T}.",
)
SUMMARIES = (
    "{first}'s commits primarily involve refactoring the {T} scheduler and adding tests. Their work focuses "
    "on reducing kernel launch overhead.",
    "{first}'s commits add a {T} backend and fix {T} build breaks, reviewed with {O}.",
    "{first} contributed a {T} exporter and benchmarks for {T}; the work was pair-programmed with {O}.",
    "Commits signed off as {caps} add {T} support and documentation for {T}.",
    "{first}'s work here ports the {T} bindings to {T} and removes dead code, following a design by {O}.",
)
CONTACT_SUMMARIES = (
    "{first}'s commits add a {T} operator; questions go to {email}.",
    "{first} maintains this fork; issues are triaged at https://{site} and in {T} channels.",
)
BIO_OPENINGS = (
    "{full} is a {title} in {city} with {years} years of experience building {T} and {T} platforms.",
    "{full} is a {title} based in {city} who builds {T} services and {T} tooling.",
    "{full} works as a {title} in {city}, focused on {MW} and {T}.",
)
BIO_MIDDLES = (
    "At {employer} {first} works with {O} on {T} scheduling, and {first}'s open-source work on {T}, {T} and "
    "{T} shows a knack for performance.",
    "Previously {first} was mentored by {O} while porting {T} workloads to {T}.",
    "{first} holds a degree related to {MW} and co-authored a survey of {T} compilers with {O} and {O}.",
    "The team still runs {last}'s profiler for {T} jobs on {T}.",
    "{first}'s talks on {T} and {MW} are listed under {caps} on the conference site.",
    "Outside work, {first} teaches {T} to new hires together with {O}.",
)
BIO_CONTACTS = (
    "Reach {first} at {email} or {phone}.",
    "Code lives at https://{profile}; writing at https://{site}.",
    "Maintains {profile} and blogs at {site} about {T}.",
    "Contact: {email}, {phone}, https://{site}.",
)
RESUME_TITLES = (
    "Principal Research Engineer",
    "Senior Staff Engineer and Team Lead",
    "Research Assistant",
    "Software Engineer",
    "Intern",
    "Undergraduate Research Assistant",
    "Open Source Maintainer",
)
ORGANIZATIONS = (
    "Northwind Labs",
    "Blue Heron Systems, Applied Research",
    "Parallel Systems Lab., Lakeside University",
    "Kestrel Compute",
    "Vision Group at Hillcrest Institute",
    "Quillfeather Research",
    "Cobalt Harbor",
)
BULLETS = (
    "Led a team of six building a compiler on {T} for in-house accelerators.",
    "Cut inference latency by 40% through kernel fusion in {T} on GPU and CPU back ends.",
    "Designed a streaming pipeline on {T} and {T} processing 2 billion events a day.",
    "Migrated 300 services to {T} with zero downtime.",
    "Published two papers on {MW} for GPUs.",
    "Built the internal {T} data platform on {T} and {T}.",
    "Replaced a legacy {T} reporting stack with {T} and {MW} models.",
)
OTHER_BULLETS = (
    "Co-authored two papers on {MW} with {O}.",
    "Mentored by {O} while migrating {T} jobs to {T}.",
    "Worked with {O} and {O} on the {T} inference service.",
    "Ran the {T} reading group with {O}.",
)
OWNER_BULLETS = {
    "contact": "Reach me at {email} or {phone} for collaboration on {T}.",
    "profile": "Maintains {profile} and the {repo} benchmark suite for {T}.",
    "repo": "Author of {repo}, a {T} profiler used by {T} teams.",
    "site": "Writes about {T} and {MW} at https://{site}.",
    "full": "Nominated as {full}, lead maintainer, for the {T} community award.",
    "caps": "Listed as {caps} on the program committee of a {MW} workshop.",
    "possessive": "{first}'s patch series adding {T} support to {T} was merged upstream.",
    "last": "The {last} scheduler, a {T} plug-in, became the default for {T} clusters.",
}
AWARDS = (
    ("Marlow Endowed Fellowship", "School of Engineering, Lakeside University"),
    ("National Merit Scholarship", "Ministry of Education"),
    ("Best Paper Award", "Symposium on Compiler Construction"),
    ("Gold medal in the Regional Informatics Olympiad", None),
    ("Graduate Research Traineeship: Neural Computation", "Science Foundation"),
)
FOOTER = (
    "Find and Hire Top DevelopersWe\u2019ve analyzed the source code of millions of developers and scored "
    "them by skill. Sign up to search for developers."
)
MONTHS = _words("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec")
# A share of handles and e-mail local parts say nothing of the person's name, as in real data.
NICKNAME_SHARE = 0.3
NICK_ADJECTIVES = _words("quiet amber rapid lunar tidal silent brave crimson misty polar sunny clever dusty")
NICK_NOUNS = _words("fox otter heron lynx falcon maple cedar comet badger walrus finch moth pebble")
EMAIL_DOMAINS = ("example.com", "example.org", "example.net", "mail.example.com")
# Words a scrubber or its report may write (placeholders, common English words); no name may be one of them.
RESERVED = _words(
    "person location organization email address phone number url date time nrp redacted name a an and "
    "are as at be been but by can do for from has have he her his i if in is it its may me my no not of on "
    "or our per she so than that the their them then there these they this to up us was we were will with "
    "you your all any one two new old long job mark bill art page hope rose grant king love faith dean lane "
    "young rich june april august summer winter case count value values row rows column columns table "
    "tables rule rules report key keys hit hits kind note pass passed true false null none total min max "
    "mean release action actions"
)

_WORD = re.compile(r"[^\W\d_]+")
_FIELD = re.compile(r"\{(\w+)\}")
_ASCII = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "\u0131": "i", "ß": "ss"})
_ASCII.update(str.maketrans({"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "ð": "d"}))


@dataclass
class Planted:
    """One document and its truth. `identifier_kinds[i]` names the kind of `person_identifiers[i]`."""

    layout: str
    text: str
    person_identifiers: list[str]
    other_names: list[str]
    technical_words: list[str]
    identifier_kinds: list[str] = field(default_factory=list)
    full_name: str = ""


def fold(text: str) -> str:
    """Case, accents (NFKD, combining marks dropped) and white space folded: how evaluations compare text."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().split())


def word_pattern(term: str) -> re.Pattern[str]:
    """`term` (folded) on word boundaries, for searching folded text."""
    return re.compile(r"(?<!\w)" + re.escape(fold(term)) + r"(?!\w)")


def _ascii(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII))
    return "".join(ch for ch in decomposed if ch.isascii() and ch.isalnum()).lower()


def _latin(text: str) -> bool:
    return all(not ch.isalpha() or "LATIN" in unicodedata.name(ch, "") for ch in text)


def _background_words() -> frozenset[str]:
    """Every word the templates and vocabularies can write: names must avoid them."""
    texts: list[str] = [
        *RESERVED,
        *TECHNICAL,
        *FIELDS,
        *MULTI_WORD_TOOLS,
        *TITLES,
        *EMPLOYERS,
        *INSTITUTIONS,
        *LANGUAGES,
    ]
    texts += [*DESCRIPTIONS, *SUMMARIES, *CONTACT_SUMMARIES, *BIO_OPENINGS, *BIO_MIDDLES, *BIO_CONTACTS]
    texts += [*RESUME_TITLES, *ORGANIZATIONS, *BULLETS, *OTHER_BULLETS, *OWNER_BULLETS.values(), *ROLES]
    texts += [*SKILLS, *TAGS, *OWN_REPOSITORIES, *ORG_REPOSITORIES, *EMAIL_DOMAINS, *MONTHS, FOOTER]
    texts += [*NICK_ADJECTIVES, *NICK_NOUNS]
    texts += [part for location in LOCATIONS for part in location if part]
    texts += [label for _, label in BADGES] + [text for pair in DEGREES + AWARDS for text in pair if text]
    texts += _vocabulary_file("technical_terms.yaml") + _vocabulary_file("spoken_languages.yaml")
    texts += ["years of coding experience employment as a software developer Github Skills Programming"]
    texts += ["languages contributions Role in this project Contributions summary commits commit in month"]
    texts += ["Experience Summary supervised by Dr Mr Ms Mrs Prof"]
    return frozenset(fold(word) for text in texts for word in _WORD.findall(fold(text)))


def _vocabulary_file(name: str) -> list[str]:
    import yaml

    path = Path(__file__).resolve().parent.parent / "rules" / "vocabularies" / name
    if not path.is_file():
        return []
    terms = yaml.safe_load(path.read_text(encoding="utf-8")).get("terms", [])
    return [str(term) for term in terms]


@dataclass(frozen=True)
class _Person:
    first: str
    last: str

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    def words(self) -> list[str]:
        """The words that identify: all but the particles of a surname ("van", "der" of "van der Berg")."""
        last = _WORD.findall(fold(self.last))
        return _WORD.findall(fold(self.first)) + [w for w in last[:-1] if w not in PARTICLES] + last[-1:]


class _People:
    """Draws fictional people from Faker; keeps each profile owner's name words unique in the set."""

    def __init__(self, rng: random.Random, seed: int) -> None:
        self.rng = rng
        self.fakers: dict[str, Faker] = {}
        for index, locale in enumerate(LOCALES):
            fake = Faker(locale)
            fake.seed_instance(seed * 1000 + index)
            self.fakers[locale] = fake
        self.background = _background_words()
        self.owner_words: set[str] = set()
        self.all_words: set[str] = set()

    def _draw(self, locale: str) -> _Person | None:
        fake, gender = self.fakers[locale], self.rng.choice(("male", "female"))
        if locale == "ja_JP":
            first = getattr(fake, f"first_romanized_name_{gender}")()
            last = fake.last_romanized_name()
        else:
            first = getattr(fake, f"first_name_{gender}")()
            last = getattr(fake, f"last_name_{gender}", fake.last_name)()
        person = _Person(unicodedata.normalize("NFC", first), unicodedata.normalize("NFC", last))
        words = person.words()
        if not _latin(person.full) or not words or any(len(w) < 2 or w in self.background for w in words):
            return None
        if PARTICLES & set(words):  # "Vân" and "Lê" fold to the particles of "van Dijk" and "Le Gall"
            return None
        return person

    def owner(self) -> _Person:
        for attempt in range(400):
            person = self._draw(self.rng.choice(LOCALES))
            if person and (attempt > 300 or not set(person.words()) & self.all_words):
                self.owner_words.update(person.words())
                self.all_words.update(person.words())
                return person
        raise RuntimeError("could not draw a profile owner")

    def others(self, owner: _Person, count: int) -> list[_Person]:
        chosen: list[_Person] = []
        while len(chosen) < count:
            wants_particle = not chosen and self.rng.random() < 0.5
            locale = self.rng.choice(PARTICLE_LOCALES if wants_particle else LOCALES)
            person = self._draw(locale)
            if person is None or person.full in {p.full for p in [owner, *chosen]}:
                continue
            if set(person.words()) & self.owner_words:
                continue
            if wants_particle and not PARTICLES & set(fold(person.last).split()):
                continue
            self.all_words.update(person.words())
            chosen.append(person)
        return chosen


def _phone(rng: random.Random) -> str:
    """A valid mobile number of a random country, written in one of several international styles."""
    region = rng.choice(("US", "GB", "DE", "BR", "FR", "NL", "PL", "IT", "ES", "TR", "VN", "JP", "IN", "PT"))
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    assert example is not None, region
    national = str(example.national_number)
    number = example
    for _ in range(200):
        keep = 3 if len(national) > 9 else 2
        digits = national[:keep] + "".join(str(rng.randint(0, 9)) for _ in range(len(national) - keep))
        candidate = phonenumbers.parse(f"+{example.country_code}{digits}")
        if phonenumbers.is_valid_number(candidate):
            number = candidate
            break
    international = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    code, _, rest = international.partition(" ")
    style = rng.randrange(5)
    if style == 0:
        return international
    if style == 1:
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    if style == 2:
        return "00" + international[1:]
    if style == 3:
        return f"({code}) {rest}"
    return f"{code}-{rest.replace(' ', '-')}"


class _Writer:
    """Fills templates for one document, recording the technical words and other people it writes."""

    def __init__(self, rng: random.Random, fields: dict[str, str], others: list[_Person]) -> None:
        self.rng, self.fields, self.others = rng, fields, others
        self.next_other = 0
        self.technical: list[str] = []
        self.others_used: list[str] = []

    def tech(self, avoid: Sequence[str] = ()) -> str:
        while True:
            draw = self.rng.random()
            word = self.rng.choice(TRICKY if draw < 0.45 else MULTI_WORD_TOOLS if draw < 0.52 else TECHNICAL)
            if word not in avoid:
                break
        self.technical.append(word)
        return word

    def field(self) -> str:
        word = self.rng.choice(FIELDS)
        self.technical.append(word)
        return word

    def other(self) -> str:
        person = self.others[self.next_other % len(self.others)]
        self.next_other += 1
        self.others_used.append(person.full)
        return person.full

    def fill(self, template: str) -> str:
        written: list[str] = []

        def value(match: re.Match[str]) -> str:
            key = match[1]
            if key == "T":
                written.append(self.tech(avoid=written))
                return written[-1]
            if key == "MW":
                return self.field()
            if key == "O":
                return self.other()
            return self.fields[key]

        return _FIELD.sub(value, template)


def _nickname(rng: random.Random) -> str:
    """A handle that says nothing of the name ("quietotter42"), as many developers' handles are."""
    adjective, noun = rng.choice(NICK_ADJECTIVES), rng.choice(NICK_NOUNS)
    return rng.choice((f"{adjective}{noun}{rng.randint(1, 99)}", f"{adjective}-{noun}", f"{noun}{adjective}"))


def _identity(rng: random.Random, person: _Person) -> dict[str, str]:
    first, last = _ascii(person.first), _ascii(person.last)
    local = rng.choice((f"{first}.{last}", f"{first}{last}", f"{first[0]}{last}", f"{first}_{last}"))
    local = rng.choice((local, f"{local}{rng.randint(1, 99)}"))
    handle = rng.choice((f"{first}{last}", f"{first[0]}{last}", f"{first}-{last}", f"{last}{first[0]}"))
    handle = rng.choice((handle, f"{handle}{rng.randint(1, 99)}", f"{handle}-dev"))
    if rng.random() < NICKNAME_SHARE:
        handle = _nickname(rng)
    if rng.random() < NICKNAME_SHARE:
        local = _nickname(rng).replace("-", ".")
    host = rng.choice(("github.com", "github.com", "github.com", "gitlab.com"))
    site = rng.choice(
        (f"{handle}.dev", f"{first}{last}.me", f"{handle}.github.io", f"www.{first}-{last}.net")
    )
    return {
        "full": person.full,
        "first": person.first,
        "last": person.last,
        "caps": person.full.upper(),
        "possessive": f"{person.first}'s",
        "email": f"{local}@{rng.choice(EMAIL_DOMAINS)}",
        "email_local": local,
        "handle": handle,
        "profile": f"{host}/{handle}",
        "site": site,
        "repo": f"{handle}/{rng.choice(OWN_REPOSITORIES)}",
        "phone": _phone(rng),
    }


IDENTIFIER_KINDS = {
    "full": "full_name",
    "first": "first_name",
    "last": "last_name",
    "caps": "name_in_capitals",
    "possessive": "possessive",
    "email": "email",
    "email_local": "email_local_part",
    "handle": "handle",
    "profile": "profile_url",
    "site": "personal_site",
    "repo": "own_repository",
    "phone": "phone",
}


def _month(rng: random.Random, year_from: int, year_to: int) -> dt.date:
    return dt.date(rng.randint(year_from, year_to), rng.randint(1, 12), 1)


def _duration_text(months: int) -> str:
    years, rest = divmod(months, 12)
    parts = [f"{years} year{'s' if years != 1 else ''}"] if years else []
    if rest or not years:
        parts.append(f"{rest} month{'s' if rest != 1 else ''}")
    return " ".join(parts)


def _talent_page(rng: random.Random, fields: dict[str, str], writer: _Writer) -> str:
    title, employer = rng.choice(TITLES), rng.choice(EMPLOYERS)
    city, region, country = rng.choice(LOCATIONS)
    fields.update(title=title, employer=employer, city=city, years=str(rng.randint(3, 25)))
    bio = [writer.fill(rng.choice(BIO_OPENINGS))]
    bio += [writer.fill(template) for template in rng.sample(BIO_MIDDLES, rng.randint(2, 3))]
    contacts = rng.sample(BIO_CONTACTS, rng.randint(1, 2))
    if not any("{email}" in template for template in contacts):
        contacts.append(BIO_CONTACTS[0])
    if not any("{profile}" in template for template in contacts):
        contacts.append(BIO_CONTACTS[2])
    bio += [writer.fill(template) for template in contacts]
    badges = rng.sample(BADGES, rng.randint(1, 3))
    labels = [icon for icon, _ in badges[:1]]
    for (_, label), (icon, _) in zip(badges, [*badges[1:], ("", "")], strict=True):
        labels.append(f"{label}{icon}" if icon else label)
    degree, field_ = rng.choice(DEGREES)
    lines = [fields["full"].replace(" ", rng.choice(SPACES), rng.choice((1, 1, -1)))]
    lines += [f"{title} at {employer}", ", ".join(p for p in (city, region, country) if p), "Summary"]
    lines += [*labels[:-1], labels[-1] + " ".join(bio)]  # the last badge label glued to the bio
    skills = sorted(
        ((s, rng.randint(5, 10)) for s in rng.sample(SKILLS, rng.randint(3, 10))), key=lambda x: -x[1]
    )
    languages = [(lang, rng.randint(5, 10)) for lang in rng.sample(PROGRAMMING_LANGUAGES, rng.randint(0, 3))]
    repositories = [fields["repo"], *rng.sample(ORG_REPOSITORIES, rng.randint(0, 2))]
    rng.shuffle(repositories)
    lines += [
        f"{rng.randint(3, 25)} years of coding experience",
        f"{rng.randint(1, 20)} years of employment as a software developer",
        f"{degree}, {field_} at {rng.choice(INSTITUTIONS)}",
        ", ".join(rng.sample(LANGUAGES, rng.randint(1, 3))),
        f"Github Skills ({len(skills) + rng.choice((0, 0, 2))})",
        *[f"{skill}{score}" for skill, score in skills],
        f"Programming languages ({len(languages) + rng.choice((0, 1))})",
        *[f"{lang}{score}" for lang, score in languages],
        f"Github contributions ({len(repositories) + rng.choice((0, 0, 3))})",
    ]
    for repository in repositories:
        start = _month(rng, 2014, 2020)
        end = _month(rng, start.year + 1, start.year + 3)
        months = (end.year - start.year) * 12 + end.month - start.month
        role, commits = rng.choice(ROLES), rng.randint(2, 400)
        own = repository == fields["repo"]
        summary = rng.choice(CONTACT_SUMMARIES if own and rng.random() < 0.5 else SUMMARIES)
        lines += [repository, f"{MONTHS[start.month - 1]} {start.year} - {MONTHS[end.month - 1]} {end.year}"]
        lines.append(writer.fill(rng.choice(DESCRIPTIONS)))
        lines += ["Role in this project:", role] if rng.random() < 0.5 else [f"Role in this project:{role}"]
        lines += [
            f"{role}Contributions:{commits} commits in {_duration_text(months)}",
            f"Contributions summary:{writer.fill(summary)}",
            "".join(rng.sample(TAGS, rng.randint(2, 4))),
        ]
    lines.append(FOOTER)
    return "\n".join(lines) + "\n"


def _resume(rng: random.Random, writer: _Writer) -> str:
    titles = rng.sample(RESUME_TITLES, rng.randint(2, 5))
    organizations = rng.sample(ORGANIZATIONS, len(titles))
    entries: list[list[str]] = [
        [writer.fill(b) for b in rng.sample(BULLETS, rng.randint(1, 3))] for _ in titles
    ]
    owner_kinds = ["contact", "profile", "full", *[k for k in OWNER_BULLETS if rng.random() < 0.6]]
    for kind in dict.fromkeys(owner_kinds):
        entries[rng.randrange(len(entries))].insert(0, writer.fill(OWNER_BULLETS[kind]))
    for bullets in entries:
        if rng.random() < 0.6:
            bullets.insert(rng.randint(0, len(bullets)), writer.fill(rng.choice(OTHER_BULLETS)))
    lines = ["Experience", ""]
    for title, organization, bullets in zip(titles, organizations, entries, strict=True):
        lines.append(title)
        if rng.random() < 0.5:
            start = _month(rng, 2008, 2021)
            lines.append(f"{MONTHS[start.month - 1]} {start.year} - Present")
        lines += [f"- {bullet}" for bullet in bullets]
        lines.append("")
        if rng.random() < 0.35:
            lines += [f"{organization},", f"supervised by Dr. {writer.other()}"]
        else:
            lines.append(organization)
        lines.append("")
    for title, issuer in rng.sample(AWARDS, rng.randint(0, 3)):
        lines += [title, ""] + ([issuer, ""] if issuer else [])
    return "\n".join(lines).rstrip("\n") + "\n"


def documents(count: int, seed: int = 7, resume_share: float = 0.4) -> list[Planted]:
    """`count` documents, about `resume_share` of them résumés. Same seed, same documents."""
    rng = random.Random(seed)
    people = _People(rng, seed)
    out = []
    for _ in range(count):
        owner = people.owner()
        others = people.others(owner, rng.randint(2, 4))
        fields = _identity(rng, owner)
        writer = _Writer(rng, fields, others)
        layout = "resume" if rng.random() < resume_share else "talent_page"
        text = _resume(rng, writer) if layout == "resume" else _talent_page(rng, fields, writer)
        folded = fold(text)
        identifiers = [
            (IDENTIFIER_KINDS[key], fields[key])
            for key in IDENTIFIER_KINDS
            if word_pattern(fields[key]).search(folded)
        ]
        out.append(
            Planted(
                layout=layout,
                text=text,
                person_identifiers=[value for _, value in identifiers],
                other_names=list(dict.fromkeys(writer.others_used)),
                technical_words=list(dict.fromkeys(writer.technical)),
                identifier_kinds=[kind for kind, _ in identifiers],
                full_name=owner.full,
            )
        )
    return out


def write(folder: Path, docs: Sequence[Planted]) -> Path:
    """Write folder/docs/docNNNN.txt and folder/truth.jsonl; return the documents' folder.

    The truth sits beside the documents' folder, not in it: tools that read a folder read every file.
    """
    docs_dir = Path(folder) / "docs"
    docs_dir.mkdir(parents=True, exist_ok=True)
    with (Path(folder) / "truth.jsonl").open("w", encoding="utf-8") as truth:
        for index, doc in enumerate(docs):
            name = f"doc{index:04d}.txt"
            (docs_dir / name).write_text(doc.text, encoding="utf-8")
            record = {"file": name, **{k: v for k, v in asdict(doc).items() if k != "text"}}
            truth.write(json.dumps(record, ensure_ascii=False) + "\n")
    return docs_dir


def read_truth(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def string_cells(frame: Any) -> Iterable[str]:
    """Every text cell of a Polars frame (String, Categorical or Enum, or lists of them), skipping nulls."""
    import polars as pl

    def textual(dtype: Any) -> bool:
        return isinstance(dtype, pl.String | pl.Categorical | pl.Enum)

    for name, dtype in frame.schema.items():
        column = frame[name]
        if isinstance(dtype, pl.List) and textual(dtype.inner):
            column = column.explode()
        elif not textual(dtype):
            continue
        yield from (value for value in column.cast(pl.String) if value is not None)


def check(docs: Sequence[Planted]) -> list[str]:
    """Problems found when parsing the documents with the toolkit (an empty list: all is as intended).

    Checks: every document parses with no reject and no unplaced line; a talent page's `name` is the
    planted full name; every planted identifier and other name is in that document's parsed rows (so a
    scrubber of the parsed tables has the same chance as one of the raw text); every technical word the
    generator can write occurs as often in the parsed free-text columns as in the whole document.
    """
    import toolkit

    vocabulary = {term.lower() for term in _vocabulary_file("technical_terms.yaml")}
    problems = [
        f"{word!r} is not in the technical vocabulary"
        for word in TRICKY + TECHNICAL
        if word.lower() not in vocabulary
    ]
    patterns = {word: word_pattern(word) for word in (*TRICKY, *TECHNICAL, *FIELDS, *MULTI_WORD_TOOLS)}
    with tempfile.TemporaryDirectory() as tmp:
        docs_dir = write(Path(tmp), docs)
        tables = toolkit.parse([docs_dir])
    for row in tables.rejects.iter_rows(named=True):
        problems.append(f"{Path(row['source']).name}: rejected ({row['reason']}: {row['detail']})")
    by_index = {
        int(Path(s).stem[3:]): p
        for s, p in zip(tables.profiles["source"], tables.profiles["profile_id"], strict=True)
    }
    free_text_columns = {"profiles": ["summary"], "contributions": ["description", "summary"]}
    free_text_columns["experience"] = ["bullets"]
    for index, doc in enumerate(docs):
        profile_id = by_index.get(index)
        if profile_id is None:
            problems.append(f"doc{index:04d}: no profile")
            continue
        rows = {
            name: frame.filter(frame["profile_id"] == profile_id)
            for name, frame in tables.tables()
            if name != "rejects"
        }
        profile = rows["profiles"].row(0, named=True)
        if profile["layout"] != doc.layout:
            problems.append(f"doc{index:04d}: parsed as {profile['layout']}, written as {doc.layout}")
        if doc.layout == "talent_page" and profile["name"] != doc.full_name:
            problems.append(f"doc{index:04d}: name {profile['name']!r} != {doc.full_name!r}")
        if profile["unparsed_lines"]:
            problems.append(f"doc{index:04d}: unparsed lines {profile['unparsed_lines']}")
        parsed_text = fold("\n".join(cell for frame in rows.values() for cell in string_cells(frame)))
        for value in [*doc.person_identifiers, *doc.other_names]:
            if not word_pattern(value).search(parsed_text):
                problems.append(f"doc{index:04d}: {value!r} is not in the parsed rows")
        free_text = fold(
            "\n".join(
                cell
                for table, columns in free_text_columns.items()
                for cell in string_cells(rows[table].select(columns))
            )
        )
        whole = fold(doc.text)
        for word, pattern in patterns.items():
            if len(pattern.findall(whole)) != len(pattern.findall(free_text)):
                problems.append(f"doc{index:04d}: {word!r} occurs outside the free text")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    options = argparse.ArgumentParser(description="Write planted documents and check that they parse.")
    options.add_argument("out", type=Path)
    options.add_argument("--count", type=int, default=200)
    options.add_argument("--seed", type=int, default=7)
    args = options.parse_args(argv)
    docs = documents(args.count, args.seed)
    docs_dir = write(args.out, docs)
    problems = check(docs)
    for problem in problems[:50]:
        print(problem, file=sys.stderr)
    layouts = {layout: sum(d.layout == layout for d in docs) for layout in ("talent_page", "resume")}
    print(f"{len(docs)} documents in {docs_dir} ({layouts}); {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

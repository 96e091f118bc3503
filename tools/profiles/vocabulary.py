"""The two vocabularies the profile generator writes with: data only, no code paths of their own.

`SEED` is the wording of the scraped seed pages (the names, employers, bios and bullets that the parser tests
and sample_data/ were built on); `PLANTED` writes bios, descriptions and bullets from templates that plant
a person's identifiers, colleagues' names and technical words (NER bait) for the privacy evaluation.

Templates: `{T}` draws a technical word, `{T=Kafka}` writes that one, `{MW}` draws a field ("Deep Learning"),
`{O}` another person's full name; `{full}`, `{first}`, `{last}`, `{caps}`, `{email}`, `{phone}`, `{site}`,
`{profile}`, `{repo}` the owner's identifiers; `{title}`, `{city}`, `{years}`, `{employer}` the page's facts.
In `namesake_firms`, `{S}` is a surname drawn from the name pools ("Okafor Partners").
"""

from __future__ import annotations

from dataclasses import dataclass, replace


def words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@dataclass(frozen=True)
class Style:
    """Everything the layouts draw from. Tuples of one option are written without a random draw."""

    name: str
    names: str  # "seed": first_names x last_names; "faker": Faker's pools for `locales`
    titles: tuple[str, ...]
    employers: tuple[str, ...]
    locations: tuple[tuple[str, str | None, str], ...]
    degrees: tuple[tuple[str, str], ...]
    institutions: tuple[str, ...]
    languages: tuple[str, ...]
    skills: tuple[str, ...]
    tags: tuple[str, ...]
    repositories: tuple[tuple[str, str], ...]  # (owner/name, description template)
    bio_openings: tuple[str, ...]
    bio_middles: tuple[str, ...]
    bio_middle_count: tuple[int, int]
    summaries: tuple[str, ...]
    positions: tuple[str, ...]
    organizations: tuple[str, ...]
    bullets: tuple[str, ...]
    first_names: tuple[str, ...] = ()
    last_names: tuple[str, ...] = ()
    locales: tuple[str, ...] = ()
    particle_locales: tuple[str, ...] = ()
    spaces: tuple[str, ...] = ("\u00a0", "\u2009", "\u202f", " ", "  ")
    space_counts: tuple[int, ...] = (1,)  # how many of the name's spaces the odd space replaces (-1: all)
    team: tuple[int, int] | None = None  # colleagues per document, recurring; None: someone new each time
    contacts: bool = False  # owners have e-mail, handle, site, phone and a repository of their own
    resume_owner: bool = False  # résumés mention their owner (the seed résumés never do)
    own_repositories: tuple[str, ...] = ()
    bio_contacts: tuple[str, ...] = ()
    bio_contact_count: tuple[int, int] = (0, 0)
    contact_summaries: tuple[str, ...] = ()
    other_bullets: tuple[str, ...] = ()
    other_bullet_share: float = 0.0
    owner_bullets: tuple[tuple[str, str], ...] = ()  # (kind, template)
    owner_bullets_always: tuple[str, ...] = ()
    owner_bullet_share: float = 0.0
    tag_count: tuple[int, int] = (1, 4)  # tags glued on a contribution's last line
    period_share: float = 0.0  # résumé positions with a "Mon YYYY - Present" line
    namesake_share: float = 0.0  # employers and organisations named after a surname
    namesake_firms: tuple[str, ...] = ("{S} Partners",)
    tricky: tuple[str, ...] = ()  # technical words NER takes for people or places
    technical: tuple[str, ...] = ()
    multi_word_tools: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    skew: float = (
        0.0  # Zipf exponent of the draws of titles, employers, places, schools, skills, repositories
    )
    rare_bio: tuple[str, ...] = ()  # one more bio sentence, naming something only this person has
    rare_bullets: tuple[str, ...] = ()  # one more résumé bullet, the same
    rare_awards: tuple[str, ...] = ()  # award titles made for this person ({S} a surname, {Y} a year)


BADGES = (("👤", "Senior"), ("🎓", "Top School"), ("🏢", "Top Company"), ("🌱", "Open Source Contributor"))
PROGRAMMING_LANGUAGES = words("python rust go java typescript scala kotlin julia")
UNKNOWN_TAGS = ("quokkaflow", "zephyrdb")
ROLES = ("Back-end Developer", "Front-end Developer", "Maintainer", "Core Contributor", "ML Engineer")
AWARDS: tuple[tuple[str, str | None], ...] = (
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
MONTHS = words("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec")
TAGS = words(
    "ai deep-learning tensorflow machine-learning python compiler kubernetes docker gpu rust database "
    "distributed-systems kafka llvm mlir numpy"
)

SEED = Style(
    name="seed",
    names="seed",
    first_names=words(
        "Maria Júlia Amara Kenji Sofia Mateus Ingrid Rahul Leila Tomasz Chloé Oluwaseun Mei Björn Ana Dmitri "
        "Priya Lucas Yara Hannah Ezra Nadia Kwame Élodie Santiago Aiko Farid Greta Jonas Imani Rosa Tariq "
        "Linnea Abigaíl Wen Zoltán Niamh Iker Selin Mateo"
    ),
    last_names=(
        *("da Mata", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Kowalczyk", "Haddad", "Ferreira"),
        *("Nakamura", "van den Hoek", "Perea", "Osei", "Novák", "Iyer", "Castellanos", "Brennan"),
        *("Schäfer", "Yilmaz", "Dubois", "Mensah", "Sørensen", "Quintero", "Abernathy", "Petrović"),
        *("Ueda", "Marchetti", "Oyelaran", "Halvorsen", "Arslan", "de la Cruz", "Kiriakou", "Wójcik"),
        *("Achterberg", "Fonseca"),
    ),
    titles=(
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
    ),
    employers=(
        *("Northwind Labs", "Blue Heron Systems", "Quillfeather", "Tessellate AI", "Orbital Freight"),
        *("Kestrel Compute", "Marigold Health", "Ironbark Data", "Lumen Robotics", "Cobalt Harbor"),
    ),
    locations=(
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
    ),
    degrees=(
        ("Bachelor of Science (B.Sc.)", "Computer Science"),
        ("Master of Science (M.Sc.)", "Electrical Engineering"),
        ("Doctor of Philosophy (Ph.D.)", "Computer Engineering"),
        ("Master of Engineering (M.Eng.)", "Software Engineering"),
    ),
    institutions=(
        "Universidade Nova de Lisboa",
        "Kyoto Institute of Technology",
        "University of Waterloo",
        "AGH University of Krakow",
        "Indian Institute of Science",
        "Delft University of Technology",
    ),
    languages=words("English Portuguese Japanese Polish Hindi Dutch Spanish Twi Mandarin"),
    skills=words(
        "python rust go kubernetes tensorflow pytorch compiler machine-learning linear-algebra algorithms "
        "docker postgresql kafka distributed-systems cuda llvm mlir numpy code-optimization build-system "
        "python3 c-language"
    ),
    tags=TAGS,
    repositories=(
        ("tessellate-ai/tessera", "A tensor compiler for heterogeneous accelerators."),
        ("ironbark/ledgerline", "Streaming change-data-capture for analytical databases."),
        ("lumen-robotics/gait", "Motion planning toolkit for legged robots."),
        ("openquill/quill", "A fast, embeddable markdown engine."),
        ("kestrel-compute/skyhook", "Job scheduler for GPU clusters."),
        ("marigold/pulse", "Privacy-preserving analytics for clinical trials."),
    ),
    bio_openings=(
        "{full} is a {title} in {city} with {years} years of experience building compilers and data "
        "platforms.",
    ),
    bio_middles=(
        "At {employer} {first} works with {O} on GPU scheduling, and {first}'s open-source work on {T=XLA}, "
        "{T=Kubernetes} and {T=Kafka} shows a knack for performance.",
    ),
    bio_middle_count=(1, 1),
    summaries=(
        "{first}'s commits primarily involve refactoring the scheduler and adding tests. Their work focuses "
        "on reducing kernel launch overhead.",
    ),
    positions=(
        "Principal Research Engineer",
        "Senior Staff Engineer and Team Lead",
        "Research Assistant",
        "Software Engineer",
        "Intern",
        "Undergraduate Research Assistant",
    ),
    organizations=(
        "Northwind Labs",
        "Blue Heron Systems, Applied AI",
        "Parallel Systems Lab., Lakeside University",
        "Kestrel Compute",
        "Vision Group at Hillcrest Institute",
        "Quillfeather Research",
    ),
    bullets=(
        "Led a team of six building an {T=MLIR}-based compiler for in-house accelerators.",
        "Cut inference latency by 40% through kernel fusion on GPU and CPU back ends.",
        "Designed a streaming pipeline on {T=Kafka} and {T=Flink} processing 2 billion events a day.",
        "Mentored interns on compiler optimization and performance engineering.",
        "Migrated 300 services to {T=Kubernetes} with zero downtime.",
        "Published two papers on sparse linear algebra for GPUs.",
    ),
    namesake_firms=("{S} Partners", "{S} Capital", "{S} & Associates", "{S} Group", "{S} & {S}"),
)

# Technical words written in free text. Single words are terms of rules/vocabularies/technical_terms.yaml
# (compared case-insensitively); TRICKY are the ones NER tends to take for people or places.
TRICKY = words("Triton Kafka Azure XLA Spark Oracle Go Rust Julia Ruby Flask Django Jupyter")
TECHNICAL = words(
    "Python Scala Kotlin Haskell Erlang Elixir Fortran CUDA OpenCL TypeScript WebAssembly Kubernetes Docker "
    "Terraform Ansible Helm Flink Airflow Hadoop Dask Ray MLIR LLVM TVM ONNX TensorRT JAX PyTorch TensorFlow "
    "Keras NumPy Pandas Polars SciPy PostgreSQL MySQL SQLite MongoDB Redis Elasticsearch Cassandra AWS GCP "
    "React Vue Angular Svelte FastAPI Spring Rails Bazel CMake gRPC Protobuf GraphQL Nginx OpenCV LangChain "
    "OpenMP MPI BLAS Vulkan OpenGL Unity Caffe MXNet Linux Git"
)
DESCRIPTIONS = (
    "A tensor compiler for heterogeneous accelerators, with a {T} front end and a {T} back end.",
    "Streaming change-data-capture from {T} into {T} for analytical databases.",
    "Motion planning toolkit for legged robots, written in {T}.",
    "A fast, embeddable markdown engine with {T} bindings.",
    "Job scheduler for GPU clusters on {T} and {T}.",
    "Benchmarks and notes on {MW} kernels in {T}.",
)
ORG_REPOSITORIES = words(
    "tessellate-labs/tessera ironbark/ledgerline lumen-robotics/gait openquill/quill kestrel-compute/skyhook "
    "marigold/pulse"
)

PLANTED = Style(
    name="planted",
    names="faker",
    locales=words(
        "en_US pt_BR de_DE fr_FR es_ES nl_NL pl_PL it_IT tr_TR vi_VN ja_JP en_IN yo_NG sv_SE cs_CZ"
    ),
    particle_locales=("nl_NL", "pt_BR"),
    spaces=("\u00a0", "\u00a0", "\u2009", "\u202f", " ", "  "),
    space_counts=(1, 1, -1),
    team=(2, 4),
    contacts=True,
    resume_owner=True,
    titles=(
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
    ),
    employers=(
        *("Northwind Labs", "Blue Heron Systems", "Quillfeather", "Tessellate", "Orbital Freight"),
        *("Kestrel Compute", "Marigold Health", "Ironbark Data", "Lumen Robotics", "Cobalt Harbor"),
    ),
    locations=(
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
    ),
    # No field of study is a technical word: those are written in free text only.
    degrees=(
        ("Bachelor of Science (B.Sc.)", "Software Engineering"),
        ("Master of Science (M.Sc.)", "Electrical Engineering"),
        ("Doctor of Philosophy (Ph.D.)", "Computer Engineering"),
        ("Master of Engineering (M.Eng.)", "Applied Mathematics"),
    ),
    institutions=(
        "Lakeside University",
        "Hillcrest Institute of Technology",
        "Northgate Polytechnic",
        "Riverbend University",
        "Coastal Institute of Science",
    ),
    languages=words("English Portuguese Japanese Polish Hindi Dutch Spanish Turkish German"),
    skills=words(
        "python rust go kubernetes tensorflow pytorch compiler machine-learning linear-algebra algorithms "
        "docker postgresql kafka distributed-systems cuda llvm mlir numpy code-optimization build-system "
        "python3"
    ),
    tags=TAGS,
    repositories=tuple(zip(ORG_REPOSITORIES, DESCRIPTIONS, strict=True)),
    own_repositories=words(
        "tessera-bench dotfiles quill-lint sched-sim fusion-playground tiny-profiler ledger-lab sparse-kit "
        "bench-harness paper-code talks notebooks"
    ),
    bio_openings=(
        "{full} is a {title} in {city} with {years} years of experience building {T} and {T} platforms.",
        "{full} is a {title} based in {city} who builds {T} services and {T} tooling.",
        "{full} works as a {title} in {city}, focused on {MW} and {T}.",
    ),
    bio_middles=(
        "At {employer} {first} works with {O} on {T} scheduling, and {first}'s open-source work on {T}, {T} "
        "and {T} shows a knack for performance.",
        "Previously {first} was mentored by {O} while porting {T} workloads to {T}.",
        "{first} holds a degree related to {MW} and co-authored a survey of {T} compilers with {O} and {O}.",
        "The team still runs {last}'s profiler for {T} jobs on {T}.",
        "{first}'s talks on {T} and {MW} are listed under {caps} on the conference site.",
        "Outside work, {first} teaches {T} to new hires together with {O}.",
    ),
    bio_middle_count=(2, 3),
    # At least one contact sentence with {email} and one with {profile}: the first of each is added if
    # missing.
    bio_contacts=(
        "Reach {first} at {email} or {phone}.",
        "Code lives at https://{profile}; writing at https://{site}.",
        "Maintains {profile} and blogs at {site} about {T}.",
        "Contact: {email}, {phone}, https://{site}.",
    ),
    bio_contact_count=(1, 2),
    summaries=(
        "{first}'s commits primarily involve refactoring the {T} scheduler and adding tests. Their work "
        "focuses on reducing kernel launch overhead.",
        "{first}'s commits add a {T} backend and fix {T} build breaks, reviewed with {O}.",
        "{first} contributed a {T} exporter and benchmarks for {T}; the work was pair-programmed with {O}.",
        "Commits signed off as {caps} add {T} support and documentation for {T}.",
        "{first}'s work here ports the {T} bindings to {T} and removes dead code, following a design by {O}.",
    ),
    contact_summaries=(
        "{first}'s commits add a {T} operator; questions go to {email}.",
        "{first} maintains this fork; issues are triaged at https://{site} and in {T} channels.",
    ),
    positions=(
        "Principal Research Engineer",
        "Senior Staff Engineer and Team Lead",
        "Research Assistant",
        "Software Engineer",
        "Intern",
        "Undergraduate Research Assistant",
        "Open Source Maintainer",
    ),
    organizations=(
        "Northwind Labs",
        "Blue Heron Systems, Applied Research",
        "Parallel Systems Lab., Lakeside University",
        "Kestrel Compute",
        "Vision Group at Hillcrest Institute",
        "Quillfeather Research",
        "Cobalt Harbor",
    ),
    bullets=(
        "Led a team of six building a compiler on {T} for in-house accelerators.",
        "Cut inference latency by 40% through kernel fusion in {T} on GPU and CPU back ends.",
        "Designed a streaming pipeline on {T} and {T} processing 2 billion events a day.",
        "Migrated 300 services to {T} with zero downtime.",
        "Published two papers on {MW} for GPUs.",
        "Built the internal {T} data platform on {T} and {T}.",
        "Replaced a legacy {T} reporting stack with {T} and {MW} models.",
    ),
    other_bullets=(
        "Co-authored two papers on {MW} with {O}.",
        "Mentored by {O} while migrating {T} jobs to {T}.",
        "Worked with {O} and {O} on the {T} inference service.",
        "Ran the {T} reading group with {O}.",
    ),
    other_bullet_share=0.6,
    tag_count=(2, 4),  # one tag alone on its line would be a technical word outside the free text
    owner_bullets=(
        ("contact", "Reach me at {email} or {phone} for collaboration on {T}."),
        ("profile", "Maintains {profile} and the {repo} benchmark suite for {T}."),
        ("repo", "Author of {repo}, a {T} profiler used by {T} teams."),
        ("site", "Writes about {T} and {MW} at https://{site}."),
        ("full", "Nominated as {full}, lead maintainer, for the {T} community award."),
        ("caps", "Listed as {caps} on the program committee of a {MW} workshop."),
        ("possessive", "{first}'s patch series adding {T} support to {T} was merged upstream."),
        ("last", "The {last} scheduler, a {T} plug-in, became the default for {T} clusters."),
    ),
    owner_bullets_always=("contact", "profile", "full"),
    owner_bullet_share=0.6,
    period_share=0.5,
    namesake_share=0.2,
    namesake_firms=(
        "{S} Partners",
        "{S} Capital",
        "{S} & Associates",
        "{S} Group",
        "{S} Consulting",
        "{S} & {S}",
    ),
    tricky=TRICKY,
    technical=TECHNICAL,
    multi_word_tools=(
        "Apache Spark",
        "Google Cloud",
        "Spring Boot",
        "Ruby on Rails",
        "ONNX Runtime",
        "Unreal Engine",
    ),
    fields=(
        "Computer Science",
        "Deep Learning",
        "Linear Algebra",
        "Distributed Systems",
        "Computer Vision",
        "Natural Language Processing",
        "Reinforcement Learning",
    ),
)


SCRAPE = replace(
    PLANTED,
    name="scrape",
    skew=1.1,
    namesake_share=0.35,
    rare_bio=(
        "{first} also created {RARE}, a {T} toolkit with a small following.",
        "Before that, {first} worked in the {LAB} on {MW}.",
        "{first}'s side project {RARE} is used by a few {T} teams.",
    ),
    rare_bullets=(
        "Founded the {RARE} benchmark for {T} workloads.",
        "Ran the {LAB}'s {T} cluster and wrote {RARE}.",
        "Designed {RARE}, an internal {T} scheduler.",
    ),
    rare_awards=(
        "{S} Prize for Systems Research {Y}",
        "Silver medal, {Y} {S} Informatics Olympiad",
        "{S} Foundation Fellowship",
    ),
)
"""The planted style as a scrape looks: skewed employers, titles, places, schools and skills, a long tail
of small firms named after people, and per person one rare project, lab or award (the phrases a search
would find them by)."""

"""Build-time extraction of the public source text used by tools.textpop.

Run once, by hand, where the source repositories are present as bare git mirrors; it writes the stored
data under benchmarks/data/textpop/ that the generator reads (the generator itself needs no network and
no mirror):

    python -m tools.textpop.extract --mirrors /work/.mirror --out benchmarks/data/textpop

Sources (see benchmarks/data/textpop/SOURCES.md for commits and licences):
  - dotin-inc/resume-dataset-NER-annotations (CC0-1.0): 364 résumés with labelled entities; we keep
    sentences and bullets (their wording), the labelled "Designation" titles, and the labelled
    "Tech Tools" spans (the technical-term vocabulary, with a precision check on the same corpus).
  - numpy/numpy and scipy/scipy (BSD-3-Clause): commit messages, grouped by author (each author's
    words stay together and go to one fictional person); author names are not stored.
  - sindresorhus/awesome-nodejs (CC0-1.0), avelino/awesome-go (MIT), vinta/awesome-python (CC-BY-4.0):
    one-line repository descriptions.
  - github-linguist/linguist (MIT): names of programming languages (vocabulary, second source).
  - Debian's wamerican word list (/usr/share/dict/words) is used only as a filter (drop vocabulary
    entries that are ordinary English words; keep capitalised name tokens that are ordinary words).

Everything personal in the source text (names, e-mails, phones, URLs, @handles) is dropped: a sentence
that holds one is not kept.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

DOTIN = "dotin-inc+resume-dataset-NER-annotations"
COMMIT_REPOS = [("numpy+numpy", "numpy/numpy"), ("scipy+scipy", "scipy/scipy")]
AWESOME = [
    ("sindresorhus+awesome-nodejs", "readme.md", "awesome-nodejs"),
    ("avelino+awesome-go", "README.md", "awesome-go"),
    ("vinta+awesome-python", "README.md", "awesome-python"),
]
LINGUIST = "github-linguist+linguist"

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
URL = re.compile(r"(https?://|www\.|\b[\w-]+\.(com|org|net|io|in|edu|gov)\b)", re.I)
PHONE = re.compile(r"(\+?\d[\d ()-]{7,}\d)")
HANDLE = re.compile(r"(^|\s)@\w")
THANKS = re.compile(
    r"thank|credit to|reported by|suggested by|patch by|courtesy|\b(?:dr|mr|mrs|ms|prof)\.", re.I
)
NAMEY = re.compile(r"\b[A-Z][a-z]+[A-Z][a-z]+\b")
HEXSHA = re.compile(r"\b[0-9a-f]{7,40}\b")
BAD_CV = re.compile(
    r"resume of|curriculum vitae|\bpage\b|declar|date of birth|\bdob\b|marital|father|mother|"
    r"nationality|passport|gender|address|languages known|\bplace\s*:|\bdate\s*:|hobbies|"
    r"indeed|linkedin|e-?mail|phone|mobile|contact|resume|template",
    re.I,
)


def git(mirror: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={mirror}", *args], check=True, capture_output=True
    ).stdout.decode("utf-8", "replace")


def git_bytes(mirror: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={mirror}", *args], check=True, capture_output=True).stdout


def load_dict() -> set[str]:
    words = Path("/usr/share/dict/words").read_text(encoding="utf-8", errors="replace").split()
    return {w for w in words if w.islower()}


def first_names() -> set[str]:
    import importlib

    out: set[str] = set()
    import pkgutil

    import faker.providers.person as fpp

    for loc in sorted(m.name for m in pkgutil.iter_modules(fpp.__path__)):
        try:
            prov = importlib.import_module(f"faker.providers.person.{loc}").Provider
        except Exception:
            continue
        for attr in ("first_names", "first_names_male", "first_names_female", "last_names"):
            seq = getattr(prov, attr, None)
            if seq is None or isinstance(seq, property) or not hasattr(seq, "__iter__"):
                continue
            out.update(n for n in (seq.keys() if hasattr(seq, "keys") else seq) if isinstance(n, str))
    return {n for n in out if n.isalpha() and len(n) >= 3 and all(ord(c) < 0x250 for c in n)}


class NameFilter:
    """Drops sentences holding a capitalised token that is a known personal name and not an ordinary
    word or a technical term."""

    def __init__(self, names: set[str], words: set[str], vocab_folded: set[str]):
        self.names = {n for n in names if n.lower() not in words and n.lower() not in vocab_folded}

    def has_name(self, s: str) -> bool:
        for tok in re.findall(r"\b[A-Z][a-zA-Z\u00c0-\u017f'-]{2,}\b", s):
            tok = re.sub(r"['\u2019]s$", "", tok)
            if tok in self.names or any(p in self.names for p in tok.split("-")):
                return True
        return False


def decode_escapes(s: str) -> str:
    def rep(m: re.Match[str]) -> str:
        raw = bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-fA-F]{2})", m.group(0)))
        try:
            t = raw.decode("utf-8")
        except UnicodeDecodeError:
            return " \u2022 "
        return " \u2022 " if all(0xE000 <= ord(c) <= 0xF8FF for c in t) else t

    return re.sub(r"(?:\\x[0-9a-fA-F]{2})+", rep, s)


LABEL = re.compile(r'<label type="([^"]+)">(.*?)</label>', re.S)


def parse_cv(raw: str) -> tuple[str, list[tuple[int, int, str]]]:
    raw = re.sub(r"<\?xml[^>]*\?>|</?cv>", "", raw)
    text, spans, pos = [], [], 0
    out_len = 0
    for m in LABEL.finditer(raw):
        pre = html.unescape(decode_escapes(raw[pos : m.start()]))
        text.append(pre)
        out_len += len(pre)
        val = html.unescape(decode_escapes(m.group(2)))
        spans.append((out_len, out_len + len(val), m.group(1)))
        text.append(val)
        out_len += len(val)
        pos = m.end()
    tail = html.unescape(decode_escapes(raw[pos:]))
    text.append(tail)
    plain = "".join(text)
    plain = re.sub(r"<[^>]+>", " ", plain)  # stray tags (same length not needed after this point)
    return plain, spans


BULLET = re.compile(
    r"^\s*(?:[\u2022\u25cf\u25aa\u25a0\u27a2\u2756\u2713\u2714\u25ba\u2192\u00b7*\-\u2013o]\s+|\d+[.)]\s+)"
)
HEADING = re.compile(
    r"^(work experience|experience|professional experience|employment|work history|"
    r"projects?|education|skills|technical skills|certifications?|achievements|awards)\b",
    re.I,
)


def cv_units(plain: str) -> list[tuple[str, bool]]:
    """Split a résumé into units (bullets / paragraphs); returns (text, is_heading)."""
    if plain.count("\n") < 10:
        plain = re.sub(r" {2,}", "\n", plain)
    plain = plain.replace("\u2022", "\n\u2022 ")
    units: list[list[str]] = []
    heads: list[bool] = []
    prev_end_punct = True
    for line in plain.split("\n"):
        line = line.strip().strip('"')
        if not line:
            prev_end_punct = True
            units.append([])
            heads.append(False)
            continue
        is_b = bool(BULLET.match(line))
        is_h = bool(HEADING.match(line)) and len(line.split()) <= 4
        line = BULLET.sub("", line).strip()
        if not line:
            continue
        cont = not is_b and not is_h and units and units[-1] and (line[0].islower() or not prev_end_punct)
        if cont:
            units[-1].append(line)
        else:
            units.append([line])
            heads.append(is_h)
        prev_end_punct = line[-1] in ".:;!?" or len(line) < 40
    out = []
    for u, h in zip(units, heads, strict=False):
        if u:
            out.append((" ".join(u), h))
    return out


def split_sentences(unit: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z(])", unit)
    parts = [re.sub(r"\s+", " ", p).strip(" ,;-:|") for p in parts if p.strip()]
    return [p for p in parts if p]


def good_sentence(s: str, names: NameFilter, min_words: int = 6, max_words: int = 55) -> bool:
    w = s.split()
    if not (min_words <= len(w) <= max_words):
        return False
    if EMAIL.search(s) or URL.search(s) or PHONE.search(s) or HANDLE.search(s):
        return False
    alpha = sum(1 for t in w if re.search(r"[A-Za-z]{2,}", t))
    if alpha / len(w) < 0.75:
        return False
    return not (names.has_name(s) or THANKS.search(s))


def extract_cvs(
    root: Path, tmp: Path, words: set[str], fnames: set[str]
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]], NameFilter]:
    mirror = root / DOTIN / "repo"
    tmp.mkdir(parents=True, exist_ok=True)
    import io
    import zipfile

    docs = []
    for z in ("545_cvs_train_v2.zip", "set_aside_test_v2_50cvs.zip"):
        zf = zipfile.ZipFile(io.BytesIO(git_bytes(mirror, "show", f"HEAD:{z}")))
        for n in sorted(zf.namelist()):
            if n.endswith(".xml") and "__MACOSX" not in n:
                docs.append((f"{z.split('.')[0]}/{Path(n).name}", zf.read(n).decode("utf-8", "replace")))
    parsed = []
    for key, raw in docs:
        plain, spans = parse_cv(raw)
        parsed.append((key, plain, spans))
    # vocabulary from Tech Tools labels
    label_cvs: dict[str, set[str]] = collections.defaultdict(set)
    label_cnt: collections.Counter[str] = collections.Counter()
    person_tokens: set[str] = set()
    for key, plain, spans in parsed:
        for a, b, t in spans:
            val = re.sub(r"\s+", " ", plain[a:b]).strip()
            if t == "Tech Tools":
                for part in re.split(r"\s*[,;]\s*|\s+and\s+|\s*/\s*(?=[A-Z])", val):
                    part = part.strip(" .()-:")
                    if 2 <= len(part) <= 30 and len(part.split()) <= 3 and re.search(r"[A-Za-z]", part):
                        label_cvs[part.casefold()].add(key)
                        label_cnt[part.casefold()] += 1
            if t == "Name":
                person_tokens.update(x for x in re.findall(r"[A-Za-z\u00c0-\u017f]{3,}", val))
    corpus = "\n".join(p for _, p, _ in parsed).casefold()
    vocab = {}
    for term, cvs in label_cvs.items():
        if len(cvs) < 2 or term.isdigit():
            continue
        tot = len(re.findall(boundary_re(term), corpus))
        prec = label_cnt[term] / max(tot, 1)
        if prec < 0.5:
            continue
        amb = all(w in words for w in re.findall(r"[a-z]+", term)) and not re.search(r"[^a-z ]", term)
        if amb and (prec < 0.8 or len(cvs) < 5):
            continue
        if len(term) <= 2 and not re.search(r"[^a-z]", term):
            continue
        vocab[term] = {
            "dotin_cvs": len(cvs),
            "dotin_label_precision": round(min(prec, 1.0), 3),
            "ordinary_word": amb,
        }
    names = NameFilter(fnames | person_tokens, words, set(vocab))
    cvs_out = []
    global_seen: set[str] = set()
    for key, plain, spans in parsed:
        titles = []
        for a, b, t in spans:
            if t == "Designation":
                v = re.sub(r"\s+", " ", plain[a:b]).strip(" -,.")
                if 1 <= len(v.split()) <= 6 and not names.has_name(v) and not EMAIL.search(v):
                    titles.append(v.title() if v.isupper() else v)
        summary: list[str] = []
        body: list[str] = []
        seen_exp = False
        for unit, is_h in cv_units(plain):
            if is_h and re.match(
                r"(work |professional )?experience|employment|work history|projects?", unit, re.I
            ):
                seen_exp = True
                continue
            if is_h:
                continue
            for s in split_sentences(unit):
                if BAD_CV.search(s) or not good_sentence(s, names):
                    continue
                (body if seen_exp else summary).append(s)
        # dedupe within CV
        seen = global_seen  # a sentence goes to one CV only (the corpus repeats some CVs)
        summary_kept: list[str] = []
        for s in summary:
            if s.casefold() not in seen:
                seen.add(s.casefold())
                summary_kept.append(s)
        summary = summary_kept
        body_kept: list[str] = []
        for s in body:
            if s.casefold() not in seen:
                seen.add(s.casefold())
                body_kept.append(s)
        body = body_kept
        uniq_titles = list(dict.fromkeys(titles))[:8]
        if len(summary) + len(body) >= 3:
            cvs_out.append({"src": key, "summary": summary[:12], "body": body[:40], "titles": uniq_titles})
    return cvs_out, vocab, names


def boundary_re(term: str) -> str:
    return r"(?<![0-9a-z])" + re.escape(term) + r"(?![0-9a-z+#])"


PREFIX = re.compile(r"^(?:[A-Z]{2,6}(?:[/,+ ]+[A-Z]{2,6})*|[a-z]+(?:\.[a-z_]+)*)\s*:\s+")
REF = re.compile(
    r"\b[Ss]ee (?:#|gh-)\d+[.,]?\s*|\s*\((?:#|gh-|GH-)\d+\)|"
    r"\s*\[(?:ci skip|skip ci|skip actions|skip azp|skip circle|skip cirrus)\]|"
    r"\b(?:gh|GH)-?\d+\b|#\d+",
    re.I,
)
DROP_LINE = re.compile(
    r"^\s*(co-authored-by|signed-off-by|reviewed-by|reported-by|see also|closes|fixes|"
    r"resolves|xref|this reverts|cherry-picked|backport|\[|\*\s*$|---)",
    re.I,
)


def clean_commit(msg: str, names: NameFilter) -> list[str]:
    lines = msg.strip().split("\n")
    if not lines:
        return []
    subj = lines[0].strip()
    if re.match(
        r"(merge|revert|wip|bump|update (submodule|changelog|mailmap)|rel:|release|\.mailmap|"
        r"auto-?format|fix typo|typo)",
        subj,
        re.I,
    ):
        return []
    subj = PREFIX.sub("", subj)
    subj = REF.sub("", subj).strip(" .")
    out = []
    if subj:
        subj = subj[0].upper() + subj[1:]
        if len(subj.split()) >= 4:
            out.append(subj + ".")
    paras = re.split(r"\n\s*\n", "\n".join(lines[1:]))
    for p in paras:
        pl = [ln for ln in p.split("\n") if ln.strip() and not DROP_LINE.match(ln)]
        if not pl:
            continue
        if any(ln.startswith(("    ", "\t", ">>>", "```", "$ ", "|")) for ln in pl):
            continue
        txt = " ".join(ln.strip() for ln in pl)
        if sum(c in "{}[]=<>_`\\" for c in txt) > len(txt) * 0.03:
            continue
        txt = REF.sub("", txt)
        for s in split_sentences(txt):
            s = s.strip()
            if s.startswith(("* ", "- ")):
                s = s[2:]
            s = PREFIX.sub("", s)
            if not s:
                continue
            s = s[0].upper() + s[1:]
            if len(s.split()) < 4:
                continue
            out.append(s if s[-1] in ".!?" else s + ".")
    res = []
    for s in out:
        if (
            EMAIL.search(s)
            or URL.search(s)
            or HANDLE.search(s)
            or HEXSHA.search(s)
            or names.has_name(s)
            or THANKS.search(s)
            or (re.search(r"[a-z][A-Z][a-z]", s.split(" ", 1)[-1]) and NAMEY.search(s))
        ):
            continue
        if len(s.split()) > 60:
            continue
        res.append(s)
    return res


def extract_commits(
    root: Path, names_base: NameFilter, words: set[str], vocab: set[str]
) -> list[dict[str, Any]]:
    per_author: dict[str, list[tuple[str, str, list[str]]]] = collections.defaultdict(list)
    all_name_tokens: set[str] = set()
    logs = []
    for mdir, slug in COMMIT_REPOS:
        mirror = root / mdir / "repo"
        log = git(mirror, "log", "--no-merges", "--format=%x1e%an%x1f%ae%x1f%ad%x1f%B", "--date=short")
        logs.append((slug, log))
        for rec in log.split("\x1e")[1:]:
            an = rec.split("\x1f", 1)[0]
            for t in re.findall(r"[A-Za-z\u00c0-\u017f]{3,}", re.sub(r"([a-z])([A-Z])", r"\1 \2", an)):
                all_name_tokens.update({t, t.capitalize()})
    names = NameFilter(names_base.names | all_name_tokens, words, vocab)
    for slug, log in logs:
        for rec in log.split("\x1e")[1:]:
            an, ae, ad, body = rec.split("\x1f", 3)
            if "bot" in an.lower() or "bot" in ae.lower().split("@")[0] or "github" in an.lower():
                continue
            key = re.sub(r"\s+", " ", an.strip().casefold())
            sents = clean_commit(body, names)
            if sents:
                per_author[key].append((ad, slug, sents))
    authors = []
    gseen: set[str] = set()
    for key in sorted(per_author):
        commits = sorted(per_author[key])
        nwords = sum(len(s.split()) for _, _, ss in commits for s in ss)
        nsent = sum(len(ss) for _, _, ss in commits)
        if nsent < 3 or nwords < 25:
            continue
        repos = collections.Counter(slug for _, slug, _ in commits)
        # keep at most 14 commits, spread over the author's history
        step = max(1, len(commits) // 14)
        keep = commits[::step][:14]
        seen = gseen  # a sentence goes to one author only
        kept = []
        for _, _, ss in keep:
            ss_kept: list[str] = []
            for x in ss:
                if x.casefold().rstrip(".") not in seen:
                    seen.add(x.casefold().rstrip("."))
                    ss_kept.append(x)
            ss = ss_kept
            if ss:
                kept.append(ss)
        authors.append({"repo": repos.most_common(1)[0][0], "commits": kept})
    return authors


LINK = re.compile(
    r"^\s*[-*]\s+\[([^\]]+)\]\(https?://github\.com/([\w.-]+)/([\w.-]+?)/?\)\s*[-\u2013\u2014:]\s*(.+)$"
)


def extract_awesome(root: Path, names: NameFilter) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for mdir, path, lst in AWESOME:
        text = git(root / mdir / "repo", "show", f"HEAD:{path}")
        for line in text.split("\n"):
            m = LINK.match(line)
            if not m:
                continue
            repo = m.group(3)
            desc = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", m.group(4))
            desc = re.sub(r"!\[[^\]]*\]\([^)]*\)|<[^>]+>|`", "", desc).strip()
            if repo.casefold() in seen or not (4 <= len(desc.split()) <= 40):
                continue
            if EMAIL.search(desc) or URL.search(desc) or HANDLE.search(desc) or names.has_name(desc):
                continue
            if not desc.endswith((".", "!", "?")):
                desc += "."
            seen.add(repo.casefold())
            out.append({"repo": repo, "desc": desc, "list": lst})
    return out


def extract_linguist(
    root: Path, words: set[str], dotin_vocab: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    import yaml

    langs = yaml.safe_load(git(root / LINGUIST / "repo", "show", "HEAD:lib/linguist/languages.yml"))
    out = {}
    for name, info in langs.items():
        if info.get("type") != "programming":
            continue
        t = name.casefold()
        if t not in dotin_vocab:
            if len(t) < 2 or not re.search(r"[a-z]", t) or "(" in t or len(name.split()) > 2:
                continue
            if all(w in words for w in re.findall(r"[a-z]+", t)):
                continue  # every word of it is an ordinary English word
            if len(t) <= 3 and not re.search(r"[^a-z]", t):
                continue  # too short to match safely
        if len(name.split()) > 3:
            continue
        out[t] = {"linguist_name": name}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--out", default="benchmarks/data/textpop")
    a = ap.parse_args()
    root, out = Path(a.mirrors), Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    words = load_dict()
    fn = first_names()
    cvs, dvocab, names = extract_cvs(root, Path("/tmp/textpop_extract"), words, fn)
    lvocab = extract_linguist(root, words, dvocab)
    vocab = []
    for t in sorted(set(dvocab) | set(lvocab)):
        e: dict[str, Any] = {"term": t, "sources": []}
        if t in dvocab:
            e["sources"].append("dotin-tech-tools")
            e.update(dvocab[t])
        if t in lvocab:
            e["sources"].append("linguist-programming")
            e.update(lvocab[t])
        vocab.append(e)
    authors = extract_commits(root, names, words, {v["term"] for v in vocab})
    repos = extract_awesome(root, names)
    heads = {}
    for mdir in [DOTIN, LINGUIST, *(m for m, _ in COMMIT_REPOS), *(m for m, _, _ in AWESOME)]:
        heads[mdir.replace("+", "/")] = git(root / mdir / "repo", "rev-parse", "HEAD").strip()
    for name, obj in [
        ("cvs", cvs),
        ("commit_authors", authors),
        ("repo_descriptions", repos),
        ("vocabulary", vocab),
    ]:
        with gzip.open(out / f"{name}.json.gz", "wt", encoding="utf-8", compresslevel=9) as f:
            json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
    (out / "commits.json").write_text(json.dumps(heads, indent=1) + "\n")
    print(
        json.dumps(
            {
                "cvs": len(cvs),
                "cv_sentences": sum(len(c["summary"]) + len(c["body"]) for c in cvs),
                "authors": len(authors),
                "repos": len(repos),
                "vocab": len(vocab),
                "vocab_dotin": len(dvocab),
                "vocab_linguist": len(lvocab),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()

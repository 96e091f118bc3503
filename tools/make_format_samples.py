"""Write the structured-format part of sample_data/: five JSON résumés, five GitHub API users and five
LinkedIn exports (three folders, two zips) of fictional people, with the defects real files carry (HTML,
emoji, empty end dates, nulls, '@org' companies, a BOM, Windows line ends, notes above a header, files of
kinds never read). Run: python -m tools.make_format_samples
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

OUT = Path(__file__).parent.parent / "sample_data"
PEOPLE = [
    # name, title, employer, city, country code, country, skills, handle
    (
        "Ines Valdemar",
        "Backend Engineer",
        "Quillstone",
        "Porto",
        "PT",
        "Portugal",
        ["Go", "PostgreSQL"],
        "ivaldemar",
    ),
    (
        "Rohan Mehta-Kapur",
        "Data Engineer",
        "Tidepool Analytics",
        "Pune",
        "IN",
        "India",
        ["Python", "Spark"],
        "rmk-data",
    ),
    (
        "Aiyana Redfeather",
        "Frontend Developer",
        "Cobalt Finch",
        "Denver",
        "US",
        "United States",
        ["TypeScript", "React"],
        "aiyana-r",
    ),
    (
        "Mattias Lindqvist",
        "Site Reliability Engineer",
        "Norrsken Cloud",
        "Uppsala",
        "SE",
        "Sweden",
        ["Kubernetes", "Terraform"],
        "mlindqvist",
    ),
    (
        "Chidinma Eze",
        "Machine Learning Engineer",
        "Baobab AI",
        "Enugu",
        "NG",
        "Nigeria",
        ["PyTorch", "Python"],
        "chidinma-e",
    ),
]
GITHUB = [
    ("Yusuf Demirel", "@kestrel-io", "Izmir, Turkey", "yusufd", "Rust"),
    ("Malia Fonoti", "Breadfruit Labs", "Apia, Samoa", "mfonoti", "Python"),
    (None, None, None, "quietcoder-88", "C"),
    ("Katarzyna Wróbel", "@vistula-dev", "Gdańsk, Poland", "kwrobel", "Kotlin"),
    ("Tomás Aguirre", "Pampa Systems", "Rosario, Argentina", "taguirre", "Go"),
]
LINKEDIN = [
    ("Noor", "Al-Khatib", "Product Engineer", "Sandgrain", "Amman, Jordan", ["Vue.js", "Django"]),
    ("Evert", "Bosmans", "Embedded Engineer", "Scheldt Devices", "Ghent, Flanders, Belgium", ["C", "Zephyr"]),
    ("Lucía", "Ferreyra", "QA Engineer", "Andes Test", "Mendoza, Argentina", ["Selenium", "Python"]),
    ("Hiroshi", "Tanabe", "Game Developer", "Kitsune Works", "Osaka, Japan", ["C++", "Unreal Engine"]),
    ("Grace", "Mwangi", "Cloud Architect", "Rift Valley Tech", "Nakuru, Kenya", ["AWS", "Go"]),
]


def _resume(index: int) -> dict[str, object]:
    name, title, employer, city, code, _, skills, handle = PEOPLE[index]
    first = name.split()[0].lower()
    return {
        "basics": {
            "name": name,
            "label": title,
            "email": f"{first}@{handle}.example.org",
            "url": f"https://{handle}.example.org",
            "summary": f"<p>{title} who likes <b>{skills[0]}</b> and calm on-call weeks. ✨</p>",
            "location": {"city": city, "countryCode": code},
            "profiles": [{"network": "GitHub", "username": handle, "url": f"https://github.com/{handle}"}],
        },
        "work": [
            {
                "name": employer,
                "position": title,
                "startDate": f"{2019 + index}-0{index + 1}",
                "endDate": "",
                "highlights": [f"Owns the {skills[1]} platform"],
            },
            {
                "company": "Harbour Bytes",
                "position": "Software Engineer",
                "startDate": "2015",
                "endDate": "2019-01",
            },
        ],
        "education": [{"institution": "Open University", "area": "Computer Science", "studyType": "BSc"}],
        "skills": [{"name": skills[0], "keywords": skills[1:]}],
        "languages": [{"language": "English", "fluency": "Fluent"}],
        "projects": [
            {
                "name": f"{handle}-tools",
                "url": f"https://github.com/{handle}/{handle}-tools",
                "description": "Small tools for daily work",
                "keywords": [skills[0].lower()],
            }
        ],
        "references": [{"name": "Mirela Costache", "reference": f"{name.split()[0]} is thorough."}],
    }


def _user(index: int) -> dict[str, object]:
    name, company, location, login, language = GITHUB[index]
    return {
        "login": login,
        "id": 7000 + index,
        "node_id": f"U_{login}",
        "html_url": f"https://github.com/{login}",
        "type": "User",
        "site_admin": False,
        "name": name,
        "company": company,
        "blog": "",
        "location": location,
        "email": None,
        "hireable": None,
        "bio": "Open source, tea and tests" if name else None,
        "twitter_username": None,
        "public_repos": 2,
        "followers": 10 + index,
        "following": 1,
        "created_at": "2016-04-01T00:00:00Z",
        "repos": [
            {
                "full_name": f"{login}/dotfiles",
                "description": "My dotfiles",
                "language": "Shell",
                "topics": [],
                "fork": False,
                "owner": {"login": login},
                "created_at": "2018-02-02T00:00:00Z",
                "pushed_at": "2024-06-01T00:00:00Z",
            },
            {
                "full_name": f"{login}/parser-kit",
                "description": "A parser combinator kit",
                "language": language,
                "topics": ["parsing"],
                "fork": False,
                "owner": {"login": login},
                "created_at": "2021-09-09T00:00:00Z",
                "pushed_at": "2024-09-01T00:00:00Z",
            },
        ],
    }


def _export(index: int) -> dict[str, str]:
    first, last, title, employer, location, skills = LINKEDIN[index]
    login = f"{first}{last}".lower().replace("-", "")
    return {
        "Profile.csv": "\ufeffFirst Name,Last Name,Maiden Name,Address,Birth Date,Headline,Summary,Industry,"
        "Zip Code,Geo Location,Twitter Handles,Websites,Instant Messengers\r\n"
        f'{first},{last},,,,{title} at {employer},"Building {skills[0]} things.",Software Development,,'
        f'"{location}",,"[PERSONAL:https://{login}.example.net]",\r\n',
        "Positions.csv": "Company Name,Title,Description,Location,Started On,Finished On\n"
        f"{employer},{title},,,{['Jan', 'Mar', 'May', 'Jul', 'Sep'][index]} 202{index},\n"
        f"Harbour Bytes,Software Engineer,Maintained the {skills[1]} services,,2016,Dec 2019\n\n",
        "Skills.csv": "Name\n" + "".join(f"{skill}\n" for skill in skills),
        "Email Addresses.csv": "Email Address,Confirmed,Primary,Updated On\n"
        f"{login}@example.net,Yes,Yes,1/2/24\n",
        "Connections.csv": 'Notes:\n"When exporting your connection data, you may notice that some of the '
        'email addresses are missing."\n\n'
        "First Name,Last Name,URL,Email Address,Company,Position,Connected On\n"
        "Petra,Novakova,https://www.linkedin.com/in/pnovakova,,Harbour Bytes,Engineer,03 Mar 2020\n",
        "messages.csv": "CONVERSATION ID,CONVERSATION TITLE,FROM,SENDER PROFILE URL,TO,"
        "RECIPIENT PROFILE URLS,DATE,SUBJECT,CONTENT,FOLDER\n"
        "1-x,,Petra Novakova,,,,2024-01-01 10:00:00 UTC,,Hi!,INBOX\n",
    }


def main(out: Path = OUT) -> None:
    resumes = out / "json_resume"
    resumes.mkdir(parents=True, exist_ok=True)
    for index in range(3):
        (resumes / f"resume_{index + 1:02d}.json").write_text(
            json.dumps(_resume(index), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    (resumes / "resumes_04_05.json").write_text(
        json.dumps([_resume(3), _resume(4)], indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    github = out / "github"
    github.mkdir(parents=True, exist_ok=True)
    (github / "users.jsonl").write_text(
        "".join(json.dumps(_user(index), ensure_ascii=False) + "\n" for index in range(4)), encoding="utf-8"
    )
    (github / f"{GITHUB[4][3]}.json").write_text(
        json.dumps({"user": _user(4), "repos": _user(4).pop("repos")}, indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    linkedin = out / "linkedin"
    for index in range(5):
        files = _export(index)
        folder_name = f"export_{index + 1:02d}"
        if index < 3:
            folder = linkedin / folder_name
            folder.mkdir(parents=True, exist_ok=True)
            for name, text in files.items():
                (folder / name).write_bytes(text.encode("utf-8"))
        else:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                for name, text in files.items():
                    info = zipfile.ZipInfo(
                        f"Basic_LinkedInDataExport/{name}", date_time=(2026, 11, 3, 12, 0, 0)
                    )
                    archive.writestr(info, text.encode("utf-8"), zipfile.ZIP_DEFLATED)
            linkedin.mkdir(parents=True, exist_ok=True)
            (linkedin / f"{folder_name}.zip").write_bytes(buffer.getvalue())
    print(f"wrote the structured samples under {out}")


if __name__ == "__main__":
    main()

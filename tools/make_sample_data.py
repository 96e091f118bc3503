"""Write sample_data/: fictional profiles in both layouts. Run: python -m tools.make_sample_data"""

from __future__ import annotations

import shutil
from pathlib import Path

from tools.profiles import profiles

OUT = Path(__file__).parent.parent / "sample_data"
COUNT = 24
SEED = 2026


def main() -> None:
    for folder in ("talent_pages", "resumes"):
        shutil.rmtree(OUT / folder, ignore_errors=True)
        (OUT / folder).mkdir(parents=True)
    for number, doc in enumerate(profiles(COUNT, seed=SEED), start=1):
        folder = "talent_pages" if doc.layout == "talent_page" else "resumes"
        (OUT / folder / f"profile_{number:03d}.txt").write_text(doc.text, encoding="utf-8")
    print(f"wrote {COUNT} profiles under {OUT}")


if __name__ == "__main__":
    main()

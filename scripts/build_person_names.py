"""Write ``src/shotsmith/data/person_names.json.gz``: the given names and family names a
screen's reading takes for a person's ("Ines Duarte"), never for a feature or an example.

The source is the 1990 US Census name lists (public domain), as the ``names`` package
on PyPI ships them: every first name (5,163), and the 30,000 most frequent family names
less those English writes as words (``wordfreq`` Zipf 4 or more: "Street", "Lee",
"Garden"), so "Autumn strength" or "Rose garden" stays a name for a thing.

    .venv/bin/python scripts/build_person_names.py path/to/names/   # the package's folder
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shotsmith.words import word_frequency  # noqa: E402

#: Family names less frequent than this rank are left out (rare, and mostly words).
LAST_RANK = 30_000
#: A family name English writes this often as a word is a word first ("Brown", "Street").
WORD_ZIPF = 4.0


def main(folder: Path) -> None:
    first: set[str] = set()
    for name in ("dist.female.first", "dist.male.first"):
        for line in (folder / name).read_text().splitlines():
            first.add(line.split()[0].lower())
    last = []
    for line in (folder / "dist.all.last").read_text().splitlines():
        name, rank = line.split()[0].lower(), int(line.split()[3])
        if rank <= LAST_RANK and word_frequency(name) < WORD_ZIPF:
            last.append(name)
    data = {
        "source": "1990 US Census name lists (public domain); scripts/build_person_names.py",
        "given": sorted(first),
        "family": sorted(last),
    }
    out = ROOT / "src/shotsmith/data/person_names.json.gz"
    out.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
    print(f"{out}: {len(first)} given names, {len(last)} family names")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

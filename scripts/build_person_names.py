"""Write ``src/shotsmith/data/person_names.json.gz``: the given names and family names a
screen's reading takes for a person's ("Ines Duarte"), never for a feature or an example.

Two sources, both on PyPI:
- the 1990 US Census name lists (public domain), as the ``names`` package ships them:
  every first name (5,163), and the 30,000 most frequent family names;
- the person providers of ``Faker`` (MIT) for every English-speaking locale (``en_GB``,
  ``en_IE``, ``en_NG``, ``en_IN``, ...): the given names of today's English-speaking
  world the census lacks ("Isla", "Callum", "Amara"), and their family names.
Family names English writes as words (``wordfreq`` Zipf 4 or more: "Street", "Lee",
"Garden") are left out, so "Autumn strength" or "Rose garden" stays a name for a thing.
Only names written in Latin letters are kept.

    .venv/bin/pip install names faker   # at build time only: no dependency of the package
    .venv/bin/python scripts/build_person_names.py path/to/names/   # the package's folder
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shotsmith.words import word_frequency  # noqa: E402

#: Family names less frequent than this rank are left out (rare, and mostly words).
LAST_RANK = 30_000
#: A family name English writes this often as a word is a word first ("Brown", "Street").
WORD_ZIPF = 4.0


def _faker_names() -> tuple[set[str], set[str]]:
    """Given and family names of Faker's English-speaking person providers."""
    import importlib
    import pkgutil

    import faker.providers.person as person

    given: set[str] = set()
    family: set[str] = set()
    for module in pkgutil.iter_modules(person.__path__):
        if not module.name.startswith("en"):
            continue
        provider = importlib.import_module(f"{person.__name__}.{module.name}").Provider
        for attr, into in (
            ("first_names", given),
            ("first_names_male", given),
            ("first_names_female", given),
            ("last_names", family),
        ):
            names = getattr(provider, attr, None)
            if isinstance(names, (list, tuple, dict, set)):
                into.update(str(n).lower() for n in names)
    latin = re.compile(r"[a-z][a-z'\-]*")
    return {n for n in given if latin.fullmatch(n)}, {n for n in family if latin.fullmatch(n)}


def main(folder: Path) -> None:
    first: set[str] = set()
    for name in ("dist.female.first", "dist.male.first"):
        for line in (folder / name).read_text().splitlines():
            first.add(line.split()[0].lower())
    last: set[str] = set()
    for line in (folder / "dist.all.last").read_text().splitlines():
        name, rank = line.split()[0].lower(), int(line.split()[3])
        if rank <= LAST_RANK and word_frequency(name) < WORD_ZIPF:
            last.add(name)
    given, family = _faker_names()
    first |= given
    last |= {name for name in family if word_frequency(name) < WORD_ZIPF}
    data = {
        "source": "1990 US Census name lists (public domain) and Faker's English-speaking "
        "person providers (MIT); scripts/build_person_names.py",
        "given": sorted(first),
        "family": sorted(last),
    }
    out = ROOT / "src/shotsmith/data/person_names.json.gz"
    out.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
    print(f"{out}: {len(first)} given names, {len(last)} family names")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

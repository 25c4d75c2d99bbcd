"""Seed a buku bookmarks database with a fixed set of tagged bookmarks.

Written through buku's own API (``BukuDb.add_rec``) with fetching off, so nothing is
looked up on the web and every reseed gives the same records, in the same order.
Usage: python buku_seed.py PATH/bookmarks.db
"""

from __future__ import annotations

import sys
from pathlib import Path

from buku import BukuDb

# (url, title, tags, description)
BOOKMARKS = [
    (
        "https://developer.mozilla.org/en-US/docs/Web/CSS/CSS_grid_layout",
        "CSS grid layout - MDN",
        "css,reference,web",
        "The complete guide to grid: tracks, areas, auto-placement.",
    ),
    (
        "https://docs.python.org/3/library/pathlib.html",
        "pathlib — Object-oriented filesystem paths",
        "python,reference",
        "Path objects instead of os.path string juggling.",
    ),
    (
        "https://www.seriouseats.com/the-food-lab",
        "The Food Lab",
        "cooking,reading",
        "Kenji's science-of-cooking columns; start with the steak ones.",
    ),
    (
        "https://www.nationaltrust.org.uk/visit/lake-district",
        "Lake District walks",
        "travel,walking,weekend",
        "Circular routes from Keswick and Grasmere, 5-12 km.",
    ),
    (
        "https://sqlite.org/lang_with.html",
        "The WITH clause (common table expressions)",
        "sql,sqlite,reference",
        "Recursive CTEs with worked examples.",
    ),
    (
        "https://www.theguardian.com/books/series/readers-recommend",
        "Readers recommend",
        "books,reading",
        "Monthly reader picks; good for the holiday list.",
    ),
    (
        "https://ourworldindata.org/energy",
        "Energy - Our World in Data",
        "data,climate,reading",
        "Charts of where the world's energy comes from, by country.",
    ),
    (
        "https://www.bbcgoodfood.com/recipes/collection/batch-cooking",
        "Batch cooking ideas",
        "cooking,weeknight",
        "Freezer-friendly dinners for busy weeks.",
    ),
    (
        "https://web.dev/articles/vitals",
        "Web Vitals",
        "web,performance",
        "LCP, INP and CLS: what they measure and the thresholds.",
    ),
    (
        "https://git-scm.com/book/en/v2",
        "Pro Git book",
        "git,reference,books",
        "Free online; chapter 7 on rewriting history is the useful one.",
    ),
    (
        "https://www.strava.com/routes/london-parks-loop",
        "London parks running loop",
        "running,weekend",
        "10 km through Hyde Park and Kensington Gardens.",
    ),
    (
        "https://www.rspb.org.uk/birds-and-wildlife/bird-identifier",
        "RSPB bird identifier",
        "nature,walking",
        "Identify garden birds by colour, size and beak.",
    ),
    (
        "https://www.youtube.com/@3blue1brown",
        "3Blue1Brown",
        "maths,video,learning",
        "Visual maths: the linear algebra series first.",
    ),
    (
        "https://www.khanacademy.org/computing/computer-science/algorithms",
        "Algorithms course",
        "learning,cs",
        "Binary search, sorting, recursion, graphs.",
    ),
    (
        "https://www.interaction-design.org/literature/topics/usability",
        "Usability basics",
        "design,ux,reading",
        "Heuristics and quick tests for a prototype.",
    ),
    (
        "https://www.rome2rio.com/map/Lisbon/Porto",
        "Lisbon to Porto",
        "travel,trains",
        "Train 2h 50m from Santa Apolónia; book a week ahead.",
    ),
    (
        "https://fonts.google.com/specimen/Inter",
        "Inter typeface",
        "design,fonts",
        "The UI font for the side project.",
    ),
    (
        "https://jvns.ca/blog/2023/02/28/some-notes-on-using-nix/",
        "Some notes on using nix",
        "reading,devops",
        "Julia Evans, long read for the train.",
    ),
    (
        "https://www.metoffice.gov.uk/weather/forecast/gcpvj0v07",
        "Met Office forecast: London",
        "weather,daily",
        "Check before the weekend run.",
    ),
    (
        "https://docs.djangoproject.com/en/5.1/topics/db/queries/",
        "Making queries | Django",
        "python,django,reference",
        "select_related vs prefetch_related.",
    ),
    (
        "https://www.gardenersworld.com/how-to/grow-plants/how-to-grow-tomatoes/",
        "How to grow tomatoes",
        "garden,howto",
        "Pinching out side shoots; feed weekly once flowering.",
    ),
    (
        "https://www.poetryfoundation.org/poems/44272/the-road-not-taken",
        "The Road Not Taken",
        "books,poetry",
        "For the book club on Thursday.",
    ),
]


def main(db_file: str) -> None:
    Path(db_file).parent.mkdir(parents=True, exist_ok=True)
    db = BukuDb(dbfile=db_file)
    for url, title, tags, desc in BOOKMARKS:
        if not db.add_rec(url, title, "," + tags + ",", desc, fetch=False):
            raise SystemExit(f"could not add {url}")
    db.close()


if __name__ == "__main__":
    main(sys.argv[1])

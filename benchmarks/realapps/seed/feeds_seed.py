"""Seed a `reader` feed database with three local feeds and their articles.

The feeds are Atom files written into DATA/feeds/ and added as *local* feeds (reader's
feed root), so updating them needs no network. Dates are fixed; a few articles are marked
read or important so the list has some state. Usage: python feeds_seed.py DATA_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from reader import make_reader

FEEDS = {
    "harbour-town-gazette.xml": (
        "Harbour Town Gazette",
        "https://gazette.example/",
        [
            (
                "New ferry timetable starts Monday",
                "2025-06-02T07:30:00Z",
                "Transport",
                "Sailings to the islands go up from four to six a day, with a late boat on "
                "Fridays. "
                "Season tickets are 20% cheaper if bought before the end of the month.",
            ),
            (
                "Library extends weekend opening hours",
                "2025-06-01T09:00:00Z",
                "Community",
                "The central library will open until 8 pm on Saturdays and from noon on Sundays, "
                "after a survey in which 1,200 residents asked for later hours.",
            ),
            (
                "Harbour festival: the full programme",
                "2025-05-30T16:00:00Z",
                "Events",
                "Tall ships, a seafood market and the lantern parade return on 14 and 15 June. "
                "Road closures around the quay begin at 6 am on the Saturday.",
            ),
            (
                "Council approves seafront cycle lane",
                "2025-05-28T18:45:00Z",
                "Transport",
                "A 2.4 km protected lane will link the station with the marina; work starts in "
                "September.",
            ),
            (
                "Rain expected to ease by the weekend",
                "2025-05-27T06:15:00Z",
                "Weather",
                "After the wettest May in a decade, forecasters expect a dry, bright weekend with "
                "highs of 19 °C.",
            ),
        ],
    ),
    "field-notes.xml": (
        "Field Notes — a nature blog",
        "https://fieldnotes.example/",
        [
            (
                "Swifts are back over the old town",
                "2025-06-01T20:10:00Z",
                "Birds",
                "The first screaming party of the year raced over the rooftops at dusk. Swifts "
                "spend "
                "almost their whole lives on the wing and only land to nest.",
            ),
            (
                "How to start a wildflower patch",
                "2025-05-29T12:00:00Z",
                "Gardening",
                "Strip the turf, don't feed the soil, and sow yellow rattle first: it weakens the "
                "grass "
                "so the flowers can compete.",
            ),
            (
                "A week of moth trapping",
                "2025-05-25T08:00:00Z",
                "Insects",
                "Forty-two species in seven nights, including a poplar hawk-moth the size of a "
                "palm.",
            ),
            (
                "Tide pools at low water",
                "2025-05-20T10:30:00Z",
                "Coast",
                "Beadlet anemones, a shore crab standing its ground and a blenny hiding under the "
                "weed.",
            ),
        ],
    ),
    "the-build-log.xml": (
        "The Build Log",
        "https://buildlog.example/",
        [
            (
                "Shipping a feature flag system in a week",
                "2025-06-02T11:00:00Z",
                "Engineering",
                "We kept it boring: flags live in one table, are read once per request, and every "
                "flag "
                "has an owner and an expiry date.",
            ),
            (
                "What we learned from 100 postmortems",
                "2025-05-31T15:20:00Z",
                "Reliability",
                "Most incidents started with a change; half were caught by a customer first. "
                "Three habits "
                "that halved our time to recover.",
            ),
            (
                "SQLite in production, one year on",
                "2025-05-26T09:45:00Z",
                "Databases",
                "One file, no server, backups with a single command — and the two places it hurt.",
            ),
            (
                "Writing release notes people read",
                "2025-05-22T14:00:00Z",
                "Writing",
                "Lead with what changes for the reader, not what changed in the code.",
            ),
        ],
    ),
}


# The article the corpus opens gets a full body; the others are one-paragraph posts.
LONG = {
    "What we learned from 100 postmortems": (
        "<p>Over two years we wrote a postmortem for every incident that paged someone: "
        "one hundred and four in all. We read them again, one a day, and tagged each with "
        "what started it, who noticed first and how long it took to recover.</p>"
        "<h3>What started them</h3><ul><li>61 began with a change we made: a deploy, a "
        "config edit, a migration.</li><li>23 came from a dependency: a provider, a "
        "certificate, a quota.</li><li>20 were load we had not planned for.</li></ul>"
        "<h3>Who noticed first</h3><p>Half the time it was a customer. Our alerts fired "
        "on causes (CPU, queue depth) rather than on what users feel (errors, slow pages).</p>"
        "<h3>Three habits that halved our time to recover</h3><ol><li>Every deploy can be "
        "rolled back with one command, and the on-call engineer is expected to use it "
        "first and ask questions later.</li><li>Alerts on symptoms, not causes.</li><li>A "
        "written timeline, started in the incident channel in the first five minutes.</li></ol>"
    ),
}


def atom(title: str, link: str, entries: list[tuple[str, str, str, str]]) -> str:
    items = []
    for number, (headline, when, category, body) in enumerate(entries, start=1):
        slug = headline.lower().replace(" ", "-").replace(":", "").replace(",", "")
        items.append(
            f"""  <entry>
    <title>{escape(headline)}</title>
    <id>{link}{number}</id>
    <link href="{link}{slug}"/>
    <updated>{when}</updated>
    <published>{when}</published>
    <author><name>{escape(title.split(" —")[0])}</name></author>
    <category term="{escape(category)}"/>
    <summary>{escape(body)}</summary>
    <content type="html">{escape(LONG.get(headline, "<p>" + body + "</p>"))}</content>
  </entry>"""
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f'  <title>{escape(title)}</title>\n  <id>{link}</id>\n  <link href="{link}"/>\n'
        f"  <updated>{entries[0][1]}</updated>\n" + "\n".join(items) + "\n</feed>\n"
    )


def main(data: str) -> None:
    root = Path(data)
    feeds = root / "feeds"
    feeds.mkdir(parents=True, exist_ok=True)
    reader = make_reader(str(root / "db.sqlite"), feed_root=str(feeds))
    for name, (title, link, entries) in FEEDS.items():
        (feeds / name).write_text(atom(title, link, entries), encoding="utf-8")
        reader.add_feed(name)
    reader.update_feeds()
    reader.update_search()
    marks = {
        "Rain expected to ease by the weekend": "read",
        "Tide pools at low water": "read",
        "Writing release notes people read": "read",
        "What we learned from 100 postmortems": "important",
        "How to start a wildflower patch": "important",
    }
    for entry in reader.get_entries():
        if marks.get(entry.title) == "read":
            reader.mark_entry_as_read(entry)
        elif marks.get(entry.title) == "important":
            reader.mark_entry_as_important(entry)
    reader.close()


if __name__ == "__main__":
    main(sys.argv[1])

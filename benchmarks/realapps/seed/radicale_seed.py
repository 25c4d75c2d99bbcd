"""Seed Radicale's file-system storage with calendars, a task list and address books.

Radicale keeps each collection as a folder (``collection-root/<user>/<name>/``) with a
``.Radicale.props`` JSON file and one iCalendar/vCard file per item, so seeding is
writing files; fixed UIDs and dates make every seed identical.
Usage: python radicale_seed.py DATA_DIR USERNAME PASSWORD
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

STAMP = "20250401T090000Z"

CALENDARS = {
    "work": {
        "props": {
            "tag": "VCALENDAR",
            "D:displayname": "Work",
            "C:calendar-description": "Meetings, reviews and deadlines",
            "ICAL:calendar-color": "#1E6FD9",
            "C:supported-calendar-component-set": "VEVENT",
        },
        "events": [
            (
                "weekly-planning",
                "Weekly planning",
                "20250407T090000",
                "20250407T093000",
                "Room 3B",
                "FREQ=WEEKLY;BYDAY=MO",
            ),
            (
                "design-review",
                "Design review: onboarding flow",
                "20250409T140000",
                "20250409T150000",
                "Video call",
                None,
            ),
            (
                "q2-roadmap",
                "Q2 roadmap presentation",
                "20250415T100000",
                "20250415T113000",
                "Main auditorium",
                None,
            ),
            (
                "one-to-one",
                "1:1 with Alex",
                "20250410T160000",
                "20250410T163000",
                "Alex's office",
                "FREQ=WEEKLY;BYDAY=TH",
            ),
            (
                "release",
                "Release 4.2 go/no-go",
                "20250417T110000",
                "20250417T113000",
                "Room 1A",
                None,
            ),
        ],
    },
    "family": {
        "props": {
            "tag": "VCALENDAR",
            "D:displayname": "Family",
            "C:calendar-description": "School, sport and birthdays",
            "ICAL:calendar-color": "#E8590C",
            "C:supported-calendar-component-set": "VEVENT",
        },
        "events": [
            (
                "swim",
                "Swimming lesson",
                "20250405T100000",
                "20250405T110000",
                "Leisure centre",
                "FREQ=WEEKLY;BYDAY=SA",
            ),
            (
                "grandma",
                "Grandma's 80th birthday lunch",
                "20250413T123000",
                "20250413T160000",
                "The Old Mill",
                None,
            ),
            (
                "parents-evening",
                "Parents' evening",
                "20250416T180000",
                "20250416T193000",
                "Hillside Primary",
                None,
            ),
        ],
    },
}

TASKS = {
    "props": {
        "tag": "VCALENDAR",
        "D:displayname": "Errands",
        "C:calendar-description": "Things to do this month",
        "ICAL:calendar-color": "#2B8A3E",
        "C:supported-calendar-component-set": "VTODO",
    },
    "todos": [
        ("passport", "Renew passport", "20250425", "NEEDS-ACTION"),
        ("mot", "Book the car's MOT", "20250418", "NEEDS-ACTION"),
        ("boiler", "Boiler service", "20250411", "COMPLETED"),
        ("gift", "Order birthday present for grandma", "20250410", "COMPLETED"),
    ],
}

CONTACTS = {
    "props": {
        "tag": "VADDRESSBOOK",
        "D:displayname": "Contacts",
        "CR:addressbook-description": "Friends, family and colleagues",
    },
    "cards": [
        (
            "alex-morgan",
            "Alex Morgan",
            "Morgan;Alex",
            "alex.morgan@example.com",
            "+44 20 7946 0101",
            "Northwind Design",
        ),
        ("priya-shah", "Priya Shah", "Shah;Priya", "priya@example.org", "+44 7700 900123", ""),
        (
            "tom-becker",
            "Tom Becker",
            "Becker;Tom",
            "tom.becker@example.com",
            "+49 30 901820",
            "Becker & Sons",
        ),
        (
            "leisure-centre",
            "Riverside Leisure Centre",
            "",
            "bookings@example.net",
            "+44 20 7946 0555",
            "Riverside Leisure Centre",
        ),
    ],
}


def event(uid: str, summary: str, start: str, end: str, where: str, rule: str | None) -> str:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//shotsmith realapps//seed//EN",
        "BEGIN:VEVENT",
        f"UID:{uid}@example.com",
        f"DTSTAMP:{STAMP}",
        f"DTSTART;TZID=Europe/London:{start}",
        f"DTEND;TZID=Europe/London:{end}",
        f"SUMMARY:{summary}",
        f"LOCATION:{where}",
    ]
    if rule:
        lines.append(f"RRULE:{rule}")
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


def todo(uid: str, summary: str, due: str, status: str) -> str:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//shotsmith realapps//seed//EN",
        "BEGIN:VTODO",
        f"UID:{uid}@example.com",
        f"DTSTAMP:{STAMP}",
        f"DUE;VALUE=DATE:{due}",
        f"SUMMARY:{summary}",
        f"STATUS:{status}",
        "END:VTODO",
        "END:VCALENDAR",
    ]
    return "\r\n".join(lines) + "\r\n"


def card(uid: str, name: str, parts: str, email: str, phone: str, org: str) -> str:
    lines = ["BEGIN:VCARD", "VERSION:3.0", f"UID:{uid}@example.com", f"FN:{name}"]
    lines.append(f"N:{parts};;;" if parts else f"N:{name};;;;")
    lines += [f"EMAIL;TYPE=INTERNET:{email}", f"TEL;TYPE=CELL:{phone}"]
    if org:
        lines.append(f"ORG:{org}")
    lines.append("END:VCARD")
    return "\r\n".join(lines) + "\r\n"


def collection(root: Path, name: str, props: dict[str, str], items: dict[str, str]) -> None:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".Radicale.props").write_text(json.dumps(props), encoding="utf-8")
    for file_name, body in items.items():
        (folder / file_name).write_text(body, encoding="utf-8", newline="")


def main(data: str, username: str, password: str) -> None:
    base = Path(data)
    (base / "users").write_text(f"{username}:{password}\n", encoding="utf-8")
    root = base / "collections" / "collection-root" / username
    for name, spec in CALENDARS.items():
        collection(root, name, spec["props"], {f"{e[0]}.ics": event(*e) for e in spec["events"]})
    collection(root, "errands", TASKS["props"], {f"{t[0]}.ics": todo(*t) for t in TASKS["todos"]})
    collection(
        root, "contacts", CONTACTS["props"], {f"{c[0]}.vcf": card(*c) for c in CONTACTS["cards"]}
    )


if __name__ == "__main__":
    main(*sys.argv[1:4])

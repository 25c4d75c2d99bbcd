"""Configure I Hate Money and fill one project through its REST API.

``config``: writes DATA/ihatemoney.cfg (SQLite in DATA, no demo project, cookies over
plain http on 127.0.0.1). ``bills``: creates the project, its four members and a dozen
bills with fixed dates and amounts through ``/api/projects`` — the API the app documents.
Usage: python ihatemoney_seed.py config DATA
       python ihatemoney_seed.py bills ORIGIN PROJECT_ID PASSWORD
"""

from __future__ import annotations

import base64
import json
import sys
import urllib.parse
import urllib.request
from pathlib import Path

CONFIG = """\
SQLALCHEMY_DATABASE_URI = "sqlite:///{data}/ihatemoney.db"
SQLALCHEMY_TRACK_MODIFICATIONS = False
SECRET_KEY = "realapps-seed-not-a-secret"
SITE_NAME = "I Hate Money"
ACTIVATE_DEMO_PROJECT = False
ACTIVATE_ADMIN_DASHBOARD = False
ALLOW_PUBLIC_PROJECT_CREATION = True
SESSION_COOKIE_SECURE = False
ENABLE_CAPTCHA = False
"""

MEMBERS = ["Ana", "Ben", "Chloé", "Dev"]

# date, what, payer, paid for (names), amount in euros
BILLS = [
    ("2025-05-02", "Flights Lisbon return", "Ana", MEMBERS, 412.60),
    ("2025-05-02", "Apartment in Alfama, 4 nights", "Ben", MEMBERS, 536.00),
    ("2025-05-03", "Airport taxi", "Dev", MEMBERS, 28.40),
    ("2025-05-03", "Groceries at Pingo Doce", "Chloé", MEMBERS, 46.85),
    ("2025-05-03", "Dinner at Taberna da Rua", "Ana", MEMBERS, 118.50),
    ("2025-05-04", "Tram 28 day passes", "Dev", MEMBERS, 25.60),
    ("2025-05-04", "Pastéis de Belém", "Chloé", MEMBERS, 14.40),
    ("2025-05-04", "Jerónimos Monastery tickets", "Ben", ["Ben", "Chloé", "Dev"], 36.00),
    ("2025-05-05", "Sintra train and Pena Palace", "Ana", MEMBERS, 98.00),
    ("2025-05-05", "Fado night", "Dev", ["Ana", "Dev"], 70.00),
    ("2025-05-06", "Seafood lunch in Cascais", "Chloé", MEMBERS, 132.20),
    ("2025-05-06", "Souvenirs", "Ben", ["Ben"], 22.00),
]


def write_config(data: Path) -> None:
    (data / "ihatemoney.cfg").write_text(CONFIG.format(data=data), encoding="utf-8")


def _call(origin: str, path: str, fields: list[tuple[str, str]], auth: str | None) -> object:
    request = urllib.request.Request(
        origin + path,
        data=urllib.parse.urlencode(fields).encode(),
        method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    if auth:
        request.add_header("Authorization", f"Basic {auth}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def seed_bills(origin: str, project: str, password: str) -> None:
    _call(
        origin,
        "/api/projects",
        [
            ("name", "Lisbon trip 2025"),
            ("id", project),
            ("password", password),
            ("contact_email", "ana@example.org"),
            ("default_currency", "EUR"),
        ],
        None,
    )
    auth = base64.b64encode(f"{project}:{password}".encode()).decode()
    ids = {
        name: _call(origin, f"/api/projects/{project}/members", [("name", name)], auth)
        for name in MEMBERS
    }
    for date, what, payer, owers, amount in BILLS:
        fields = [
            ("date", date),
            ("what", what),
            ("payer", str(ids[payer])),
            ("amount", f"{amount:.2f}"),
            ("original_currency", "EUR"),
        ]
        fields += [("payed_for", str(ids[name])) for name in owers]
        _call(origin, f"/api/projects/{project}/bills", fields, auth)


if __name__ == "__main__":
    if sys.argv[1] == "config":
        write_config(Path(sys.argv[2]))
    else:
        seed_bills(*sys.argv[2:5])

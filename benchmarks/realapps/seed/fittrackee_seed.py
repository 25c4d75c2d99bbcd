"""Seed FitTrackee: one user (its own CLI) and three months of workouts (its API).

Workouts are entered without GPS files (``POST /api/workouts/no_gpx``): sport, date,
duration, distance, ascent, title, a note now and then — a runner who also cycles to work
and hikes at weekends. Dates are relative to today; the random choices are seeded, so the
workouts are the same each reseed. Usage: python fittrackee_seed.py ORIGIN VENV_BIN USER PASSWORD
"""

from __future__ import annotations

import datetime as dt
import http.cookiejar
import json
import os
import random
import subprocess
import sys
import urllib.request

# its cookies are Secure; this loopback server is plain http
JAR = http.cookiejar.CookieJar(
    http.cookiejar.DefaultCookiePolicy(secure_protocols=("https", "wss", "http"))
)
OPENER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(JAR))


def call(origin: str, path: str, body: dict) -> dict:
    """POST JSON with the session's cookies (FitTrackee keeps its token in a cookie and
    wants the CSRF cookie's value echoed in a header)."""
    headers = {"Content-Type": "application/json"}
    csrf = [c.value for c in JAR if c.name == "csrf_access_token"]
    if csrf:
        headers["X-CSRF-TOKEN"] = csrf[0]
    request = urllib.request.Request(origin + path, json.dumps(body).encode(), headers)
    with OPENER.open(request, timeout=30) as response:
        return json.load(response)


def main() -> None:
    origin, venv, user, password = sys.argv[1:5]
    ftcli = os.path.join(venv, "ftcli")
    subprocess.run(
        [
            ftcli,
            "users",
            "create",
            user,
            "--email",
            f"{user}@example.org",
            "--password",
            password,
            "--tz",
            "Europe/London",
            "--lang",
            "en",
        ],
        check=True,
    )
    subprocess.run([ftcli, "users", "update", user, "--activate"], check=True)
    call(origin, "/api/auth/login", {"email": f"{user}@example.org", "password": password})
    call(origin, "/api/auth/account/privacy-policy", {"accepted_policy": True})
    rnd = random.Random(3)
    today = dt.date.today()
    day = today - dt.timedelta(days=95)
    # sport ids of FitTrackee's preset sports: 1 Cycling (Sport), 2 Cycling (Transport), 3 Hiking, 5 Running, 6 Walking
    while day <= today:
        weekday = day.weekday()
        plans = []
        if weekday in (1, 3):
            km = round(rnd.uniform(6.5, 10.5), 2)
            plans.append(
                (
                    5,
                    "07:05",
                    km,
                    int(km * rnd.uniform(315, 345)),
                    rnd.randint(40, 120),
                    "Morning run",
                )
            )
        if weekday in (0, 2, 4) and rnd.random() < 0.8:
            plans.append(
                (
                    2,
                    "08:20",
                    round(rnd.uniform(7.8, 8.4), 2),
                    rnd.randint(1500, 1800),
                    45,
                    "Commute to the office",
                )
            )
        if weekday == 5:
            km = round(rnd.uniform(14, 21), 2)
            plans.append(
                (5, "08:30", km, int(km * rnd.uniform(330, 360)), rnd.randint(90, 260), "Long run")
            )
        if weekday == 6 and rnd.random() < 0.6:
            km = round(rnd.uniform(9, 17), 2)
            plans.append(
                (
                    3,
                    "10:00",
                    km,
                    int(km * rnd.uniform(780, 900)),
                    rnd.randint(300, 800),
                    rnd.choice(
                        [
                            "Mendip Hills loop",
                            "Cheddar Gorge rim",
                            "Brecon Beacons ridge",
                            "Cotswold Way section",
                        ]
                    ),
                )
            )
        if weekday == 6 and rnd.random() < 0.4:
            km = round(rnd.uniform(45, 80), 1)
            plans.append(
                (
                    1,
                    "14:00",
                    km,
                    int(km * rnd.uniform(120, 140)),
                    rnd.randint(400, 1100),
                    "Sunday club ride",
                )
            )
        for sport, time, km, seconds, ascent, title in plans:
            body = {
                "sport_id": sport,
                "workout_date": f"{day.isoformat()} {time}",
                "distance": km,
                "duration": seconds,
                "title": title,
                "ascent": ascent,
                "descent": ascent,
            }
            if title == "Long run" and rnd.random() < 0.5:
                body["notes"] = "Negative split, felt strong in the last 5 km."
            call(origin, "/api/workouts/no_gpx", body)
        day += dt.timedelta(days=1)


if __name__ == "__main__":
    main()

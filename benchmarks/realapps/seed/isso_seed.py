"""Seed Isso: its config (before the server starts), then a comment thread (against it).

`config DATA PORT PASSWORD` writes DATA/isso.cfg: SQLite under DATA, the admin page on,
no rate limit (so the seed can post quickly), gravatar off (avatars are Isso's own
identicons, drawn in the browser), notifications to the log.
`thread ORIGIN DATA` posts a discussion to the demo page's thread through Isso's own
REST API (replies, likes), then, in its SQLite file, spreads the comments' times over
the last few days and puts two new comments back into the moderation queue, so the
admin page has something to approve. Times are relative to the seeding moment.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
import urllib.request
from pathlib import Path

CONFIG = """\
[general]
dbpath = {data}/comments.db
host = http://127.0.0.1:{port}/
max-age = 15m
notify = stdout
gravatar = false
latest-enabled = true

[admin]
enabled = true
password = {password}

[moderation]
enabled = false

[server]
listen = http://127.0.0.1:{port}/

[guard]
enabled = false
require-author = false
require-email = false

[markup]
options = strikethrough, superscript, autolink, fenced-code
"""

# (key, parent key, author, website, text, likes, hours ago)
THREAD = [
    (
        "a",
        None,
        "Priya",
        "",
        "Switched our little blog over last weekend. Comments load fast "
        "and there is no tracking script any more, which was the whole point.",
        7,
        70,
    ),
    (
        "b",
        "a",
        "Tom Becker",
        "",
        "Same here. Did you import the old comments? The Disqus "
        "export worked for us, threads and all.",
        3,
        66,
    ),
    (
        "c",
        "b",
        "Priya",
        "",
        "Yes, `isso -c isso.cfg import disqus.xml` and it kept the "
        "replies nested. Took about a minute.",
        4,
        65,
    ),
    (
        "d",
        None,
        "Marguerite",
        "",
        "Is there a way to get an email when someone replies to me? I never remember to come back.",
        2,
        40,
    ),
    (
        "e",
        "d",
        "Lena (site owner)",
        "",
        "There is: leave your email when you post and tick "
        "*subscribe to email notification of replies*.",
        5,
        38,
    ),
    (
        "f",
        None,
        "Sam O.",
        "",
        "Markdown works in comments too — **bold**, _italics_ and links. Nice touch.",
        1,
        20,
    ),
    ("g", None, "Jonas", "", "Love how light this is. Any plans for a dark theme?", 0, 5),
    ("h", "g", "Aiyana", "", "+1 for dark mode!", 0, 2),
]
PENDING = {"g", "h"}  # shown to the admin as waiting for approval


def config(data: str, port: str, password: str) -> None:
    root = Path(data)
    root.mkdir(parents=True, exist_ok=True)
    (root / "isso.cfg").write_text(
        CONFIG.format(data=root, port=port, password=password), encoding="utf-8"
    )


def _post(origin: str, path: str, body: dict | None) -> dict:
    request = urllib.request.Request(
        origin + path,
        data=json.dumps(body or {}).encode(),
        headers={
            "Content-Type": "application/json",
            "Origin": origin,
            "Referer": origin + "/demo/",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def thread(origin: str, data: str) -> None:
    ids: dict[str, int] = {}
    for key, parent, author, website, text, _likes, _hours in THREAD:
        # A different email per author gives each a different identicon (never shown).
        email = author.split()[0].lower() + "@example.org"
        body = {
            "text": text,
            "author": author,
            "website": website or None,
            "email": email,
            "parent": ids.get(parent) if parent else None,
            "title": "Isso Test",
        }
        ids[key] = _post(origin, "/new?uri=%2Fdemo%2F", body)["id"]
    now = time.time()
    db = sqlite3.connect(Path(data) / "comments.db")
    for key, _parent, _author, _website, _text, likes, hours in THREAD:
        mode = 2 if key in PENDING else 1
        db.execute(
            "UPDATE comments SET created = ?, likes = ?, mode = ? WHERE id = ?",
            (now - hours * 3600, likes, mode, ids[key]),
        )
    db.commit()
    db.close()


if __name__ == "__main__":
    if sys.argv[1] == "config":
        config(*sys.argv[2:5])
    else:
        thread(*sys.argv[2:4])

"""Check `shotsmith capture` against the real apps: no write reaches them, and say what it did.

For each app (all, or those named): start it fresh with run.py (install if needed, reseed),
snapshot its data folder (a hash of every file, and a logical dump of every SQLite
database), note how long its server log is, run this worktree's `shotsmith capture` on it
(`--max-screens 8 --project-name TITLE`, `--login` where the app needs one), stop it, and
compare. Per app it prints pages visited, screens kept, pages rejected (with reasons),
requests blocked, the device (and any switch), the exit code, whether the app's data changed
(and which files), and the non-GET requests the app's own server log shows during the
capture. Then totals.

    python benchmarks/realapps/capture_check.py                 # every app
    python benchmarks/realapps/capture_check.py buku feeds      # some
    python benchmarks/realapps/capture_check.py --out /tmp/cc --size 6.9 buku

Options it does not know go to `shotsmith capture` (e.g. `--size 6.9`, `--timeout 120`).
Exit 1 when any app's data changed, a capture crashed (exit other than 0 or 2) or an app
could not start.

Files an app changes by itself when only read (a session store, a cache, its own logs) are
not counted as writes; they are listed in READ_TIME below with the reason, and for those
apps the server log's non-GET requests are the check instead. A SQLite database is compared
by its logical dump (``iterdump``), not its bytes: a read can checkpoint the write-ahead log
and rewrite pages without changing a row.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import importlib.util
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

_spec = importlib.util.spec_from_file_location("realapps_run", HERE / "run.py")
assert _spec and _spec.loader
run = importlib.util.module_from_spec(_spec)
sys.modules["realapps_run"] = run
_spec.loader.exec_module(run)

#: apps whose data the capture may only read once signed in (run.py's [login])
NEEDS_LOGIN = {"radicale", "actual", "ihatemoney", "wagtail"}

#: files (globs relative to the data folder) an app writes on its own while only being read,
#: and why. These are left out of the comparison; the server log is checked instead.
READ_TIME: dict[str, list[tuple[str, str]]] = {
    "*": [
        ("*.log", "the app's own log"),
        ("**/*.log", "the app's own log"),
        ("*-wal", "SQLite write-ahead log: compared through the database's logical dump"),
        ("**/*-wal", "SQLite write-ahead log: compared through the database's logical dump"),
        ("*-shm", "SQLite shared memory: changes on every read"),
        ("**/*-shm", "SQLite shared memory: changes on every read"),
        ("*-journal", "SQLite rollback journal: compared through the logical dump"),
        ("**/*-journal", "SQLite rollback journal: compared through the logical dump"),
        ("**/__pycache__/*", "Python bytecode cache"),
    ],
    "radicale": [
        (".Radicale.cache/*", "Radicale's item/sync-token cache, filled on a PROPFIND/REPORT"),
        ("**/.Radicale.cache/*", "Radicale's item/sync-token cache, filled on a REPORT"),
        ("**/.Radicale.lock", "Radicale's storage lock file, touched on every request"),
        (".Radicale.lock", "Radicale's storage lock file, touched on every request"),
    ],
    "maloja": [
        ("maloja/cache/*", "Maloja's image/statistics cache"),
        ("maloja/cache/**", "Maloja's image/statistics cache"),
        ("maloja/state/*", "Maloja's runtime state (last cache refresh)"),
        ("maloja/logs/*", "Maloja's own logs"),
    ],
    "lute": [
        ("lute_data/cache/**", "Lute's rendered-text cache"),
        # opening a book to read it (a GET of /read/<id>) parses the page into sentences,
        # starts the page and records it as the book's current page, and refreshes stats
        ("lute.db#sentences", "sentences Lute parses when a page is opened to read (a GET)"),
        ("lute.db#texts", "the page's start date, set when it is opened to read (a GET)"),
        ("lute.db#books", "the book's current page, set when it is opened to read (a GET)"),
        ("lute.db#bookstats", "reading statistics Lute recomputes when a book is shown"),
        ("lute.db#words", "the page's new words saved as status-0 terms by start_reading (a GET)"),
    ],
    "actual": [
        ("server-files/account.sqlite#sessions", "Actual's sessions: the sign-in adds a token"),
    ],
    "wagtail": [
        ("*#django_session", "the sign-in's session (--login)"),
        ("*#auth_user", "last_login, set by the sign-in (--login)"),
        ("*#wagtailimages_rendition", "image renditions Wagtail makes when an image is shown"),
        ("bakery/media/images/*", "image rendition files Wagtail makes when an image is shown"),
        # opening a page in the editor (a GET of /admin/pages/<id>/edit/) records who is
        # editing it and subscribes the user to its comments; no request writes them
        ("*#wagtailadmin_editingsession", "the editor's GET records who is editing the page"),
        ("*#wagtailcore_pagesubscription", "the editor's GET subscribes the user to comments"),
        ("*#sqlite_sequence", "row counters of the tables above"),
    ],
}

WRITE_LINE = re.compile(r"(?<![A-Za-z])(POST|PUT|PATCH|DELETE|PROPPATCH|MKCOL|MKCALENDAR)\s+(\S+)")
READ_LINE = re.compile(r"(?<![A-Za-z])(GET|HEAD|PROPFIND|REPORT|OPTIONS)\s+/\S*")


def _ignored(app: str, rel: str) -> str:
    for pattern, why in READ_TIME.get("*", []) + READ_TIME.get(app, []):
        if fnmatch.fnmatch(rel, pattern):
            return why
    return ""


def _sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


#: the last logical dump of each database table, for showing what changed
DUMPS: dict[str, list[str]] = {}

#: rows that changed in a database table between the two snapshots (a few of each)
DIFFS: dict[str, list[str]] = {}

_INSERT = re.compile(r'INSERT INTO "?([^" (]+)"?')


def _dump(path: Path, rel: str) -> dict[str, str]:
    """``rel#table`` -> hash of the table's rows as SQL (``rel#schema`` for the rest); read
    only, the WAL (if any) is read too."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            lines = list(con.iterdump())
        finally:
            con.close()
    except sqlite3.Error as error:
        return {f"{rel}#schema": f"unreadable: {error}"}
    tables: dict[str, list[str]] = {}
    for line in lines:
        match = _INSERT.match(line)
        tables.setdefault(f"{rel}#{match.group(1) if match else 'schema'}", []).append(line)
    out = {}
    for key, rows in tables.items():
        previous = DUMPS.get(key)
        DUMPS[key] = rows
        if previous is not None and previous != rows:
            gone, new = set(previous) - set(rows), set(rows) - set(previous)
            DIFFS[key] = [f"- {x[:160]}" for x in sorted(gone)[:3]] + [
                f"+ {x[:160]}" for x in sorted(new)[:3]
            ]
        out[key] = hashlib.sha256("\n".join(rows).encode("utf-8", "replace")).hexdigest()
    return out


def snapshot(app: Any) -> dict[str, str]:
    """rel path -> content hash (a SQLite database: ``rel#table`` -> hash of its rows)."""
    out: dict[str, str] = {}
    for path in sorted(app.data.rglob("*")):
        if not path.is_file():
            continue
        rel = str(path.relative_to(app.data))
        if _sqlite(path):
            out.update(_dump(path, rel))
        else:
            try:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as error:
                out[rel] = f"unreadable: {error}"
    return out


def compare(
    app: str, data: Path, before: dict[str, str], after: dict[str, str]
) -> tuple[list[str], list[str]]:
    """(files that changed = writes, files that changed but an app touches on its own)."""
    changed, touched = [], []
    for rel in sorted(set(before) | set(after)):
        if before.get(rel) == after.get(rel):
            continue
        what = "added" if rel not in before else "removed" if rel not in after else "changed"
        why = _ignored(app, rel)
        rows = DIFFS.get(rel, [])
        line = f"{rel} ({what}{'; ' + why if why else ''})"
        (touched if why else changed).append("\n      ".join([line, *rows]))
    return changed, touched


@dataclass
class Result:
    app: str
    exit: int | None = None
    error: str = ""
    visited: int = 0
    kept: int = 0
    device: str = ""
    switch: str = ""
    rejected: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    log_writes: list[str] = field(default_factory=list)
    log_reads: int = 0
    seconds: float = 0.0
    stderr_tail: str = ""
    folder: str = ""


def _manifests(target: Path) -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text(encoding="utf-8")) for p in sorted(target.rglob("manifest.json"))
    ]


def check(name: str, out: Path, extra: list[str], timeout: float) -> Result:
    app = run.load_app(name)
    result = Result(app=name)
    run.stop(app)  # reseed from scratch: every check sees the same data
    try:
        run.start(app)
    except run.HarnessError as error:
        result.error = f"could not start: {str(error).splitlines()[0]}"
        return result
    try:
        time.sleep(2.0)  # let start-up writes (caches, first checkpoint) settle
        before = snapshot(app)
        log_from = app.logfile.stat().st_size if app.logfile.exists() else 0
        target = out / name
        subprocess.run(["rm", "-rf", str(target)], check=False)
        argv = [
            sys.executable,
            "-m",
            "shotsmith.cli",
            "capture",
            app.url,
            "--out",
            str(target),
            "--max-screens",
            "8",
            "--project-name",
            app.title,
            "--timeout",
            str(timeout),
        ]
        if name in NEEDS_LOGIN and app.login:
            argv += ["--login", f"{app.login.get('username', '')}:{app.login['password']}"]
        argv += extra
        env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
        begun = time.monotonic()
        proc = subprocess.run(argv, capture_output=True, text=True, env=env)
        result.seconds = time.monotonic() - begun
        result.exit = proc.returncode
        result.stderr_tail = "\n".join(proc.stderr.strip().splitlines()[-2:])
        target.mkdir(parents=True, exist_ok=True)
        (target / "capture.log").write_text(
            f"$ {' '.join(argv)}\nexit {proc.returncode}\n--- stdout\n{proc.stdout}"
            f"\n--- stderr\n{proc.stderr}",
            encoding="utf-8",
        )
        result.folder = str(target)
        time.sleep(1.5)  # let the server finish what the last request started
        after = snapshot(app)
        result.changed, result.touched = compare(name, app.data, before, after)
        if app.logfile.exists():
            with app.logfile.open("rb") as fh:
                fh.seek(log_from)
                text = fh.read().decode("utf-8", "replace")
            result.log_writes = [" ".join(m.groups()) for m in WRITE_LINE.finditer(text)]
            result.log_reads = len(READ_LINE.findall(text))
    finally:
        run.stop(app)
    for manifest in _manifests(out / name):
        report = manifest.get("capture_report", {})
        result.device = ",".join(filter(None, [result.device, manifest.get("device", "")]))
        result.visited = max(result.visited, int(report.get("pages_visited", 0)))
        result.kept += len(manifest.get("screens", []))
        switch = report.get("device_switch")
        if switch:
            result.switch = f"{switch.get('from')} -> {switch.get('to')}: {switch.get('reason')}"
        for r in report.get("rejected", []):
            line = f"{r.get('url')}: {r.get('reason')} [{r.get('kind')}]"
            if line not in result.rejected:
                result.rejected.append(line)
        for b in report.get("network", {}).get("blocked", []):
            cause = f" after pressing {b['caused_by']!r}" if b.get("caused_by") else ""
            line = f"{b.get('method')} {b.get('url')}: {b.get('reason')}{cause}"
            if line not in result.blocked:
                result.blocked.append(line)
    return result


def print_result(r: Result) -> None:
    print(f"== {r.app}")
    if r.error:
        print(f"  ERROR {r.error}")
        return
    print(
        f"  exit {r.exit}  visited {r.visited}  kept {r.kept}  device {r.device or '-'}"
        f"  ({r.seconds:.0f} s)  {r.folder}"
    )
    if r.switch:
        print(f"  device switch: {r.switch}")
    print(f"  rejected {len(r.rejected)}:")
    for line in r.rejected:
        print(f"    {line}")
    print(f"  blocked {len(r.blocked)}:")
    for line in r.blocked:
        print(f"    {line}")
    print(f"  data changed: {'YES' if r.changed else 'no'}")
    for line in r.changed:
        print(f"    {line}")
    for line in r.touched:
        print(f"    (not a write) {line}")
    logged = f"{r.log_reads} read(s) logged" if r.log_reads else "the app logs no requests"
    print(f"  non-GET requests in the server log: {len(r.log_writes)} ({logged})")
    for line, times in Counter(r.log_writes).items():
        print(f"    {line}" + (f" (x{times})" if times > 1 else ""))
    if r.exit != 0:  # the reasons capture gave (exit 2), or how it failed
        print("  capture stderr (tail):\n    " + r.stderr_tail.replace("\n", "\n    "))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("apps", nargs="*", metavar="app")
    parser.add_argument("--out", type=Path, default=Path("/tmp/shotsmith-capture-check"))
    parser.add_argument("--timeout", type=float, default=90, help="capture's --timeout")
    args, extra = parser.parse_known_args(argv)
    run.stop_on_exit()  # interrupted, the app under check is stopped, not left behind
    names = args.apps or run.all_apps()
    results = []
    for name in names:
        result = check(name, args.out, [a for a in extra if a != "--"], args.timeout)
        print_result(result)
        sys.stdout.flush()
        results.append(result)
    ok = [r for r in results if not r.error]
    print("== totals")
    print(
        f"  apps {len(results)} (started {len(ok)}), pages visited {sum(r.visited for r in ok)}, "
        f"kept {sum(r.kept for r in ok)}, rejected {sum(len(r.rejected) for r in ok)}, "
        f"blocked {sum(len(r.blocked) for r in ok)}"
    )
    wrote = [r.app for r in ok if r.changed]
    crashed = [r.app for r in ok if r.exit not in (0, 2)]
    short = [r.app for r in ok if r.exit == 2]
    print(f"  data changed: {', '.join(wrote) or 'none'}")
    print(
        f"  crashed: {', '.join(crashed) or 'none'}; too few screens (exit 2): "
        f"{', '.join(short) or 'none'}"
    )
    print(f"  could not start: {', '.join(r.app for r in results if r.error) or 'none'}")
    return 1 if wrote or crashed or len(ok) < len(results) else 0


if __name__ == "__main__":
    sys.exit(main())

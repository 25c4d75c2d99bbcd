"""Install, seed, start, stop and capture real open-source web apps for shotsmith.

shotsmith is judged on real third-party apps that nobody on the team wrote. This
harness keeps a handful of them one command away, so capture, domain detection and
copywriting can be developed and measured against real pages instead of the bundled
samples. Each app is described by a small TOML spec in ``apps/`` (how to install it,
how to seed it with deterministic, realistic data, how to start it, its URL and any
credentials). Everything an app installs or writes lives under
``~/.cache/shotsmith-realapps/<app>/`` (override with ``$SHOTSMITH_REALAPPS_HOME``),
never in the repository. Every app listens on 127.0.0.1 on a port in 18100-18999 and
needs no internet at run time.

This is a development tool, not a test: it is slow (installs from package registries)
and CI does not run it. See README.md beside this file.

    python benchmarks/realapps/run.py list
    python benchmarks/realapps/run.py start tiddlywiki     # install + seed + start, waits
    python benchmarks/realapps/run.py stop tiddlywiki      # kills the whole process tree
    python benchmarks/realapps/run.py capture tiddlywiki   # start if needed, capture, stop
    python benchmarks/realapps/run.py capture-all --out /tmp/realapps
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
# $SHOTSMITH_REALAPPS_SPECS / $SHOTSMITH_REALAPPS_SEEDS point the harness at specs and seed
# scripts kept outside the repository (a held-out corpus must not live beside the training one).
SPECS = Path(os.environ.get("SHOTSMITH_REALAPPS_SPECS", HERE / "apps"))
SEEDS = Path(os.environ.get("SHOTSMITH_REALAPPS_SEEDS", HERE / "seed"))
PORTS = range(18100, 19000)  # room for several corpora built side by side, by several people


def cache_root() -> Path:
    return Path(
        os.environ.get("SHOTSMITH_REALAPPS_HOME", Path.home() / ".cache" / "shotsmith-realapps")
    )


class HarnessError(Exception):
    """A step of the harness failed; the message says which and where its log is."""


@dataclass
class App:
    name: str
    title: str
    kind: str
    port: int
    path: str
    ready_path: str
    install: dict[str, Any]
    seed_before: list[list[str]]
    seed_after: list[list[str]]
    command: list[str]
    env: dict[str, str]
    login: dict[str, str] = field(default_factory=dict)
    capture_args: list[str] = field(default_factory=list)
    start_timeout: float = 120.0

    @property
    def home(self) -> Path:
        return cache_root() / self.name

    @property
    def data(self) -> Path:
        return self.home / "data"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    @property
    def pidfile(self) -> Path:
        return self.home / "server.pid"

    @property
    def logfile(self) -> Path:
        return self.home / "server.log"

    def expand(self, text: str) -> str:
        python = self.home / "venv" / "bin" / "python"
        return text.format(
            home=self.home,
            data=self.data,
            port=self.port,
            repo=REPO,
            seed=SEEDS,
            python=python if python.exists() else sys.executable,
            harness_python=sys.executable,
            bin=self.home / "node_modules" / ".bin",
            venv=self.home / "venv" / "bin",
            url=self.url,
            origin=f"http://127.0.0.1:{self.port}",
            username=self.login.get("username", ""),
            password=self.login.get("password", ""),
        )


def load_app(name: str) -> App:
    path = SPECS / f"{name}.toml"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in SPECS.glob("*.toml")))
        raise HarnessError(f"no app called {name!r}; known apps: {known}")
    spec = tomllib.loads(path.read_text(encoding="utf-8"))
    port = int(spec["port"])
    if port not in PORTS:
        raise HarnessError(f"{path}: port {port} is outside {PORTS.start}-{PORTS.stop - 1}")
    seed = spec.get("seed", {})
    run = spec["run"]
    return App(
        name=name,
        title=spec["title"],
        kind=spec["kind"],
        port=port,
        path=spec.get("path", "/"),
        ready_path=spec.get("ready_path", spec.get("path", "/")),
        install=spec["install"],
        seed_before=seed.get("before", []),
        seed_after=seed.get("after", []),
        command=run["command"],
        env={k: str(v) for k, v in run.get("env", {}).items()},
        login=spec.get("login", {}),
        capture_args=spec.get("capture", {}).get("args", []),
        start_timeout=float(run.get("timeout", 120)),
    )


def all_apps() -> list[str]:
    return sorted(p.stem for p in SPECS.glob("*.toml"))


# --- processes -----------------------------------------------------------------------


def _env(app: App) -> dict[str, str]:
    env = dict(os.environ)
    # No telemetry, update checks or browser launches, whatever the app.
    env.update(
        DO_NOT_TRACK="1",
        NO_UPDATE_NOTIFIER="1",
        NPM_CONFIG_UPDATE_NOTIFIER="false",
        NPM_CONFIG_FUND="false",
        NPM_CONFIG_AUDIT="false",
        BROWSER="none",
        # Seed scripts live in the repository; their require()s resolve in the app's cache.
        NODE_PATH=str(app.home / "node_modules"),
    )
    env.update({k: app.expand(v) for k, v in app.env.items()})
    return env


def _run_step(app: App, argv: list[str], log: Path, what: str) -> float:
    argv = [app.expand(a) for a in argv]
    started = time.monotonic()
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(argv)}\n")
        out.flush()
        result = subprocess.run(
            argv, cwd=app.home, env=_env(app), stdout=out, stderr=subprocess.STDOUT
        )
    if result.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
        raise HarnessError(
            f"{app.name}: {what} failed (exit {result.returncode}): {' '.join(argv)}\n"
            + "\n".join(tail)
            + f"\nfull log: {log}"
        )
    return time.monotonic() - started


def install(app: App, *, force: bool = False) -> float:
    """Install the app into its cache folder unless the same spec is already installed."""
    app.home.mkdir(parents=True, exist_ok=True)
    wanted = hashlib.sha256(json.dumps(app.install, sort_keys=True).encode()).hexdigest()
    marker = app.home / ".installed"
    if not force and marker.exists() and marker.read_text().strip() == wanted:
        return 0.0
    log = app.home / "install.log"
    log.write_text("", encoding="utf-8")
    took = 0.0
    if "debian" in app.install:  # an app packaged by Debian: only checked, never installed here
        missing = [
            name
            for name in app.install["debian"]
            if subprocess.run(["dpkg", "-s", name], capture_output=True).returncode != 0
        ]
        if missing:
            raise HarnessError(f"{app.name} needs: apt-get install -y {' '.join(missing)}")
    if "npm" in app.install:
        if not shutil.which("npm"):
            raise HarnessError(f"{app.name} needs Node.js and npm: apt-get install nodejs npm")
        package = {"private": True, "name": f"shotsmith-realapps-{app.name}"}
        package.update(app.install["npm"])
        (app.home / "package.json").write_text(json.dumps(package, indent=2) + "\n")
        took += _run_step(
            app, ["npm", "install", "--no-audit", "--no-fund", "--no-save"], log, "npm install"
        )
    if "pip" in app.install:
        venv = app.home / "venv"
        if not (venv / "bin" / "python").exists():
            base = getattr(sys, "_base_executable", sys.executable)
            took += _run_step(app, [base, "-m", "venv", str(venv)], log, "venv")
        took += _run_step(
            app,
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *app.install["pip"]],
            log,
            "pip install",
        )
    for step in app.install.get("after", []):
        took += _run_step(app, step, log, "install step")
    marker.write_text(wanted + "\n")
    return took


def _read_pid(app: App) -> int | None:
    try:
        pid = int(app.pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return response.status < 500
    except urllib.error.HTTPError as error:
        return error.code < 500
    except (OSError, ValueError):
        return False


def is_running(app: App) -> bool:
    return _read_pid(app) is not None


def _descendants(pid: int) -> list[int]:
    """All processes below ``pid`` (from /proc), deepest last."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    queue = [pid]
    while queue:
        for child in children.get(queue.pop(0), []):
            found.append(child)
            queue.append(child)
    return found


#: apps this process started and has not stopped: stopped when it exits (stop_on_exit)
_started: dict[str, App] = {}


def stop_on_exit(*, leave_running: bool = False) -> None:
    """Stop every app this process started when it exits: normally, on an exception, on
    Ctrl-C or on SIGTERM/SIGHUP (turned into SystemExit, so ``finally`` blocks run too).
    An app runs in its own session and process group, so nothing else would stop it.
    ``leave_running``: apps that came up stay up (``run.py start``); one interrupted while
    it comes up or is seeded is still stopped."""
    import atexit

    def on_signal(number: int, _frame: Any) -> None:
        signal.signal(number, signal.SIG_DFL)  # a second signal ends the process at once
        raise SystemExit(128 + number)

    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, on_signal)
    if not leave_running:
        atexit.register(stop_started)


def stop_started() -> None:
    """Stop the apps this process started and left running."""
    for app in list(_started.values()):
        try:
            stop(app)
        except Exception as error:  # the others still stop
            print(f"{app.name}: could not stop: {error}", file=sys.stderr)


def stop(app: App) -> bool:
    """Stop the app's whole process tree (group first, then any stray descendant)."""
    _started.pop(app.name, None)
    pid = _read_pid(app)
    if pid is None:
        app.pidfile.unlink(missing_ok=True)
        return False
    tree = [pid, *_descendants(pid)]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            pass
        for other in tree:
            try:
                os.kill(other, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            alive = [p for p in tree if Path(f"/proc/{p}").exists() and not _zombie(p)]
            if not alive:
                break
            time.sleep(0.2)
        else:
            continue
        break
    app.pidfile.unlink(missing_ok=True)
    return True


def _zombie(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def start(app: App, *, keep_data: bool = False) -> dict[str, float]:
    """Install if needed, reseed from scratch (unless keep_data), start, wait until it answers."""
    if is_running(app):
        return {}
    for port_user in all_apps():
        other = load_app(port_user)
        if other.name != app.name and other.port == app.port and is_running(other):
            raise HarnessError(f"port {app.port} is used by {other.name}: stop it first")
    if _answers(f"http://127.0.0.1:{app.port}/"):
        raise HarnessError(
            f"something not started by this harness already answers on 127.0.0.1:{app.port}"
        )
    timings = {"install_s": install(app)}
    log = app.home / "seed.log"
    fresh = not keep_data or not app.data.exists()
    if fresh:
        shutil.rmtree(app.data, ignore_errors=True)
        app.data.mkdir(parents=True)
        log.write_text("", encoding="utf-8")
        timings["seed_s"] = sum(_run_step(app, s, log, "seed") for s in app.seed_before)
    argv = [app.expand(a) for a in app.command]
    started = time.monotonic()
    with app.logfile.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(
            argv,
            cwd=app.home,
            env=_env(app),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    app.pidfile.write_text(f"{process.pid}\n")
    _started[app.name] = app
    try:  # interrupted while it comes up or is seeded (Ctrl-C, SIGTERM): stop it
        ready = f"http://127.0.0.1:{app.port}{app.ready_path}"
        deadline = started + app.start_timeout
        while not _answers(ready):
            if process.poll() is not None:
                app.pidfile.unlink(missing_ok=True)
                _started.pop(app.name, None)
                tail = app.logfile.read_text(errors="replace").splitlines()[-20:]
                raise HarnessError(
                    f"{app.name} exited with {process.returncode} before answering:\n"
                    + "\n".join(tail)
                )
            if time.monotonic() > deadline:
                raise HarnessError(
                    f"{app.name} did not answer {ready} within {app.start_timeout:.0f} s; "
                    f"see {app.logfile}"
                )
            time.sleep(0.3)
        timings["start_s"] = time.monotonic() - started
        if fresh and app.seed_after:
            timings["seed_s"] = timings.get("seed_s", 0.0) + sum(
                _run_step(app, s, log, "seed") for s in app.seed_after
            )
    except BaseException:
        stop(app)
        raise
    return timings


def capture(app: App, out: Path, *, extra: list[str]) -> dict[str, Any]:
    """Capture the running app with the repository's current shotsmith (start it if needed)."""
    shotsmith = REPO / ".venv" / "bin" / "shotsmith"
    if not shotsmith.exists():
        raise HarnessError(f"{shotsmith} is missing: run `make setup` in {REPO} first")
    started_here = False
    timings: dict[str, Any] = {}
    if not is_running(app):
        timings.update(start(app))
        started_here = True
    target = out / app.name
    shutil.rmtree(target, ignore_errors=True)
    argv = [
        str(shotsmith),
        "capture",
        app.url,
        "--out",
        str(target),
        "--size",
        "6.9",
        "--max-screens",
        "8",
        "--project-name",
        app.title,
        *[app.expand(a) for a in app.capture_args],
        *extra,
    ]
    begun = time.monotonic()
    try:
        result = subprocess.run(argv, capture_output=True, text=True)
    finally:
        if started_here:
            stop(app)
    timings["capture_s"] = time.monotonic() - begun
    target.mkdir(parents=True, exist_ok=True)
    (target / "capture.log").write_text(
        f"$ {' '.join(argv)}\nexit {result.returncode}\n--- stdout\n{result.stdout}"
        f"\n--- stderr\n{result.stderr}",
        encoding="utf-8",
    )
    timings["exit"] = result.returncode
    timings["screens"] = len(list(target.glob("*.png")))
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the apps, their URLs and whether they run")
    for name, text in (
        ("install", "install an app into its cache folder"),
        ("start", "install, seed and start an app; returns once it answers"),
        ("stop", "stop an app and every process it started"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("apps", nargs="+", metavar="app")
        if name == "start":
            p.add_argument("--keep-data", action="store_true", help="do not reseed")
        if name == "install":
            p.add_argument("--force", action="store_true")
    p = sub.add_parser(
        "capture",
        help="capture an app with .venv/bin/shotsmith (options it does not know go to capture)",
    )
    p.add_argument("apps", nargs="+", metavar="app")
    p.add_argument("--out", type=Path, default=Path("/tmp/shotsmith-realapps"))
    p = sub.add_parser("capture-all", help="capture every app in turn")
    p.add_argument("--out", type=Path, default=Path("/tmp/shotsmith-realapps"))
    args, extra = parser.parse_known_args(argv)
    stop_on_exit(leave_running=args.command == "start")
    if extra and args.command not in ("capture", "capture-all"):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "list":
            for name in all_apps():
                app = load_app(name)
                state = "running" if is_running(app) else "stopped"
                login = ""
                if app.login:
                    login = f"  login {app.login['username']}:{app.login['password']}"
                print(f"{name:12} {state:8} {app.url:32} {app.kind}{login}")
            return 0
        if args.command == "install":
            for name in args.apps:
                took = install(load_app(name), force=args.force)
                print(f"{name}: installed ({took:.0f} s)" if took else f"{name}: up to date")
            return 0
        if args.command == "start":
            for name in args.apps:
                app = load_app(name)
                timings = start(app, keep_data=args.keep_data)
                said = ", ".join(f"{k} {v:.1f}" for k, v in timings.items()) or "already running"
                print(f"{name}: {app.url}  ({said})")
            return 0
        if args.command == "stop":
            for name in args.apps:
                print(f"{name}: {'stopped' if stop(load_app(name)) else 'was not running'}")
            return 0
        names = all_apps() if args.command == "capture-all" else args.apps
        extra = [a for a in extra if a != "--"]
        failed = 0
        for name in names:
            app = load_app(name)
            try:
                timings = capture(app, args.out, extra=extra)
            except HarnessError as error:
                print(f"{name}: {error}", file=sys.stderr)
                failed += 1
                continue
            failed += timings["exit"] != 0
            said = ", ".join(
                f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in timings.items()
            )
            print(f"{name}: {args.out / name}  ({said})")
        return 1 if failed else 0
    except HarnessError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

"""Every command in the README runs as written, on a fresh copy of the repository.

The commands are read at test time from the fenced ``bash``/``sh``/``python`` blocks of
README.md and docs/notebooks.md, and from the ``bash`` blocks in the notebooks' own text, so
editing a command into something broken fails here. Each ``##`` section runs in its own
fresh copy of the repository's files (what ``git ls-files`` lists: tracked files and new
ones not ignored, as a clone of this working tree would have them), from the copy's root,
with the project's ``.venv`` (linked into the copy) active: ``.venv/bin`` first on PATH, as
the README's ``. .venv/bin/activate`` does. Blocks run in the order they are written; a
block's shell lines run in one ``bash -e`` (so ``KEY=$(...)`` then ``$KEY`` works), a
``python`` block is saved as ``run.py`` in the copy's root and run as ``python run.py``.

What the test changes, and why, and nothing else:

- the example ports 8000, 8787 and 8786 become free ports (the same one everywhere in the
  section), so two runs on one machine cannot collide; the placeholder host in
  ``tcp://scheduler:8786`` / ``tcp://HOST:8786`` becomes 127.0.0.1, and when a section names
  a scheduler without starting one the test starts a real ``LocalCluster`` there;
- ``shotsmith serve`` without ``--port`` listens on its default, 8787: it gets the free port
  that replaces 8787;
- a line that starts a server and keeps it in the foreground (``shotsmith serve``,
  ``jupyter lab``) runs in the background until its port answers, as if in a second
  terminal, and is stopped when another takes its port or the section ends; JupyterLab
  gets a throw-away config (no browser to open, root allowed in CI containers, its port);
- the commands in ``NOT_RUN`` are not run, for the reason given there.

The code itself is the working tree's: the linked ``.venv`` has shotsmith installed
editable from it. What this test checks is the commands and the files they name.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from .conftest import ROOT
from .notebooks.lab import fresh_copy  # the repository as a clone of it has it

pytestmark = pytest.mark.slow

DOCUMENTS = ("README.md", "docs/notebooks.md")
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXAMPLE_PORTS = ("8000", "8786", "8787")
PLACEHOLDER_HOSTS = ("scheduler", "HOST")

#: Commands (as written, comment dropped) that are not run, and why.
NOT_RUN = {
    "make test": "it runs this very test suite (CI runs it: .ci/run)",
    ".venv/bin/python -m pytest tests/test_notebooks.py tests/batch/test_batch.py": (
        "it runs tests of this suite"
    ),
    ".venv/bin/python -m pytest tests/test_readme.py": "it runs this very test",
    ".venv/bin/python benchmarks/batch.py": "a benchmark of several minutes (run it by hand)",
    "shotsmith capture http://127.0.0.1:5000/ --out captured --login maya:secret": (
        "it signs in to your own app on port 5000; the bundled sample apps have no sign-in"
    ),
    "SHOTSMITH_LOGIN_PASSWORD=secret shotsmith capture http://127.0.0.1:5000/ --out captured "
    "--login maya": "it signs in to your own app on port 5000 (see above)",
    "shotsmith capture http://127.0.0.1:5000/ --out captured --storage-state state.json": (
        "it needs a storage state saved after signing in to your own app"
    ),
}

#: Lines that start a server in the foreground: run in the background until the port answers.
SERVERS = re.compile(
    r"""^(?:\w+=(?:"[^"]*"|'[^']*'|\S+)\s+)*(?:\S*/)?(?:shotsmith serve|jupyter lab)\b"""
)
SLOW_SECTIONS = {
    "README.md: Set-up: two commands",
    "README.md: Capture: screenshots from a running web app",
    "README.md: Notebooks, batches and clusters",
    "docs/notebooks.md: Batches",
    "docs/notebooks.md: Tests and benchmark",
    "notebooks: their own commands",
}


# --- reading the commands ------------------------------------------------------------------


@dataclass
class Block:
    lang: str  # "bash" or "python"
    text: str
    where: str  # "README.md:123"


@dataclass
class Section:
    name: str
    blocks: list[Block] = field(default_factory=list)


FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
SHELLS = {"bash": "bash", "sh": "bash", "shell": "bash", "console": "bash", "python": "python"}


def document_sections(name: str) -> list[Section]:
    text = (ROOT / name).read_text(encoding="utf-8")
    sections: list[Section] = []
    current = Section(f"{name}: (top)")
    heading = re.compile(r"^## (.+)$", re.M)
    cuts = [(m.start(), m.group(1).strip()) for m in heading.finditer(text)]
    bounds = [(0, "(top)"), *cuts, (len(text), "")]
    for (start, title), (end, _) in zip(bounds, bounds[1:]):
        current = Section(f"{name}: {title}")
        part = text[start:end]
        for m in FENCE.finditer(part):
            lang = SHELLS.get(m.group(1).lower())
            if lang:
                line = text.count("\n", 0, start + m.start()) + 1
                current.blocks.append(Block(lang, m.group(2), f"{name}:{line}"))
        if current.blocks:
            sections.append(current)
    return sections


def notebook_section() -> Section:
    section = Section("notebooks: their own commands")
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "markdown":
                continue
            for m in FENCE.finditer(cell.source + "\n"):
                if SHELLS.get(m.group(1).lower()) == "bash":
                    section.blocks.append(Block("bash", m.group(2), f"{path.name} cell {i}"))
    return section


def all_sections() -> list[Section]:
    sections = [s for name in DOCUMENTS for s in document_sections(name)]
    return [*sections, notebook_section()]


def commands(text: str) -> list[str]:
    """A block's commands: continuation lines joined, blank and comment-only lines dropped."""
    out, buffer = [], ""
    for line in text.splitlines():
        buffer += line
        if line.endswith("\\"):
            buffer = buffer[:-1] + " "
            continue
        if buffer.strip() and not buffer.strip().startswith("#"):
            out.append(buffer)
        buffer = ""
    return out


def without_comment(command: str) -> str:
    """The command without a trailing ``# comment`` (outside quotes), whitespace squeezed."""
    quote, kept = None, []
    for i, ch in enumerate(command):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or command[i - 1].isspace()):
            break
        kept.append(ch)
    return " ".join("".join(kept).split())


# --- running them --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Session:
    """One section's run: its copy, environment, background servers and a log."""

    def __init__(self, root: Path, scratch: Path):
        self.root = root
        self.ports = {p: str(free_port()) for p in EXAMPLE_PORTS}
        self.jupyter_port = free_port()
        self.servers: dict[int, subprocess.Popen] = {}
        self.log: list[str] = []
        config = scratch / "jupyter-config"
        config.mkdir()
        (config / "jupyter_server_config.json").write_text(
            json.dumps({"ServerApp": {"open_browser": False, "allow_root": True}})
        )
        bin_dir = str(root / ".venv" / "bin")
        self.env = {
            **os.environ,
            "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
            "VIRTUAL_ENV": str(root / ".venv"),
            "JUPYTER_CONFIG_DIR": str(config),
            "JUPYTER_RUNTIME_DIR": str(scratch / "jupyter-runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(scratch / "jupyterlab-settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(scratch / "jupyterlab-workspaces"),
            "JUPYTER_PREFER_ENV_PATH": "1",
            "JUPYTER_PORT": str(self.jupyter_port),
            "PYTHONUNBUFFERED": "1",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        }
        self.env.pop("SHOTSMITH_LAYOUTS", None)
        self.env.pop("SHOTSMITH_API_KEYS", None)
        self.scratch = scratch

    def localise(self, text: str) -> str:
        for host in PLACEHOLDER_HOSTS:
            text = text.replace(f"tcp://{host}:", "tcp://127.0.0.1:")
        for example, port in self.ports.items():
            text = re.sub(rf"(?<![\w.]){example}(?!\d)", port, text)
        return text

    def run_bash(self, script: str, where: str, timeout: float) -> None:
        prelude = "set -eo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\nset -x\n"
        self._run(["bash", "-c", prelude + script], where, timeout)

    def run_python(self, code: str, where: str, timeout: float) -> None:
        """The block saved as a script and run as one (``python run.py``), the way a user
        does: worker processes then import it again, as they would the user's file."""
        script = self.root / "run.py"
        script.write_text(code, encoding="utf-8")
        self._run([str(self.root / ".venv" / "bin" / "python"), script.name], where, timeout)

    def _run(self, argv: list[str], where: str, timeout: float) -> None:
        start = time.perf_counter()
        try:
            done = subprocess.run(
                argv,
                cwd=self.root,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as exc:
            pytest.fail(f"{where}: still running after {timeout:g} s:\n{_tail(exc.stderr)}")
        self.log.append(f"{where}: {time.perf_counter() - start:.1f} s")
        if done.returncode != 0:
            pytest.fail(
                f"{where}: exited {done.returncode}\n--- stdout\n{_tail(done.stdout)}\n"
                f"--- stderr (the failing command is the last '+' line)\n{_tail(done.stderr)}"
            )

    def start_server(self, command: str, where: str) -> None:
        """A foreground server, run in the background (a second terminal) until it answers."""
        if "shotsmith serve" in command and not re.search(r"--port[ =]\d+", command):
            command += f" --port {self.ports['8787']}"  # its default port, made a free one
        port = self.jupyter_port if "jupyter lab" in command else _port_of(command)
        self.stop(port)
        log = open(self.scratch / f"server-{port}.log", "wb")
        proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=self.root,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        self.servers[port] = proc
        deadline = time.monotonic() + 90
        while not port_open(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                text = (self.scratch / f"server-{port}.log").read_text(errors="replace")
                pytest.fail(f"{where}: `{command}` did not start on port {port}:\n{_tail(text)}")
            time.sleep(0.2)
        self.log.append(f"{where}: started `{command}` (port {port})")

    def stop(self, port: int | None = None) -> None:
        for p in [port] if port is not None else list(self.servers):
            proc = self.servers.pop(p, None)
            if proc is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)  # its own session: the server and children
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)


def _port_of(command: str) -> int:
    m = re.search(r"--port[ =](\d+)", command)
    if not m:
        pytest.fail(f"`{command}` starts a server without --port: give it one in the docs.")
    return int(m.group(1))


def _tail(text: str | bytes | None, lines: int = 40) -> str:
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return "\n".join((text or "").splitlines()[-lines:])


def venv_is_set_up() -> None:
    """`make demo` runs `make setup`, which reinstalls shotsmith when pyproject.toml changed;
    in the copy that would point the shared .venv at a temporary folder. Refuse instead."""
    stamp = ROOT / ".venv" / ".shotsmith-installed"
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not stamp.is_file() or stamp.read_text().strip() != want:
        pytest.fail("the .venv was set up for another pyproject.toml: run `make setup` first.")


# --- the tests -----------------------------------------------------------------------------

SECTIONS = all_sections()


def test_the_commands_are_found_and_not_run_ones_still_exist():
    found = [without_comment(c) for s in SECTIONS for b in s.blocks for c in commands(b.text)]
    assert len(found) >= 20, found
    for command in ("shotsmith batch sample_inputs/apps.csv --out out/batch --workers 2",):
        assert command in found
    stale = [c for c in NOT_RUN if c not in found]
    assert not stale, f"NOT_RUN lists commands the docs no longer have: {stale}"
    names = [s.name for s in SECTIONS]
    assert not [n for n in SLOW_SECTIONS if n not in names], "SLOW_SECTIONS is out of date"


@pytest.mark.parametrize(
    "section",
    [
        pytest.param(s, id=s.name, marks=[pytest.mark.slow] if s.name in SLOW_SECTIONS else [])
        for s in SECTIONS
    ],
)
def test_the_commands_run_as_written(section: Section, tmp_path: Path):
    root = fresh_copy(tmp_path / "repo")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    session = Session(root, scratch)
    cluster = None
    text = "\n".join(b.text for b in section.blocks)
    try:
        if "make demo" in text:
            venv_is_set_up()
        if re.search(r"tcp://\S+:8786", text) and "dask scheduler" not in text:
            from distributed import LocalCluster

            cluster = LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=True,
                scheduler_port=int(session.ports["8786"]),
                dashboard_address=None,
            )
        for block in section.blocks:
            code = session.localise(block.text)
            if block.lang == "python":
                session.run_python(code, block.where, timeout=600)
                continue
            pending: list[str] = []
            for command in commands(code):
                plain = without_comment(command)
                if without_comment(_unlocalise(command, session)) in NOT_RUN:
                    continue
                if SERVERS.match(plain):
                    if pending:
                        session.run_bash("\n".join(pending), block.where, timeout=900)
                        pending = []
                    session.start_server(plain, block.where)
                else:
                    pending.append(command)
            if pending:
                session.run_bash("\n".join(pending), block.where, timeout=900)
    finally:
        session.stop()
        if cluster is not None:
            cluster.close()
    print("\n".join(session.log))


def _unlocalise(command: str, session: Session) -> str:
    for example, port in session.ports.items():
        command = re.sub(rf"(?<![\w.]){port}(?!\d)", example, command)
    return command

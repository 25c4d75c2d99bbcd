"""JupyterLab in a real Chromium, for the browser tests and for looking at the notebooks.

``JupyterLab(root)`` starts ``jupyter lab`` from this environment on 127.0.0.1 (a free port,
a token of its own, a throw-away config, settings and workspace folder, no news or update
checks, nothing opened in another browser) serving ``root``; ``chromium()`` launches Debian's
Chromium through Playwright; ``run_all(page, "notebooks/02_tune_layout.ipynb")`` opens a
notebook and runs all its cells the way a user does (Run > Run All Cells) and waits until
the kernel is idle; ``layout_report(page)`` measures what a reader would notice: images shown
larger than their pixels, output wider than its area.

Run against a copy of the repository (``fresh_copy``): JupyterLab autosaves what it runs.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from shotsmith.stages.capture import CHROMIUM_ARGS  # the switches capture launches with

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1400, "height": 1000}


def fresh_copy(target: Path, *, link_venv: bool = True) -> Path:
    """The repository's files (tracked, and new ones not ignored: what a clone of this
    working tree has) copied to ``target``; the project's ``.venv`` linked in."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        rel = raw.decode()
        source = ROOT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    if link_venv:
        (target / ".venv").symlink_to(ROOT / ".venv")
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class JupyterLab:
    """``jupyter lab`` serving ``root`` on 127.0.0.1; a context manager."""

    def __init__(self, root: Path, scratch: Path, env: dict[str, str] | None = None):
        self.root = Path(root)
        self.scratch = Path(scratch)
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.extra_env = env or {}
        self.process: subprocess.Popen | None = None
        self.log_path = self.scratch / "jupyterlab.log"

    def url(self, path: str = "", workspace: str | None = None) -> str:
        """The page that opens ``path``; in a workspace of its own (no tabs left from
        another notebook) when ``workspace`` is given."""
        lab = f"lab/workspaces/{workspace}" if workspace else "lab"
        return f"http://127.0.0.1:{self.port}/{lab}/tree/{path}?reset&token={self.token}"

    def start(self) -> JupyterLab:
        import httpx

        config = self.scratch / "config"
        settings = self.scratch / "settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True, exist_ok=True)
        config.mkdir(parents=True, exist_ok=True)
        (config / "jupyter_server_config.json").write_text(
            json.dumps({"ServerApp": {"open_browser": False, "allow_root": True}})
        )
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False})
        )
        notebook_settings = self.scratch / "settings" / "@jupyterlab" / "notebook-extension"
        notebook_settings.mkdir(parents=True, exist_ok=True)
        (notebook_settings / "tracker.jupyterlab-settings").write_text(
            json.dumps({"windowingMode": "none"})  # every cell in the page, to measure them
        )
        bin_dir = Path(sys.executable).parent
        env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "JUPYTER_CONFIG_DIR": str(config),
            "JUPYTER_RUNTIME_DIR": str(self.scratch / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(self.scratch / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(self.scratch / "workspaces"),
            "JUPYTER_PREFER_ENV_PATH": "1",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            **self.extra_env,
        }
        cmd = [
            str(bin_dir / "jupyter"),
            "lab",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]
        log = open(self.log_path, "wb")
        try:
            self.process = subprocess.Popen(
                cmd,
                cwd=self.root,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            log.close()
        deadline = time.monotonic() + 90
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"JupyterLab did not start:\n{self.log_tail()}")
            try:
                answer = httpx.get(
                    f"http://127.0.0.1:{self.port}/api/status",
                    headers={"Authorization": f"token {self.token}"},
                    timeout=2,
                )
                if answer.status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.25)

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGINT)  # its own session: the server and its kernels
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)

    def __enter__(self) -> JupyterLab:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def chromium(playwright: Any):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def wait_idle(page: Any, timeout_ms: float = 300_000) -> None:
    """Until every code cell has run (``[n]:``), or one failed and the rest were skipped,
    and the kernel is idle."""
    page.wait_for_function(
        r"""() => {
            const prompts = [...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')]
                .map(p => p.textContent.trim());
            if (!prompts.length || prompts.some(p => p.includes('*'))) return false;
            const failed = document.querySelector(
                '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
            const ran = prompts.every(p => /\[\d+\]/.test(p));
            const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
            return (ran || failed) && ind && ind.getAttribute('data-status') === 'idle';
        }""",
        timeout=timeout_ms,
        polling=250,
    )


def run_all(page: Any, lab: JupyterLab, notebook: str, timeout_ms: float = 300_000) -> float:
    """Open ``notebook`` (relative to the served root), Run > Run All Cells, wait until
    done; the seconds it took to run."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.goto(lab.url(notebook, workspace=Path(notebook).stem.replace("_", "-")))
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", state="attached", timeout=90_000)
    # the notebooks are committed without a kernelspec: JupyterLab asks which kernel to
    # start, as it asks a user opening them; take the one it proposes (this environment's)
    dialog = page.locator(".jp-Dialog").filter(has_text="Select Kernel")
    try:
        dialog.wait_for(timeout=5_000)
        dialog.locator(".jp-mod-accept").click()
    except PlaywrightTimeout:
        pass
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=90_000)
    start = time.perf_counter()
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    page.wait_for_timeout(1000)
    wait_idle(page, timeout_ms)
    return time.perf_counter() - start


def errors_shown(page: Any) -> list[str]:
    """The text of every error output (a traceback) in the open notebook."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
                '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
            .map(e => e.innerText).filter(t => /Error|Traceback/.test(t))"""
    )


def layout_report(page: Any) -> dict[str, list]:
    """What a reader would notice, over every output of the open notebook:

    ``upscaled``: images drawn larger than their pixels (more than 2% wider);
    ``cut``: outputs whose content is wider than the output area (scrolled or clipped);
    ``squeezed``: thumbnails in tables drawn narrower than their width attribute."""
    return page.evaluate(
        """() => {
            const out = {upscaled: [], cut: [], squeezed: []};
            const cells = [...document.querySelectorAll('.jp-Cell')];
            cells.forEach((cell, i) => {
                cell.querySelectorAll('.jp-OutputArea-output img').forEach(img => {
                    const r = img.getBoundingClientRect();
                    if (img.naturalWidth && r.width > img.naturalWidth * 1.02)
                        out.upscaled.push([i, img.naturalWidth, img.naturalHeight,
                                           Math.round(r.width), Math.round(r.height)]);
                    const want = parseInt(img.getAttribute('width') || '0');
                    if (want && r.width && r.width < want * 0.98)
                        out.squeezed.push([i, want, Math.round(r.width)]);
                });
                cell.querySelectorAll('.jp-OutputArea-output').forEach(o => {
                    const inner = [...o.querySelectorAll('*')];
                    const right = o.getBoundingClientRect().right;
                    const over = inner.some(e => {
                        const r = e.getBoundingClientRect();
                        return r.width > 0 && r.right > right + 2
                            && !e.closest('.shotsmith-frame');
                    });
                    const frame = o.querySelector('.shotsmith-frame');
                    const framed = frame && frame.scrollWidth > frame.clientWidth + 2;
                    if (over || framed || o.scrollWidth > o.clientWidth + 2)
                        out.cut.push([i, o.scrollWidth, o.clientWidth]);
                });
            });
            return out;
        }"""
    )


def screenshots(page: Any, prefix: Path, step: int = 850) -> list[Path]:
    """The open notebook, top to bottom, one viewport a picture."""
    paths = []
    scroller = ".jp-NotebookPanel .jp-WindowedPanel-outer"
    page.evaluate(f"() => document.querySelector('{scroller}').scrollTo(0, 0)")
    height = page.evaluate(f"() => document.querySelector('{scroller}').scrollHeight")
    for i, y in enumerate(range(0, max(1, height), step)):
        page.evaluate(f"() => document.querySelector('{scroller}').scrollTo(0, {y})")
        page.wait_for_timeout(400)
        path = prefix.with_name(f"{prefix.name}-{i:02d}.png")
        page.screenshot(path=str(path))
        paths.append(path)
    return paths

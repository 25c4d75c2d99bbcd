from __future__ import annotations

import ast
import http.server
import io
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_inputs"
INTER_BOLD = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"


def sample_apps() -> list[Path]:
    return sorted(p for p in SAMPLES.iterdir() if (p / "manifest.json").exists())


def fake_screen(
    title: str = "Budgets", accent=(20, 150, 120), dark: bool = False, size=(1206, 2622)
) -> Image.Image:
    """A plain but plausible app screen: title, accent bar, list cards."""
    from PIL import ImageFont

    bg = (12, 12, 16) if dark else (245, 246, 248)
    card = (30, 30, 36) if dark else (255, 255, 255)
    im = Image.new("RGB", size, bg)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(INTER_BOLD, 96)
    d.text((60, 230), title, font=font, fill=(240, 240, 240) if dark else (20, 20, 24))
    d.rounded_rectangle((60, 400, 1146, 700), radius=40, fill=accent)
    for i in range(8):
        y = 760 + i * 200
        d.rounded_rectangle((60, y, 1146, y + 170), radius=30, fill=card)
    return im


def png_bytes(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def screens_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "shots"
    folder.mkdir()
    for i, name in enumerate(["overview", "budgets", "transactions", "reports"], start=1):
        fake_screen(name.title()).save(folder / f"{i:02d}_{name}.png")
    return folder


# --- markers and CI strictness ------------------------------------------------------------------
# Every test file sets the markers of what it needs in a ``pytestmark = ...`` line at its top
# (registered in pyproject.toml, which runs pytest with --strict-markers), so `make test-fast`
# can leave out the slow parts:
#   browser      drives a real Chromium (capture, the JupyterLab check)
#   live_server  starts a real uvicorn process (or an HTTP receiver) on 127.0.0.1
#   notebook     executes notebooks in a real kernel
#   slow         builds a wheel, installs venvs, runs the README's commands, Dask clusters
# A file without one runs in the fast loop. Tests may add markers of their own.
TESTS = Path(__file__).resolve().parent


def file_markers(path: Path) -> set[str]:
    """The names of the markers a test file's ``pytestmark`` sets, read from its source
    (``pytest.mark.NAME`` and ``pytest.mark.NAME(...)``) without importing it."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return set()
    names: set[str] = set()
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        ):
            continue
        for part in ast.walk(node.value):
            if (
                isinstance(part, ast.Attribute)
                and isinstance(part.value, ast.Attribute)
                and part.value.attr == "mark"
            ):
                names.add(part.attr)
    return names


def _marker_expression(expression: str) -> ast.expr | None:
    """A ``-m`` expression made only of marker names, ``and``, ``or``, ``not`` and
    parentheses, parsed; None for anything else (then files are collected as usual)."""
    try:
        tree = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return None
    allowed = (ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Name, ast.Load)
    return tree if all(isinstance(n, allowed) for n in ast.walk(tree)) else None


def _matches(tree: ast.expr, has: Callable[[str], bool]) -> bool:
    if isinstance(tree, ast.Name):
        return has(tree.id)
    if isinstance(tree, ast.UnaryOp):
        return not _matches(tree.operand, has)
    assert isinstance(tree, ast.BoolOp)
    results = (_matches(value, has) for value in tree.values)
    return all(results) if isinstance(tree.op, ast.And) else any(results)


def pytest_ignore_collect(collection_path, config):
    """A file whose every test the -m expression deselects is not even imported (the quick
    loop need not load Playwright, nbformat or schemathesis to deselect their tests)."""
    expression = config.getoption("markexpr", "")
    if not expression or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    markers = file_markers(Path(collection_path))
    tree = _marker_expression(expression) if markers else None
    if tree is None:
        return None
    # deselected whatever other markers its tests carry
    for others in (False, True):
        if _matches(tree, lambda name, others=others: name in markers or others):
            return None
    return True


def pytest_collection_modifyitems(config, items):
    """Notebooks collected as tests themselves (tests/notebooks/) execute in a kernel."""
    for item in items:
        path = Path(str(item.path)).resolve()
        if path.suffix == ".ipynb" and path.is_relative_to(TESTS / "notebooks"):
            item.add_marker("notebook")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


CI_SKIP_MESSAGE = (
    "skipped under CI=true: {reason}\nCI must exercise every required part (Chromium, "
    "Tesseract, fonts, Dask, curl): `make setup` installs them; fix the set-up, not the test."
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI=true a skipped test fails: a broken set-up must not pass green."""
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = CI_SKIP_MESSAGE.format(reason=reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """The same for a whole module skipped at import (``pytest.importorskip``)."""
    outcome = yield
    report = outcome.get_result()
    if in_ci() and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = CI_SKIP_MESSAGE.format(reason=reason)


def serve_quietly(
    handler: type[http.server.BaseHTTPRequestHandler],
) -> tuple[http.server.ThreadingHTTPServer, str]:
    """A threaded HTTP server on 127.0.0.1 (a free port) serving in a daemon thread, quiet
    when a browser hangs up mid-answer; returns it and its URL."""

    class Quiet(http.server.ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):  # the browser hung up: fine
            pass

    httpd = Quiet(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"

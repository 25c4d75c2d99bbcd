"""The notebooks, run headless, and the library's notebook helpers (displays, layout tuner).

Every notebook in notebooks/ is executed by papermill from the notebooks/ folder, in a
fresh kernel of this very interpreter (the ``python3`` kernel spec runs
``sys.executable``, so no ``ipykernel install`` step is needed), with small parameters;
the tests assert on what each one wrote. The quickstart is also regression-checked with
pytest-notebook against a golden copy in tests/notebooks/.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import socket
import sys
import tomllib
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.notebook import LayoutTuner, scale_scene

from .conftest import ROOT, SAMPLES

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

NOTEBOOKS = ROOT / "notebooks"
GOLDEN = ROOT / "tests" / "notebooks" / "01_quickstart.ipynb"
EXPECTED = ["01_quickstart.ipynb", "02_tune_layout.ipynb", "03_batch.ipynb", "04_api.ipynb"]
POCKET = SAMPLES / "pocket-budget"


@pytest.fixture(autouse=True, scope="module")
def _env_kernel_first():
    """Prefer this environment's kernel spec over any user-level ``python3`` one."""
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PREFER_ENV_PATH", "1")
    mp.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    yield
    mp.undo()


def run_notebook(name: str, out: Path, **parameters) -> nbformat.NotebookNode:
    import papermill as pm

    out.mkdir(parents=True, exist_ok=True)
    pm.execute_notebook(
        str(NOTEBOOKS / name),
        str(out / name),
        parameters=parameters,
        kernel_name="python3",
        cwd=str(NOTEBOOKS),
        progress_bar=False,
        log_output=False,
        execution_timeout=300,
    )
    return nbformat.read(out / name, as_version=4)


def outputs(nb: nbformat.NotebookNode, mime: str) -> list[str]:
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if mime == "stream" and out.get("output_type") == "stream":
                found.append(out["text"])
            elif mime in out.get("data", {}):
                found.append(out["data"][mime])
    return found


def png_size(path: Path) -> tuple[tuple[int, int], str]:
    with Image.open(path) as im:
        return im.size, im.mode


# --- notebooks as committed ----------------------------------------------------------------


def parameters_index(nb: nbformat.NotebookNode) -> int:
    return next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))


def test_notebooks_are_committed_clean_title_first_then_parameters():
    names = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert names == EXPECTED
    public = set(ss.__all__)
    for name in names:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(nb)
        assert nb.metadata["kernelspec"]["name"] == "python3", name
        assert "widgets" not in nb.metadata, name
        # the title and what the notebook does come first, then the parameters
        title = nb.cells[0]
        assert title.cell_type == "markdown" and title.source.startswith("# "), name
        assert len(title.source.split("\n\n")[1]) > 150, f"{name}: say what it does"
        code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        assert code and parameters_index(nb) == code[0] == 1, name
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            assert cell.get("outputs") == [], f"{name} cell {i} has outputs"
            assert cell.get("execution_count") is None, f"{name} cell {i} has an execution count"
            assert "execution" not in cell.metadata, f"{name} cell {i} has execution metadata"
            if i != 1:  # paths are parameters: none hard-coded in the code cells
                assert "../" not in cell.source, f"{name} cell {i} names a path: {cell.source}"
            # only the public API: `import shotsmith as ss`, ss.<exported name>, the client
            for line in cell.source.splitlines():
                if re.match(r"\s*(from|import)\s+shotsmith", line):
                    assert line.strip() in (
                        "import shotsmith as ss",
                        "from shotsmith.client import Client",
                    ), (name, line)
            for used in re.findall(r"\bss\.([A-Za-z_]\w*)", cell.source):
                assert used in public, f"{name}: ss.{used} is not in shotsmith.__all__"


def test_notebook_outputs_are_ignored_by_git():
    import subprocess

    for path in ("notebooks/out/x.ipynb", "out/batch/summary.csv"):
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
        assert ignored.returncode == 0, f"{path} is not ignored by git"


def test_golden_quickstart_has_the_quickstart_cells():
    """The golden copy is the quickstart itself, only with small parameters."""
    nb = nbformat.read(NOTEBOOKS / "01_quickstart.ipynb", as_version=4)
    golden = nbformat.read(GOLDEN, as_version=4)
    assert [c.cell_type for c in golden.cells] == [c.cell_type for c in nb.cells], (
        "re-run tests/notebooks/regen_golden.py"
    )
    skip = parameters_index(nb)
    for i, (a, b) in enumerate(zip(nb.cells, golden.cells)):
        if i != skip:
            assert a.source == b.source, f"cell {i} differs: re-run tests/notebooks/regen_golden.py"


# --- notebooks executed ------------------------------------------------------------------------


def test_quickstart_runs_and_writes_the_set(tmp_path):
    out_dir = tmp_path / "quick"
    nb = run_notebook("01_quickstart.ipynb", tmp_path / "nb", out_dir=str(out_dir), ocr=False)
    pngs = sorted((out_dir / "pocket-budget").glob("*.png"))
    assert [p.name for p in pngs] == [
        "01_overview.png",
        "02_budgets.png",
        "03_transactions.png",
        "04_reports.png",
        "05_goals.png",
    ]
    assert {png_size(p) for p in pngs} == {((1320, 2868), "RGB")}
    assert (out_dir / "pocket-budget" / "design.json").exists()
    html = "\n".join(outputs(nb, "text/html"))
    assert html.count('<img src="data:image/jpeg;base64,') >= 15  # raw and rendered thumbnails
    assert "<b>Pipeline</b>" in html and "<b>PipelineRun</b>" in html
    text = "\n".join(outputs(nb, "stream"))
    assert "Pocket Budget: Finance" in text and "name token 'budget'" in text
    wrote = text[text.index("wrote") :].split()
    assert wrote[1:] == [str(out_dir / "pocket-budget" / f"design.{x}") for x in ("json", "csv")]
    assert len(outputs(nb, "image/png")) == 2  # the scene and the finished set
    plain = "\n".join(outputs(nb, "text/plain"))
    assert "1 set," in plain and "1 sets" not in plain
    bars = [t for t in outputs(nb, "text/plain") if "stage " in t and "%|" in t]
    assert bars and all("100%" in b and "stage 5/5" in b for b in bars), bars


def test_quickstart_matches_its_golden_copy(tmp_path):
    """pytest-notebook regression: same outputs as the committed golden run, ignoring
    pixels (image bytes), timings (cells tagged ``volatile``) and cell metadata."""
    from pytest_notebook.nb_regression import NBRegressionFixture

    golden = nbformat.read(GOLDEN, as_version=4)
    volatile = [i for i, c in enumerate(golden.cells) if "volatile" in c.metadata.get("tags", [])]
    assert volatile, "the timing cell should be tagged volatile"
    fixture = NBRegressionFixture(
        exec_timeout=300,
        exec_cwd=str(NOTEBOOKS),
        diff_ignore=(
            "/cells/*/outputs/*/traceback",
            "/metadata",
            "/cells/*/metadata",
            "/cells/*/outputs/*/data/image/png",
            *(f"/cells/{i}/outputs" for i in volatile),
        ),
        diff_replace=(
            (
                "/cells/*/outputs/*/data/text/html",
                r"data:image/(jpeg|png);base64,[A-Za-z0-9+/=]+",
                r"data:image/\1;base64,...",
            ),
        ),
        diff_color_words=False,
        diff_use_color=False,
    )
    fixture.check(str(GOLDEN))


def test_tune_layout_notebook_saves_a_usable_template(tmp_path, monkeypatch):
    layouts = tmp_path / "layouts"
    tweaks = {
        "device_width": 0.62,
        "palette": "vivid",
        "caption_align": "left",
        "headline_1": "Every dollar, planned",
    }
    nb = run_notebook(
        "02_tune_layout.ipynb",
        tmp_path / "nb",
        tweaks=tweaks,
        save_as="ci-tuned",
        layouts_dir=str(layouts),
    )
    saved = layouts / "ci-tuned.toml"
    data = tomllib.loads(saved.read_text())
    assert data["name"] == "ci-tuned"
    assert data["device"]["width"] == 0.62
    assert data["palette"]["rhythm"] == ["vivid"] and data["text"]["align"] == "left"
    assert any(
        "application/vnd.jupyter.widget-view+json" in o.get("data", {})
        for c in nb.cells
        for o in c.get("outputs", [])
    )
    assert "Every dollar, planned" in "\n".join(outputs(nb, "text/plain"))
    # the saved template designs a set, by path and by name (as `design --template` does)
    shots = ss.write_copy(
        ss.extract_features(ss.detect_domain(ss.read_screenshots(POCKET)), ocr=False)
    )
    by_path = ss.plan_layout(shots, template=str(saved))
    monkeypatch.setenv("SHOTSMITH_LAYOUTS", str(layouts))
    by_name = ss.plan_layout(shots, template="ci-tuned")
    assert set(by_name[C.LAYOUT_TEMPLATE]) == {"ci-tuned"}
    assert list(by_name[C.LAYOUT_VARIANT]) == list(by_path[C.LAYOUT_VARIANT])
    scene = by_name[C.LAYOUT_SCENE].iloc[0]
    assert scene["device"]["width"] == round(0.62 * 1320)
    assert scene["texts"][0]["align"] == "left"


def test_batch_notebook_designs_the_manifest(tmp_path):
    manifest = ss.write_manifest(
        [
            {"source": str(SAMPLES / "pocket-budget")},
            {"source": str(SAMPLES / "tasklane"), "project_name": "Tasklane"},
            {"source": str(tmp_path / "missing"), "project_name": "Gone"},
        ],
        tmp_path / "apps.csv",
    )
    out_dir = tmp_path / "batch"
    nb = run_notebook(
        "03_batch.ipynb",
        tmp_path / "nb",
        manifest=str(manifest),
        out_dir=str(out_dir),
        workers=2,
        ocr=False,
    )
    summary = pd.read_csv(out_dir / "summary.csv", keep_default_na=False)
    assert list(summary["app_id"]) == ["pocket-budget", "tasklane", "gone"]
    assert list(summary["status"]) == ["designed", "designed", "failed"]
    assert "no such folder" in summary["error"].iloc[2]
    for app in ("pocket-budget", "tasklane"):
        assert (out_dir / app / "_done.json").exists()
        assert len(list((out_dir / app).glob("0*.png"))) == 5
        assert png_size(out_dir / app / "contact-sheet.png")[1] == "RGB"
    assert (out_dir / "contact-sheet.png").exists()
    assert "FAILED gone" in "\n".join(outputs(nb, "stream"))
    # the bar's saved text (papermill, nbconvert, a viewer without widgets): the final count
    bars = [t for t in outputs(nb, "text/plain") if t.startswith("apps:")]
    assert len(bars) == 1 and "100%" in bars[0] and "3/3" in bars[0], bars
    assert len(outputs(nb, "image/png")) == 2  # the batch sheet and one app's sheet


def test_api_notebook_starts_a_server_designs_and_stops_it(tmp_path):
    out_dir = tmp_path / "api"
    nb = run_notebook("04_api.ipynb", tmp_path / "nb", out_dir=str(out_dir))
    pngs = sorted(out_dir.glob("*.png"))
    assert len(pngs) == 5
    assert {png_size(p) for p in pngs} == {((1320, 2868), "RGB")}
    text = "\n".join(outputs(nb, "stream"))
    assert "completed" in text
    url = re.search(r"server: http://127\.0\.0\.1:(\d+)", text)
    assert url, text
    with socket.socket() as s:  # stopped at the end of the notebook
        assert s.connect_ex(("127.0.0.1", int(url.group(1)))) != 0


# --- the displays ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def with_copy() -> pd.DataFrame:
    shots = ss.read_screenshots(POCKET)
    return ss.write_copy(ss.extract_features(ss.detect_domain(shots), ocr=False))


def test_show_renders_frames_with_thumbnails(with_copy):
    view = ss.show(with_copy, columns=[C.IMAGE, C.SCREEN, C.COPY_HEADLINE])
    html = view._repr_html_()
    assert html.count("<img ") == 5 and "5 rows in 1 set" in html
    assert "Your money" in repr(view) or with_copy[C.COPY_HEADLINE].iloc[0] in repr(view)
    assert with_copy.shotsmith.show()._repr_html_().count("<img ") == 5
    assert with_copy.shotsmith.sets() == ["pocket-budget"]


def test_show_scene_and_show_set(with_copy):
    planned = ss.plan_layout(with_copy)
    scene = ss.show_scene(planned)
    assert scene.image.size == (330, 717) and scene.image.mode == "RGB"
    assert scene._repr_png_().startswith(b"\x89PNG")
    assert "headline" in repr(scene)
    grid = ss.show_set(planned, thumb_width=120)  # no renders yet: scenes drawn at preview size
    assert grid.image.width == 24 + 5 * (120 + 24)
    rendered = ss.render(planned.head(2), out_dir=None)
    two = np.asarray(ss.show_set(rendered, thumb_width=100).image.convert("L"))
    assert two.shape[1] >= 24 + 2 * (100 + 24)  # wider only when the title needs it
    ink = np.flatnonzero((two[:30] < 128).any(axis=0))  # the title, above the thumbnails
    assert ink.size and ink.max() < two.shape[1] - 12  # drawn whole, not cut off
    small = scale_scene(planned[C.LAYOUT_SCENE].iloc[0], 0.5)
    assert (small.width, small.height) == (660, 1434)


# --- the layout tuner --------------------------------------------------------------------------


def png_of(widget_value: bytes) -> Image.Image:
    return Image.open(io.BytesIO(widget_value)).convert("RGB")


def test_tuner_controls_change_the_previews_and_the_saved_template(
    with_copy, tmp_path, monkeypatch
):
    tuner = LayoutTuner(with_copy, template="default", layouts_dir=tmp_path)
    assert tuner.widget is not None
    c = tuner.controls
    shown = c["preview"].value
    whole = c["set_preview"].value
    image = tuner.preview_image()
    assert png_of(shown).size == image.size == (330, 717)
    # shown at its own pixel size, never stretched by the column around it
    assert (c["preview"].layout.width, c["preview"].layout.height) == ("330px", "717px")

    first = tuner.save_template("tuned")
    first_text = first.read_text()

    c["device_width"].value = 0.6  # as a slider move would
    assert c["preview"].value != shown and c["set_preview"].value != whole
    assert tuner.preview_image().tobytes() != image.tobytes()
    assert tuner.scene()["device"]["width"] == round(0.6 * 1320)

    for name, value in (
        ("headline_size", 0.06),
        ("palette", "spotlight, dark / light"),
        ("caption_align", "left"),
        ("caption_top", 0.07),
        ("device_offset_x", 0.05),
        ("device_top", 0.3),
    ):
        before = c["preview"].value
        c[name].value = value
        assert c["preview"].value != before, name
        assert tuner.error is None, (name, tuner.error)
    c["headline_2"].value = "Every charge, found"
    assert tuner.headlines[2] == "Every charge, found" and tuner.edited == [2]
    assert tuner.scene(2)["texts"][0]["text"] == "Every charge, found"

    c["save_name"].value = "tuned"
    c["save"].click()  # the button writes the same file again
    assert "Saved" in c["save_status"].value
    assert c["template"].value == "tuned" and "tuned" in c["template"].options
    text = first.read_text()
    assert text != first_text
    data = tomllib.loads(text)
    assert data["device"]["width"] == 0.6 and data["device"]["min_top"] == 0.3
    assert data["device"]["offsets_x"] == [0.05, -0.05]  # default alternates its offset
    assert data["text"]["headline_size"] == [0.06, 0.06]
    assert data["text"]["align"] == "left" and data["text"]["top"] == 0.07
    assert data["palette"]["strategy"] == "spotlight"

    # the headline edit is not lost: it is in the copy file beside the template
    copy_file = tmp_path / "tuned.pocket-budget.copy.csv"
    assert tuner.saved_copy == copy_file
    copy = pd.read_csv(copy_file, keep_default_na=False)
    assert list(copy.columns) == ["screen", "headline", "subtitle"]
    assert list(copy["screen"]) == list(with_copy[C.SCREEN])
    assert copy["headline"].iloc[2] == "Every charge, found"
    assert list(copy["subtitle"]) == list(with_copy[C.COPY_SUBTITLE])

    # usable by plan_layout, by path and by name, and it reproduces the tuned scenes
    by_path = ss.plan_layout(tuner.frame, template=first)
    monkeypatch.setenv("SHOTSMITH_LAYOUTS", str(tmp_path))
    by_name = ss.plan_layout(tuner.frame, template="tuned")
    assert set(by_name[C.LAYOUT_TEMPLATE]) == {"tuned"}
    for i in range(len(tuner.frame)):
        assert by_name[C.LAYOUT_SCENE].iloc[i] == by_path[C.LAYOUT_SCENE].iloc[i]
        assert by_name[C.LAYOUT_SCENE].iloc[i]["device"] == tuner.scene(i)["device"]


def test_tuner_readouts_say_what_the_controls_did(with_copy, tmp_path):
    tuner = LayoutTuner(with_copy, layouts_dir=tmp_path)
    c, r = tuner.widget and tuner.controls, tuner.readouts
    # the headline slider is a largest size: the readout shows the size really used
    c["headline_size"].value = 0.14
    used = int(tuner.planned[C.LAYOUT_HEADLINE_SIZE].iloc[0])
    assert used < round(0.14 * 1320)
    assert (
        r["headline_size"].value.startswith(f"{used} px") and "max 185" in r["headline_size"].value
    )
    # the caption is centred in the room above a low device: the readout says where it went
    c["device_top"].value = 0.5
    ink_top = min(t["box"][1] for t in tuner.scene()["texts"])
    assert f"text at {ink_top} px" in r["caption_top"].value
    assert tuner.scene()["device"]["y"] == round(0.5 * 2868)
    # a small device "bleeding" off the bottom does not reach it: the readout says so
    c["device_width"].value = 0.5
    device = tuner.scene()["device"]
    assert device["y"] + device["height"] < 2868
    assert f"ends {2868 - device['y'] - device['height']} px above" in r["device_bleed"].value
    # nothing to mirror at a zero offset: the checkbox is greyed out and says why
    c["device_offset_x"].value = 0.0
    assert c["device_alternate"].disabled and "no offset" in r["device_alternate"].value
    c["device_offset_x"].value = 0.05
    assert not c["device_alternate"].disabled
    assert r["device_offset_x"].value == f"{round(0.05 * 1320):+d} px"


def test_tuner_template_switch_and_guards(with_copy, tmp_path):
    tuner = LayoutTuner(with_copy, layouts_dir=tmp_path)
    c = tuner.widget and tuner.controls
    assert c["save_name"].value == "default-tuned"
    c["template"].value = "spotlight"
    assert c["caption_align"].value == "left" and c["device_bleed"].value is False
    assert c["palette"].value == "spotlight, dark / light"
    assert tuner.template["name"] == "spotlight"
    assert c["save_name"].value == "spotlight-tuned"  # follows the template...
    c["save_name"].value = "my-brand"
    c["template"].value = "default"
    assert c["save_name"].value == "my-brand"  # ...unless the user named it
    c["screenshot"].value = 3
    assert tuner.index == 3
    # a file the tuner did not write, and a built-in's name, need 'replace'
    (tmp_path / "mine.toml").write_text('name = "mine"\n')
    with pytest.raises(ss.ShotsmithError, match="not written by the tuner"):
        tuner.save_template("mine")
    c["save_name"].value = "mine"
    c["save"].click()
    assert "tick 'replace'" in c["save_status"].value
    assert (tmp_path / "mine.toml").read_text() == 'name = "mine"\n'
    c["overwrite"].value = True
    c["save"].click()
    assert "Saved" in c["save_status"].value and c["overwrite"].value is False
    assert tomllib.loads((tmp_path / "mine.toml").read_text())["name"] == "mine"
    with pytest.raises(ss.ShotsmithError, match="built-in template"):
        tuner.save_template("default")
    assert not (tmp_path / "default.toml").exists()
    with pytest.raises(ss.ShotsmithError, match="lower-case"):
        tuner.save_template("My Template")
    c["save_name"].value = "Bad Name"
    c["save"].click()
    assert "lower-case" in c["save_status"].value
    # a headline that cannot fit is reported, the last good preview stays
    shown = c["preview"].value
    c["headline_0"].value = "Supercalifragilisticexpialidocious " * 3
    assert tuner.error and "does not fit" in tuner.error and c["preview"].value == shown
    assert "does not fit" in c["status"].value


def test_tuner_design_command_designs_the_set_as_tuned(with_copy, tmp_path):
    """The command the tuner prints runs from where it says and draws what was tuned."""
    import subprocess

    project = tmp_path / "project"
    shutil.copytree(POCKET, project / "shots" / "pocket-budget")
    shots = ss.write_copy(
        ss.extract_features(
            ss.detect_domain(ss.read_screenshots(project / "shots" / "pocket-budget")), ocr=False
        )
    )
    tuner = LayoutTuner(shots, layouts_dir=project / "layouts")
    assert tuner.widget is not None
    tuner.controls["device_width"].value = 0.66
    tuner.controls["headline_1"].value = "Budgets that add up"
    tuner.save_template("brand")
    root, command = tuner.design_command()
    assert root == project.resolve()
    assert command.startswith("shotsmith design shots/pocket-budget --template brand")
    done = subprocess.run(
        command.replace("shotsmith", f"{sys.executable} -m shotsmith.cli", 1) + " --no-ocr",
        shell=True,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    design = json.loads((root / "out" / "pocket-budget" / "design.json").read_text())
    assert {r["layout_template"] for r in design} == {"brand"}
    if "--copy" in command:
        assert design[1]["copy_headline"] == "Budgets that add up"


def test_kernel_is_this_interpreter():
    """The python3 kernel papermill starts is this venv's interpreter (no manual install)."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    assert spec.argv[0] in ("python", "python3", sys.executable)


# --- the tuner in JupyterLab, in a real Chromium -------------------------------------------------


@pytest.mark.browser
@pytest.mark.live_server
def test_tuner_in_jupyterlab_moves_a_slider_and_saves_a_template_design_uses(tmp_path):
    """What a data scientist does: open 02_tune_layout in JupyterLab (a real server on
    127.0.0.1, Debian's Chromium through Playwright, a 1400x1000 window), run all cells,
    drag the device-width slider, see the preview change, save the template with the
    button and run the command the tuner prints; `shotsmith design` uses the template."""
    from playwright.sync_api import sync_playwright

    from .notebooks.lab import (
        VIEWPORT,
        JupyterLab,
        chromium,
        errors_shown,
        fresh_copy,
        layout_report,
        run_all,
    )

    root = fresh_copy(tmp_path / "repo")  # JupyterLab autosaves what it runs: not here
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    with JupyterLab(root, scratch) as lab, sync_playwright() as p:
        browser = chromium(p)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            run_all(page, lab, "notebooks/02_tune_layout.ipynb")
            assert not errors_shown(page), errors_shown(page)
            report = layout_report(page)
            assert not report["upscaled"] and not report["cut"], report

            slider = page.locator(".widget-hslider").filter(has_text="device width").first
            readout = slider.locator("xpath=..").locator(".widget-html").first
            preview = page.locator(".widget-image img, img.widget-image").first
            preview.scroll_into_view_if_needed()
            before_png = preview.screenshot()
            before_text = readout.inner_text()
            handle = slider.locator(".noUi-handle").first
            box = handle.bounding_box()
            assert box, "the device width slider has no handle on the page"
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(x - 60, y, steps=6)  # narrower device
            page.mouse.up()
            page.wait_for_function(
                "([el, old]) => el.innerText !== old",
                arg=[readout.element_handle(), before_text],
                timeout=20_000,
            )
            page.wait_for_timeout(800)  # the last re-plan's picture arrives
            assert preview.screenshot() != before_png, "the preview did not change"
            shown = preview.bounding_box()
            natural = preview.evaluate("img => [img.naturalWidth, img.naturalHeight]")
            assert shown and abs(shown["width"] - natural[0]) <= 1, (shown, natural)

            name = page.locator(".widget-text").filter(has_text="save as").locator("input")
            name.fill("browser-tuned")
            page.get_by_role("button", name="Save template").click()
            status = page.locator(".widget-html").filter(has_text="Saved").first
            status.wait_for(timeout=20_000)
            message = status.inner_text()
        finally:
            browser.close()

    saved = root / "layouts" / "browser-tuned.toml"
    assert saved.is_file(), message
    width = tomllib.loads(saved.read_text())["device"]["width"]
    default = tomllib.loads(
        (ROOT / "src" / "shotsmith" / "data" / "layouts" / "default.toml").read_text()
    )["device"]["width"]
    assert width < default, (width, default)
    command = re.search(r"(shotsmith design .+)$", message.strip(), re.M)
    assert command and "--template browser-tuned" in command.group(1), message
    import shlex
    import subprocess

    done = subprocess.run(
        [str(Path(sys.executable).parent / "shotsmith"), *shlex.split(command.group(1))[1:]],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (report_file,) = (root / "out").glob("*/design.json")  # one set: out/<app>/design.json
    rows = json.loads(report_file.read_text())
    assert rows and {r["layout_template"] for r in rows} == {"browser-tuned"}
    assert len(list(report_file.parent.glob("*.png"))) == len(rows)


def test_palette_presets_are_the_data_file_and_the_tuner_offers_them(with_copy, tmp_path):
    from importlib import resources

    from shotsmith.stages.layout.palettes import palette_preset, palette_presets, preset_name

    table = json.loads(
        resources.files("shotsmith").joinpath("data/palette_presets.json").read_text("utf-8")
    )["presets"]
    assert list(palette_presets()) == [row["name"] for row in table]
    for row in table:
        spec = palette_preset(row["name"])
        assert spec == {"strategy": row["strategy"], "rhythm": row["rhythm"]}
        assert preset_name(spec) == row["name"]
        ss.load_template({"name": "x", "palette": spec})  # each one is a valid palette
    with pytest.raises(ss.TemplateError, match=r"no palette preset named 'neon'.*'vivid'"):
        palette_preset("neon")
    tuner = LayoutTuner(with_copy, template="default", layouts_dir=tmp_path)
    offered = list(tuner.widget and tuner.controls["palette"].options)
    assert [o for o in offered if not o.startswith("template (")] == list(palette_presets())
    tuner.controls["palette"].value = "spotlight, dark"
    assert tuner.template["palette"]["strategy"] == "spotlight"
    assert tuner.template["palette"]["rhythm"] == ["dark"]


def test_the_documented_clear_command_leaves_a_run_notebook_as_committed(tmp_path):
    """A notebook run in Jupyter (outputs, counts, the kernel's full language_info, timing
    and widget metadata), cleared with the command docs/notebooks.md gives, is byte for
    byte the committed one: nothing to commit after only running it."""
    import shlex
    import subprocess

    docs = (ROOT / "docs" / "notebooks.md").read_text()
    line = next(x for x in docs.splitlines() if "nbconvert" in x and "--clear-output" in x)
    argv = shlex.split(line)
    assert argv[0] == ".venv/bin/jupyter" and argv[-1] == "notebooks/*.ipynb", line
    for source in NOTEBOOKS.glob("*.ipynb"):
        nb = json.loads(source.read_text())
        nb["metadata"]["language_info"] = {
            "codemirror_mode": {"name": "ipython", "version": 3},
            "file_extension": ".py",
            "mimetype": "text/x-python",
            "name": "python",
            "nbconvert_exporter": "python",
            "pygments_lexer": "ipython3",
            "version": "3.11.7",
        }
        nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["execution_count"] = 1
                cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x\n"}]
                cell["metadata"]["execution"] = {"iopub.status.busy": "2026-01-01T00:00:00"}
        (tmp_path / source.name).write_text(json.dumps(nb, indent=1))
    jupyter = str(Path(sys.executable).with_name("jupyter"))
    paths = [str(p) for p in sorted(tmp_path.glob("*.ipynb"))]
    subprocess.run([jupyter, *argv[1:-1], *paths], cwd=ROOT, check=True, capture_output=True)
    for source in NOTEBOOKS.glob("*.ipynb"):
        assert (tmp_path / source.name).read_text() == source.read_text(), source.name


def test_a_confidence_reads_as_a_percentage_never_a_rounded_one():
    frame = pd.DataFrame(
        {"app_id": ["a", "a"], "domain_confidence": [0.9993, 0.93], "layout_contrast": [4.5, 7.0]}
    )
    text = repr(ss.show(frame))
    assert "99.9%" in text and "93.0%" in text and "4.5" in text
    assert "99.9%" in ss.show(frame)._repr_html_()


def test_the_docs_tuner_command_is_the_one_the_tuner_prints(with_copy, tmp_path):
    """docs/notebooks.md shows the command the tuner gives, --copy included (without it
    design writes other headlines than the tuner showed)."""
    docs = (ROOT / "docs" / "notebooks.md").read_text()
    shown = next(
        x for x in docs.splitlines() if x.startswith("shotsmith design ") and "my-brand" in x
    )
    project = tmp_path / "project"
    shutil.copytree(POCKET, project / "sample_inputs" / "pocket-budget")
    shots = ss.read_screenshots(project / "sample_inputs" / "pocket-budget")
    copied = shots.assign(**{c: with_copy[c] for c in with_copy.columns if c not in shots})
    tuner = LayoutTuner(copied, layouts_dir=project / "layouts")
    tuner.save_template("my-brand")
    assert tuner.design_command() == (project.resolve(), shown)


def test_tuner_refuses_to_save_a_layout_in_error_and_forgets_stale_messages(with_copy, tmp_path):
    tuner = LayoutTuner(with_copy, layouts_dir=tmp_path)
    c = tuner.widget and tuner.controls
    c["headline_0"].value = "Supercalifragilisticexpialidocious " * 3
    assert tuner.error and c["save"].disabled  # the button: nothing to save
    with pytest.raises(ss.ShotsmithError, match="does not plan"):
        tuner.save_template("broken")
    assert not list(tmp_path.glob("broken*"))
    c["headline_0"].value = "Your budgets"
    assert tuner.error is None and not c["save"].disabled
    c["save_name"].value = "Bad Name"
    c["save"].click()
    assert "lower-case" in c["save_status"].value  # red, about this save
    c["template"].value = "spotlight"
    assert c["save_status"].value == "" and "#b00020" not in c["status"].value
    for box in ("status", "save_status"):
        assert "anywhere" not in c[box].value


def test_tuner_sliders_take_typed_values(with_copy):
    tuner = LayoutTuner(with_copy)
    c = tuner.widget and tuner.controls
    for key in ("headline_size", "caption_top", "device_width", "device_top", "device_offset_x"):
        assert c[f"{key}_number"].value == c[key].value, key
    c["device_width_number"].value = 0.73
    assert c["device_width"].value == 0.73 and tuner.template["device"]["width"] == 0.73
    c["device_width"].value = 0.8
    assert c["device_width_number"].value == 0.8


def test_tuner_coalesces_a_fast_drag_into_one_plan_of_the_last_value(with_copy):
    """In a kernel (an event loop runs), a drag's values arriving while the tuner plans are
    taken in and planned once, the latest: the preview changes once, to the last value."""
    import asyncio

    tuner = LayoutTuner(with_copy)
    c = tuner.widget and tuner.controls
    drawn = []
    c["preview"].observe(lambda change: drawn.append(change["new"]), names="value")

    async def drag() -> None:
        for i in range(20):
            c["device_width"].value = 0.6 + 0.01 * i
        assert tuner.pending() and not drawn
        while tuner.pending():
            await asyncio.sleep(0.01)

    asyncio.run(drag())
    assert len(drawn) == 1
    assert tuner.measures()["device_asked_px"] == round(0.79 * tuner.measures()["canvas"][0])

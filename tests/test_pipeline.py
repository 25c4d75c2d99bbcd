"""The whole pipeline on the bundled sample apps: what a user would notice."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.color import worst_contrast
from shotsmith.scene import Scene, boxes_overlap

from .conftest import ROOT, sample_apps

FORBIDDEN = re.compile(r"\b(best|#1|number one|top|free|sale|download now|discount|award)\b", re.I)


@pytest.fixture(scope="module")
def designed(tmp_path_factory) -> pd.DataFrame:
    out = tmp_path_factory.mktemp("designed")
    frames = [ss.design(app, out_dir=out) for app in sample_apps()]
    return pd.concat(frames, ignore_index=True)


def test_samples_are_real_sets():
    apps = sample_apps()
    assert len(apps) >= 3
    domains = set()
    for app in apps:
        frame = ss.read_screenshots(app)
        assert 4 <= len(frame) <= 6
        assert set(zip(frame[C.IMAGE_WIDTH], frame[C.IMAGE_HEIGHT])) == {(1206, 2622)}
        domains.add(ss.detect_domain(frame)[C.DOMAIN_CATEGORY].iloc[0])
    assert len(domains) >= 3


def test_one_store_ready_png_per_input_in_store_order(designed):
    for _app_id, rows in designed.groupby(C.APP_ID):
        rows = rows.sort_values(C.POSITION)
        names = [Path(p).name for p in rows[C.RENDER_PATH]]
        assert names == sorted(names)  # NN_ prefixes keep store order
        for path in rows[C.RENDER_PATH]:
            with Image.open(path) as im:
                assert im.size == (1320, 2868)
                assert im.mode == "RGB"
                assert im.format == "PNG"


def test_copy_rules_hold_for_every_set(designed):
    for _, rows in designed.groupby(C.APP_ID):
        heads = list(rows[C.COPY_HEADLINE])
        assert len(set(h.lower() for h in heads)) == len(heads)  # unique
        # no "Track X, Track Y, Track Z": a first word starts at most two headlines (a
        # second only where it lets a headline name its screen's subject)
        firsts = Counter(h.split()[0].lower() for h in heads)
        assert max(firsts.values()) <= 2, heads
        assert len(heads[0]) <= 30
        for head, sub in zip(heads, rows[C.COPY_SUBTITLE]):
            words = [w for w in head.split() if any(c.isalnum() for c in w)]  # "&" is no word
            assert 2 <= len(words) <= 6, head
            assert len(sub) <= 60, sub
            assert not FORBIDDEN.search(head) and not FORBIDDEN.search(sub)
            assert head != head.upper()
            assert head[0].isupper() and not head.endswith(".")
        assert rows[C.COPY_TAGLINE].nunique() == 1


def test_layout_rules_hold_for_every_set(designed):
    for _, rows in designed.groupby(C.APP_ID):
        assert rows[C.LAYOUT_HEADLINE_SIZE].nunique() == 1
        # legible as a 220 px wide search-result thumbnail: cap height stays >= ~11 px
        assert rows[C.LAYOUT_HEADLINE_SIZE].iloc[0] * 220 / 1320 >= 15
        assert rows[C.DOMAIN_CATEGORY].nunique() == 1
        for _, row in rows.iterrows():
            scene = Scene.from_dict(row[C.LAYOUT_SCENE])
            device = scene.device.visible_box(scene.width, scene.height)
            for block in scene.texts:
                x, y, w, h = block.box
                assert 0 <= x and x + w <= scene.width and 0 <= y and y + h <= scene.height
                assert not boxes_overlap(block.box, device)
                assert block.contrast >= 4.5
            assert row[C.LAYOUT_CONTRAST] >= 4.5


def test_caption_contrast_on_the_rendered_pixels(designed):
    """Measured on the final PNG: the pixels around each caption against its colour."""
    for _, row in designed.iterrows():
        scene = Scene.from_dict(row[C.LAYOUT_SCENE])
        img = np.asarray(Image.open(row[C.RENDER_PATH]))
        for block in scene.texts:
            x, y, w, h = block.box
            # a frame of background just outside the ink box: what the text sits on
            ring = np.concatenate(
                [
                    img[max(0, y - 6) : y, x : x + w].reshape(-1, 3),
                    img[y + h : y + h + 6, x : x + w].reshape(-1, 3),
                ]
            )
            assert worst_contrast(block.color, ring) >= 4.5, (row[C.SCREEN], block.role)


def test_design_writes_machine_readable_table(designed):
    first = designed.iloc[0]
    table = Path(first[C.RENDER_PATH]).parent / "design.json"
    records = json.loads(table.read_text())
    assert len(records) == (designed[C.APP_ID] == first[C.APP_ID]).sum()
    for key in (
        C.DOMAIN_CATEGORY,
        C.FEATURES_PHRASE,
        C.COPY_TAGLINE,
        C.COPY_HEADLINE,
        C.COPY_SUBTITLE,
        C.LAYOUT_TEMPLATE,
        C.LAYOUT_VARIANT,
        C.RENDER_PATH,
    ):
        assert key in records[0]
    assert (table.parent / "design.csv").exists()


@pytest.mark.slow
def test_deterministic_output(tmp_path):
    app = sample_apps()[0]
    a = ss.design(app, out_dir=tmp_path / "a")
    b = ss.design(app, out_dir=tmp_path / "b")
    assert list(a[C.COPY_HEADLINE]) == list(b[C.COPY_HEADLINE])
    for pa, pb in zip(a[C.RENDER_PATH], b[C.RENDER_PATH]):
        assert Path(pa).read_bytes() == Path(pb).read_bytes()


@pytest.mark.slow
def test_stages_compose_with_pipe_and_keep_inputs(tmp_path):
    shots = ss.read_screenshots(sample_apps()[0])
    before = shots.copy()
    designed = (
        shots.pipe(ss.detect_domain)
        .pipe(ss.extract_features)
        .pipe(ss.write_copy)
        .pipe(ss.plan_layout, template="spotlight")
        .pipe(ss.render, out_dir=tmp_path)
    )
    pd.testing.assert_frame_equal(shots, before)  # the input frame was not mutated
    pd.testing.assert_frame_equal(designed[list(shots.columns)], shots)
    assert set(designed[C.LAYOUT_TEMPLATE]) == {"spotlight"}


def test_pipeline_keeps_intermediates_and_timings(tmp_path):
    shots = ss.read_screenshots(sample_apps()[1])
    run = ss.Pipeline.default(out_dir=tmp_path).run(shots)
    assert list(run.frames) == [
        "input",
        "extract_features",
        "detect_domain",
        "write_copy",
        "plan_layout",
        "render",
    ]
    assert C.COPY_HEADLINE in run["write_copy"] and C.LAYOUT_SCENE not in run["write_copy"]
    assert set(run.timings) == set(list(run.frames)[1:])
    assert "PipelineRun" in run._repr_html_()
    sliced = ss.Pipeline.default()[:2]
    assert [s.name for s in sliced.steps] == ["extract_features", "detect_domain"]


def test_run_until_stops_before_the_named_stage_and_resume_skips_what_is_done(tmp_path):
    shots = ss.read_screenshots(sample_apps()[0])
    pipe = ss.Pipeline.default(ocr=False, out_dir=tmp_path)
    ready = pipe.run(shots, until="plan_layout", progress=False)
    assert list(ready.timings) == ["extract_features", "detect_domain", "write_copy"]
    out = ready.output
    assert C.COPY_HEADLINE in out and C.LAYOUT_SCENE not in out and C.RENDER_PATH not in out
    assert not list(tmp_path.iterdir())  # nothing rendered
    # a frame that already went through write_copy starts at plan_layout: nothing to do
    again = pipe.run(out, until="plan_layout", resume=True, progress=False)
    assert again.timings == {} and again.output is out
    # resume runs the rest of the way, from the first stage whose columns are missing
    rest = pipe.run(out, resume=True, progress=False)
    assert list(rest.timings) == ["plan_layout", "render"]
    assert all(Path(p).is_file() for p in rest.output[C.RENDER_PATH])
    # without resume every stage runs again
    assert len(pipe.run(out, until="detect_domain", progress=False).timings) == 1
    with pytest.raises(ss.ShotsmithError, match=r"until='layout'.*'plan_layout'"):
        pipe.run(shots, until="layout")


def test_get_and_set_params_by_step_and_option(tmp_path):
    pipe = ss.Pipeline.default(ocr=False, out_dir=tmp_path)
    params = pipe.get_params()
    assert params["extract_features__ocr"] is False  # given
    assert params["extract_features__workers"] == 2  # the stage's default
    assert params["plan_layout__template"] == "default"
    assert pipe.set_params(plan_layout__template="spotlight", extract_features__workers=1) is pipe
    assert pipe.get_params()["extract_features__workers"] == 1
    out = pipe.run(ss.read_screenshots(sample_apps()[0]), progress=False).output
    assert set(out[C.LAYOUT_TEMPLATE]) == {"spotlight"}  # the run used the new option
    # a wrong name is an error naming what there is, and nothing is changed
    with pytest.raises(ss.ShotsmithError, match=r"render step has no option 'dpi'.*out_dir"):
        pipe.set_params(plan_layout__size="6.5", render__dpi=300)
    with pytest.raises(ss.ShotsmithError, match=r"'layout__size' names no step.*plan_layout"):
        pipe.set_params(layout__size="6.5")
    with pytest.raises(ss.ShotsmithError, match=r"'template' names no step"):
        pipe.set_params(template="spotlight")
    assert pipe.get_params()["plan_layout__size"] is None


@pytest.mark.slow
def test_process_pool_fan_out_matches_serial(tmp_path):
    shots = ss.concat_sets([ss.read_screenshots(app) for app in sample_apps()[:2]])
    serial = ss.Pipeline.default(out_dir=tmp_path / "s").run(shots).output
    with ProcessPoolExecutor(2) as pool:
        fanned = ss.Pipeline.default(out_dir=tmp_path / "p").run(shots, executor=pool).output
    fanned = fanned.loc[serial.index]
    assert list(fanned[C.COPY_HEADLINE]) == list(serial[C.COPY_HEADLINE])
    for a, b in zip(serial[C.RENDER_PATH], fanned[C.RENDER_PATH]):
        assert Path(a).read_bytes() == Path(b).read_bytes()


def test_missing_required_column_is_a_clear_error():
    shots = ss.read_screenshots(sample_apps()[0]).drop(columns=[C.BUNDLE_ID])
    with pytest.raises(ss.MissingColumnError, match=r"detect_domain.*'bundle_id'"):
        ss.Pipeline.default().run(shots)
    with pytest.raises(ss.MissingColumnError, match=r"write_copy.*'domain_category'"):
        ss.write_copy(ss.read_screenshots(sample_apps()[0]))


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "shotsmith.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_cli_design(tmp_path):
    app = sample_apps()[0]
    done = _cli(
        "design",
        str(app),
        "--project-name",
        "Pocket Budget",
        "--bundle-id",
        "com.example.pocketbudget",
        "--template",
        "default",
        "--out",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    pngs = sorted((tmp_path / "pocket-budget").glob("*.png"))
    assert len(pngs) == len(ss.read_screenshots(app))
    assert (tmp_path / "pocket-budget" / "design.json").exists()
    assert "Finance" in done.stdout


@pytest.mark.slow
def test_cli_bad_input_is_a_message_not_a_traceback(tmp_path):
    (tmp_path / "01_home.png").write_bytes(b"GIF89a not really")
    done = _cli("design", str(tmp_path), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "01_home.png" in done.stderr and "not a PNG" in done.stderr
    assert "Traceback" not in done.stderr
    done = _cli("design", str(sample_apps()[0]), "--template", "nope", "--out", str(tmp_path))
    assert done.returncode == 2 and "no layout template named 'nope'" in done.stderr


def test_report_columns_are_listed_once():
    from shotsmith.pipeline import REPORT_COLUMNS

    assert len(REPORT_COLUMNS) == len(set(REPORT_COLUMNS)), (
        "a column listed twice breaks design.json"
    )


def test_cli_output_into_a_closed_pipe_is_no_traceback(tmp_path):
    """`shotsmith ... | head -1`: when the reader has gone, the command stops quietly."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the command prints
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "shotsmith.cli",
            "keys",
            "create",
            "--data-dir",
            str(tmp_path / "data"),
            "--name",
            "ci",
        ],
        stdout=write,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    os.close(write)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 141

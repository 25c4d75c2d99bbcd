"""Planning a set again (the layout tuner does at every slider change) gives exactly the plan
a first plan would: what a re-plan reuses (contrasts, status-bar bands, type scales, ink
boxes, a background's luminance) is the same as what it would measure again, and a
screenshot replaced on disk is read again."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.stages.layout import forget_replans, load_template

from ...conftest import fake_screen, png_bytes
from .test_layout_lift import PHONE, TABLET, frame_for
from .test_layout_render import web_screenshot


def scenes(frame) -> list[dict]:
    return list(frame[C.LAYOUT_SCENE])


def moved(template: dict, width: float, headline: float, top: float) -> dict:
    """The template with the tuner's sliders moved: device width, headline size, caption top."""
    changed = copy.deepcopy(template)
    changed["device"]["width"] = width
    changed["text"]["headline_size"][1] = headline
    changed["text"]["top"] = top
    return changed


@pytest.mark.parametrize(
    ("name", "size"),
    [("default", PHONE), ("default", TABLET), ("spotlight", PHONE)],
    ids=["default-lifted", "default-drawn-smaller", "spotlight-glow"],
)
def test_a_replan_draws_what_a_first_plan_draws(tmp_path, name, size):
    # default: the first slide's device is lifted (phone) or drawn smaller (tablet) to show a
    # named button, so bands at other display sizes are measured; spotlight has a glow
    frame = frame_for(tmp_path, size=size)
    template = load_template(name)
    templates = [
        template,
        moved(template, 0.6, 0.1, 0.05),
        moved(template, 0.75, 0.08, 0.08),
        template,
        moved(template, 0.6, 0.1, 0.05),
    ]
    forget_replans()
    replans = [ss.plan_layout(frame.copy(), template=copy.deepcopy(t)) for t in templates]
    lift = replans[0][C.LAYOUT_SCENE].iloc[0]["device"]["lift"]
    if name == "default":
        assert lift is not None and (lift["scale"] < 1.0) == (size == TABLET)
    assert scenes(replans[1]) != scenes(replans[0]) != scenes(replans[2])
    for t, replanned in zip(templates, replans):
        forget_replans()  # planned as if first
        fresh = ss.plan_layout(frame.copy(), template=copy.deepcopy(t))
        assert scenes(replanned) == scenes(fresh)
        assert list(replanned[C.LAYOUT_CONTRAST]) == list(fresh[C.LAYOUT_CONTRAST])
    pngs = [ss.render(p.iloc[:1], out_dir=None)[C.RENDER_PNG].iloc[0] for p in (replans[4], fresh)]
    assert pngs[0] == pngs[1]


def test_a_screenshot_replaced_on_disk_is_read_again(tmp_path):
    frame = frame_for(tmp_path)
    path = Path(frame[C.IMAGE].iloc[1])
    fake_screen("Budgets").save(path)  # a status bar's inset left clear: no band
    before = ss.plan_layout(frame.copy())
    assert before[C.LAYOUT_SCENE].iloc[1]["device"]["screen_band"] is None
    web_screenshot().save(path)  # a web page up to the very top: framed below a band
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    after = ss.plan_layout(frame.copy())
    assert after[C.LAYOUT_SCENE].iloc[1]["device"]["screen_band"] is not None
    # and the same pictures as bytes in the frame: read by their content
    frame[C.IMAGE] = [Path(p).read_bytes() for p in frame[C.IMAGE]]
    in_memory = ss.plan_layout(frame.copy())
    assert in_memory[C.LAYOUT_SCENE].iloc[1]["device"]["screen_band"] is not None
    frame.loc[frame.index[1], C.IMAGE] = png_bytes(fake_screen("Budgets"))
    assert ss.plan_layout(frame)[C.LAYOUT_SCENE].iloc[1]["device"]["screen_band"] is None

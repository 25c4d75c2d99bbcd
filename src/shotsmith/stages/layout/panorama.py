"""A panorama's devices on one strip: a device across a slide edge, drawn on both slides.

A panorama set is one strip as wide as its slides side by side, cut into slides
(``[panorama]`` in a template; the shapes are laid out by ``plan_layout``). Here the
devices join the strip: ``[panorama] straddle`` moves one slide's device across the
edge to the next slide (``share`` of its width stays on its own slide) and moves the next
slide's device right just enough to keep ``gap`` from it. Then every slide lists, in its
scene's ``strip_devices``, the neighbours' devices (shadows included) that reach into
it, in its own pixels: both slides draw the same frame a whole slide width apart, so the
two halves meet exactly at the cut.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from ...scene import DeviceFrame, Scene, boxes_overlap

log = logging.getLogger("shotsmith")


def lay_out_strip_devices(
    plans: list[dict[str, Any]], template: dict[str, Any], size: tuple[int, int]
) -> None:
    """Place the template's straddling device, then give each slide the neighbours'
    devices that cross its edges (``Scene.strip_devices``) and its place on the strip
    (``meta["strip"]``: slide number and count). ``plans`` hold one ``scene`` each, in
    store order; they are changed in place."""
    scenes: list[Scene] = [plan["scene"] for plan in plans]
    spec = template["panorama"]["straddle"]
    after = int(spec["after"])
    if 0 < after < len(scenes):
        _straddle(scenes[after - 1], scenes[after], spec, size)
    width = size[0]
    for i, scene in enumerate(scenes):
        scene.meta["strip"] = {"slide": i + 1, "of": len(scenes)}
        scene.strip_devices = [
            replace(other.device.shifted((j - i) * width), source=int(other.meta["position"]))
            for j, other in enumerate(scenes)
            if j != i and _reaches(other.device.shifted((j - i) * width), width)
        ]


def _straddle(own: Scene, following: Scene, spec: dict[str, Any], size: tuple[int, int]) -> None:
    """``own``'s device across its right edge; ``following``'s device moved right to keep
    the gap. Left in place (and logged) when the part on the next slide would touch its
    caption."""
    width = size[0]
    device = own.device
    moved = device.shifted(round(width - float(spec["share"]) * device.width) - device.x)
    overflow = moved.x + moved.width - width  # px of it on the next slide
    part = [0, moved.y, overflow, max(0, size[1] - moved.y)]
    ring = round(0.02 * width)  # the caption's ink and a little room around it
    ringed = [[x - ring, y - ring, w + 2 * ring, h + 2 * ring] for x, y, w, h in _boxes(following)]
    if any(boxes_overlap(part, box) for box in ringed):
        log.warning(
            "%s: the device of slide %s would cross onto slide %s's caption; it stays on "
            "its own slide.",
            own.meta.get("app_id", "set"),
            int(own.meta.get("position", 0)) + 1,
            int(following.meta.get("position", 0)) + 1,
        )
        return
    own.device = moved
    clear = overflow + round(float(spec["gap"]) * width)
    if following.device.x < clear:
        following.device = following.device.shifted(clear - following.device.x)


def _boxes(scene: Scene) -> list[list[int]]:
    return [list(block.box) for block in scene.texts]


def _reaches(device: DeviceFrame, width: int) -> bool:
    """Whether a frame (with its shadow's blur) shows anywhere on a slide ``width`` wide."""
    pad = 3 * max(2, int(device.shadow.get("blur", 40))) if device.shadow else 0
    return device.x - pad < width and device.x + device.width + pad > 0

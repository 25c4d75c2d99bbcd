"""The scene: a small, JSON-serialisable description of one finished image.

``plan_layout`` writes one scene per row (as a plain dict in ``layout_scene``);
``render`` turns a scene into pixels. Coordinates are canvas pixels, origin
top-left; boxes are ``[x, y, width, height]``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any


@dataclass
class Background:
    kind: str = "linear"  # "linear" (top -> bottom stops) | "solid"
    stops: list[str] = field(default_factory=lambda: ["#ffffff"])  # hex colours
    glow: str | None = None  # optional soft radial glow colour behind the device
    glow_center: tuple[float, float] = (0.5, 0.62)  # fractions of width/height
    glow_radius: float = 0.55  # fraction of width
    # decorative shapes over the gradient, canvas px: {"kind": "circle", "cx", "cy", "r",
    # "color": "#rrggbb", "opacity": 0..1}; a panorama set's run on across slide edges
    shapes: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class TextBlock:
    role: str  # "headline" | "subtitle"
    text: str
    lines: list[str]
    font: str  # font file path
    size: int  # px
    line_height: int  # px between baselines
    color: str
    align: str  # "center" | "left"
    x: int  # anchor x: centre for "center", left edge for "left"
    baseline: int  # baseline of the first line
    box: list[int]  # [x, y, w, h]: the pixels the text covers (ink), for checks
    contrast: float = 0.0  # worst WCAG contrast against what is behind the box


@dataclass
class DeviceFrame:
    model: str
    x: int  # outer frame, top-left (may lie outside the canvas when it bleeds)
    y: int
    width: int
    height: int
    outer_radius: int
    band: int  # width of the metal band
    bezel: int  # width of the black border inside the band
    screen_radius: int
    band_color: str = "#3a3a40"
    bezel_color: str = "#0a0a0c"
    island: list[int] | None = None  # [x, y, w, h] on the canvas
    punch_hole: list[int] | None = None
    shadow: dict[str, Any] | None = None  # {"blur": px, "offset_y": px, "opacity": 0..1}
    screenshot: str | None = None  # path of the raw screenshot, None when given as bytes
    # A raw screenshot whose top would sit under the island / corners is shown below a band:
    # {"height": px, "color": "#rrggbb", "status_bar": {StatusBarStyle fields, scale in
    # canvas px per point}}; None when the screenshot keeps its top inset clear itself.
    screen_band: dict[str, Any] | None = None
    # How the screenshot fills the display: "cover" (it has the display's aspect) or
    # "contain" (shown whole, letterboxed in its own edge colours; plan_layout warns)
    fit: str = "cover"
    # Set when what the slide's caption names sits where the set's device placement would
    # hide it (below the canvas, or cropped by the display): {"px": how far the device was
    # moved up from the set's place, "scale": its size against the set's (1.0 = same),
    # "named": the caption's evidence string, "bottom": where that text ends (share of the
    # screenshot's height), "why": one sentence}; None when the slide keeps the set's place.
    lift: dict[str, Any] | None = None
    # 90 when the device is drawn a quarter turn (a landscape set): x, y, width and height
    # are the turned frame's on the canvas, the island or camera hole sits at its left edge
    rotation: int = 0
    # The store position of the slide whose screenshot this frame shows when it is not the
    # scene's own: a panorama device crossing in from a neighbouring slide (``strip_devices``)
    source: int | None = None

    @property
    def screen_box(self) -> tuple[int, int, int, int]:
        inset = self.band + self.bezel
        return (self.x + inset, self.y + inset, self.width - 2 * inset, self.height - 2 * inset)

    def shifted(self, dx: int) -> DeviceFrame:
        """The same frame ``dx`` px further right (island and camera hole with it)."""

        def moved(box: list[int] | None) -> list[int] | None:
            return None if box is None else [box[0] + dx, *box[1:]]

        return replace(
            self, x=self.x + dx, island=moved(self.island), punch_hole=moved(self.punch_hole)
        )

    def visible_box(self, canvas_w: int, canvas_h: int) -> list[int]:
        """The part of the frame inside the canvas, as [x, y, w, h]."""
        x0, y0 = max(0, self.x), max(0, self.y)
        x1, y1 = min(canvas_w, self.x + self.width), min(canvas_h, self.y + self.height)
        return [x0, y0, max(0, x1 - x0), max(0, y1 - y0)]


@dataclass
class Scene:
    width: int
    height: int
    background: Background
    texts: list[TextBlock]
    device: DeviceFrame
    meta: dict[str, Any] = field(default_factory=dict)
    # A panorama's neighbouring devices that cross this slide's edges, in this slide's
    # pixels (drawn before ``device``, each with ``source`` naming the slide it belongs to):
    # the slides cut from one strip show the same frame on both sides of an edge
    strip_devices: list[DeviceFrame] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scene:
        bg = dict(data["background"])
        if "glow_center" in bg:
            bg["glow_center"] = tuple(bg["glow_center"])
        return cls(
            width=int(data["width"]),
            height=int(data["height"]),
            background=Background(**bg),
            texts=[TextBlock(**t) for t in data["texts"]],
            device=DeviceFrame(**data["device"]),
            meta=dict(data.get("meta", {})),
            strip_devices=[DeviceFrame(**d) for d in data.get("strip_devices") or []],
        )

    @classmethod
    def from_json(cls, text: str) -> Scene:
        return cls.from_dict(json.loads(text))


def as_scene(value: Scene | dict[str, Any] | str) -> Scene:
    if isinstance(value, Scene):
        return value
    if isinstance(value, str):
        return Scene.from_json(value)
    return Scene.from_dict(value)


def boxes_overlap(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah

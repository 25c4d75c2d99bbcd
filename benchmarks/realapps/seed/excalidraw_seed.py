"""Make the page that hosts Excalidraw (the npm package's own UMD build) with two drawings.

Excalidraw is published as a React component; its demo app is this page: the editor full
screen, its initial scene built with the package's ``convertToExcalidrawElements`` from
the element skeletons below. ``?scene=flow`` (a sign-up flowchart, the default) or
``?scene=plan`` (a sprint-planning board). Fonts and assets come from the package's
``dist/excalidraw-assets``, so nothing is fetched from the web.
Usage: python excalidraw_seed.py HOME DATA
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def box(id_, x, y, text, colour="#a5d8ff", w=200, h=80, shape="rectangle"):
    return {
        "type": shape,
        "id": id_,
        "x": x,
        "y": y,
        "width": w,
        "height": h,
        "backgroundColor": colour,
        "fillStyle": "solid",
        "strokeWidth": 2,
        "roundness": {"type": 3},
        "label": {"text": text, "fontSize": 20},
    }


def arrow(x, y, w, h, start, end, text=None):
    a = {
        "type": "arrow",
        "x": x,
        "y": y,
        "width": w,
        "height": h,
        "strokeWidth": 2,
        "start": {"id": start},
        "end": {"id": end},
    }
    if text:
        a["label"] = {"text": text, "fontSize": 16}
    return a


FLOW = [
    {"type": "text", "x": 10, "y": -90, "text": "Sign-up flow v2", "fontSize": 36},
    box("start", 60, 0, "Landing page", "#b2f2bb", shape="ellipse"),
    box("form", 60, 160, "Sign-up form"),
    box("valid", 60, 330, "Email valid?", "#ffec99", w=200, h=110, shape="diamond"),
    box("verify", 60, 520, "Send verification\nemail"),
    box("error", 340, 345, "Show inline error", "#ffc9c9"),
    box("welcome", 60, 690, "Welcome tour", "#b2f2bb", shape="ellipse"),
    arrow(160, 82, 1, 76, "start", "form"),
    arrow(160, 242, 1, 86, "form", "valid"),
    arrow(160, 442, 1, 76, "valid", "verify", "yes"),
    arrow(262, 385, 76, 1, "valid", "error", "no"),
    arrow(160, 602, 1, 86, "verify", "welcome"),
    {
        "type": "text",
        "x": 340,
        "y": 520,
        "text": "Resend link after 60 s\n(ask Priya)",
        "fontSize": 18,
        "strokeColor": "#1971c2",
    },
]

PLAN = [
    {"type": "text", "x": 0, "y": -70, "text": "Sprint 14 planning", "fontSize": 32},
    box("todo", 0, 0, "To do", "#e9ecef", w=160, h=46),
    box("doing", 175, 0, "In progress", "#e9ecef", w=160, h=46),
    box("done", 350, 0, "Done", "#e9ecef", w=160, h=46),
    box("t1", 5, 62, "Dark mode\nfor settings", "#ffec99", w=150, h=80),
    box("t2", 5, 156, "Export to PDF", "#ffec99", w=150, h=80),
    box("t3", 5, 250, "Onboarding\ncopy review", "#ffec99", w=150, h=80),
    box("t8", 5, 344, "Widget for\nhome screen", "#ffec99", w=150, h=80),
    box("t4", 180, 62, "Offline sync\n(Marco)", "#a5d8ff", w=150, h=80),
    box("t5", 180, 156, "Crash on\nrotate (iOS)", "#ffc9c9", w=150, h=80),
    box("t6", 355, 62, "New app icon", "#b2f2bb", w=150, h=80),
    box("t7", 355, 156, "Push\nreminders", "#b2f2bb", w=150, h=80),
    box("t9", 355, 250, "Faster\ncold start", "#b2f2bb", w=150, h=80),
    {
        "type": "text",
        "x": 180,
        "y": 262,
        "text": "Demo on\nFriday 3 pm",
        "fontSize": 20,
        "strokeColor": "#e03131",
    },
]

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
<title>Excalidraw</title>
<style>html,body,#app{margin:0;height:100%;overflow:hidden}</style>
<script>window.EXCALIDRAW_ASSET_PATH = "/node_modules/@excalidraw/excalidraw/dist/";</script>
<script src="/node_modules/react/umd/react.production.min.js"></script>
<script src="/node_modules/react-dom/umd/react-dom.production.min.js"></script>
<script src="/node_modules/@excalidraw/excalidraw/dist/excalidraw.production.min.js"></script>
</head><body><div id="app"></div>
<script>
const SCENES = __SCENES__;
const name = new URLSearchParams(location.search).get("scene") || "flow";
const elements = ExcalidrawLib.convertToExcalidrawElements(SCENES[name], {regenerateIds: false});
const App = () => React.createElement(ExcalidrawLib.Excalidraw, {
  initialData: {elements, appState: {viewBackgroundColor: "#ffffff", name: name === "flow" ? "Sign-up flow v2" : "Sprint 14 planning"}, scrollToContent: true},
  UIOptions: {canvasActions: {loadScene: true}},
  excalidrawAPI: (api) => {
    window.excalidrawAPI = api;
    setTimeout(() => api.scrollToContent(undefined, {fitToViewport: true, viewportZoomFactor: 0.85}), 300);
  },
});
ReactDOM.createRoot(document.getElementById("app")).render(React.createElement(App));
</script></body></html>
"""


def main() -> None:
    home, data = Path(sys.argv[1]), Path(sys.argv[2])
    www = data / "www"
    www.mkdir(parents=True, exist_ok=True)
    (www / "index.html").write_text(
        PAGE.replace("__SCENES__", json.dumps({"flow": FLOW, "plan": PLAN}))
    )
    link = www / "node_modules"
    if not link.exists():
        link.symlink_to(home / "node_modules")


if __name__ == "__main__":
    main()

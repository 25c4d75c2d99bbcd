"""Frames in notebooks: an HTML table with thumbnails that fits the output area.

The columns a reader looks for come first (screen, images, copy, errors, timings), more
than a dozen are listed by name rather than squeezed in, cells are shortened with their
full text on hover, and thumbnails are never shrunk to make room. Unknown columns asked
for by name are an error that names them, not silently dropped."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any

import pandas as pd

from .. import columns as C
from ..errors import MissingColumnError
from ..scene import as_scene
from .images import IMAGE_COLUMNS, thumbnail_uri


def _bytes_label(value: bytes | bytearray | memoryview) -> str:
    data = bytes(value[:24])
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        return f"<PNG {int.from_bytes(data[16:20], 'big')}x{int.from_bytes(data[20:24], 'big')}>"
    return f"<{len(value):,} bytes>"


def _cell_text(value: Any, limit: int, column: Any = None) -> str:
    if isinstance(value, float) and str(column).endswith("_confidence") and 0 <= value <= 1:
        return f"{value:.1%}"  # 93.0%, 99.9%: a rounded "1" would read as certainty
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _bytes_label(value)
    if isinstance(value, dict):
        text = json.dumps(value, default=str)
    elif isinstance(value, (list, tuple)):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, float):
        text = f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    else:
        text = str(value)
    if len(text) <= limit:
        return text
    if "/" in text and " " not in text:  # a path or URL: its end says the most
        return "…" + text[-(limit - 1) :]
    return text[: limit - 1] + "…"


def _scene_summary(value: Any) -> str:
    try:
        scene = as_scene(value)
    except (KeyError, TypeError, ValueError):
        return _cell_text(value, 60)
    head = next((t.text for t in scene.texts if t.role == "headline"), "")
    tone = scene.meta.get("tone", "")
    return f"{scene.width}×{scene.height} {tone} · {head!r}"


#: Shown first, in this order, when a frame is shown without ``columns=``: the pictures,
#: which row it is, what went wrong, then what each stage decided. The rest follow.
FIRST_COLUMNS = (
    C.IMAGE,
    C.RENDER_PATH,
    C.RENDER_PNG,
    C.APP_ID,
    C.POSITION,
    C.SCREEN,
    "status",
    "error",
    "seconds",
    "note",
    C.COPY_HEADLINE,
    C.COPY_SUBTITLE,
    C.DOMAIN_CATEGORY,
    C.LAYOUT_SCENE,
)
MAX_AUTO_COLUMNS = 12  # more than this without columns=: the rest are listed by name


def _display_columns(
    frame: pd.DataFrame, columns: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    """(columns to show, columns left out). Unknown names in ``columns`` are an error
    that says which, and what the frame has."""
    if columns is not None:
        columns = [columns] if isinstance(columns, str) else list(columns)
        unknown = [c for c in columns if c not in frame.columns]
        if unknown:
            import difflib

            hints = []
            for c in unknown:
                close = difflib.get_close_matches(str(c), [str(x) for x in frame.columns], n=1)
                hints.append(f"{c!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
            raise MissingColumnError(
                f"show: no column {', '.join(hints)} in this frame. It has: "
                f"{', '.join(map(str, frame.columns))}."
            )
        return columns, []
    ordered = [c for c in FIRST_COLUMNS if c in frame.columns]
    ordered += [c for c in frame.columns if c not in ordered]
    return ordered[:MAX_AUTO_COLUMNS], ordered[MAX_AUTO_COLUMNS:]


def _header(name: str) -> str:
    """A column name that may wrap after its underscores (long names, narrow cells)."""
    return html.escape(str(name)).replace("_", "_<wbr>")


# Thumbnails keep their size (never squeezed by a wide table); text wraps between words
# only (break-word, unlike anywhere, leaves a column at least as wide as its longest word;
# long paths and URLs get break opportunities of their own, see _breakable); the table
# scrolls sideways only as a last resort. Left-aligned with !important, scoped to our
# frame: JupyterLab's `.jp-RenderedHTMLCommon td {text-align: right}` is more specific.
_TABLE_CSS = (
    "<style>"
    ".shotsmith-frame{max-width:100%;overflow-x:auto}"
    ".shotsmith-frame table{border-collapse:collapse;table-layout:auto;width:auto}"
    ".shotsmith-frame th,.shotsmith-frame td{text-align:left!important;vertical-align:top;"
    "white-space:normal;overflow-wrap:break-word;word-break:normal;hyphens:none;"
    "max-width:24em;padding:3px 6px;border-bottom:1px solid rgba(128,128,128,.25)}"
    ".shotsmith-frame td.img{max-width:none}"
    ".shotsmith-frame img{max-width:none!important;height:auto}"
    ".shotsmith-frame .more{color:#666;font-size:90%;margin-top:4px;overflow-wrap:break-word}"
    "</style>"
)

#: A token this long (a path, a URL, a dotted or snake_case name) may break after its
#: separators; shorter ones, and every ordinary word, stay whole.
LONG_TOKEN = 16
_SEPARATORS = re.compile(r"([/_.\\?&=-])")


def _breakable(text: str) -> str:
    """``text`` escaped for HTML, with ``<wbr>`` after the separators of its long tokens
    (paths, URLs, identifiers), so a narrow cell wraps them there and nowhere inside a
    word."""
    parts = re.split(r"(\s+)", text)
    out = []
    for part in parts:
        if len(part) >= LONG_TOKEN and not part.isspace():
            pieces = _SEPARATORS.split(part)
            out.append(
                "".join(
                    html.escape(x, quote=False) + ("<wbr>" if _SEPARATORS.fullmatch(x) else "")
                    for x in pieces
                )
            )
        else:
            out.append(html.escape(part, quote=False))  # element text, never an attribute
    return "".join(out)


def frame_html(
    frame: pd.DataFrame,
    *,
    columns: Sequence[str] | None = None,
    thumb_width: int = 72,
    max_rows: int = 40,
    max_chars: int = 80,
) -> str:
    """An HTML table of a frame of screenshots, image columns as inline thumbnails.

    Without ``columns`` the columns that matter come first (pictures, row, error, copy)
    and past :data:`MAX_AUTO_COLUMNS` the rest are listed by name below the table."""
    cols, rest = _display_columns(frame, columns)
    shown = frame.head(max_rows)
    head = "".join(f"<th>{_header(c)}</th>" for c in cols)
    body = []
    for _, row in shown.iterrows():
        cells = []
        for c in cols:
            value = row[c]
            if c in IMAGE_COLUMNS:
                uri = thumbnail_uri(value, thumb_width)
                label = html.escape(_cell_text(value, 48))
                cells.append(
                    f'<td class="img"><img src="{uri}" width="{thumb_width}" '
                    f'style="width:{thumb_width}px" title="{label}"></td>'
                    if uri
                    else f"<td>{_breakable(_cell_text(value, max_chars))}</td>"
                )
            elif c == C.LAYOUT_SCENE:
                cells.append(f"<td>{_breakable(_scene_summary(value))}</td>")
            else:
                cells.append(f"<td>{_breakable(_cell_text(value, max_chars, c))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    caption = _caption(frame, max_rows, len(cols), len(rest))
    more = (
        f'<div class="more">not shown: {html.escape(", ".join(map(str, rest)))} '
        f"(choose with <code>columns=[...]</code>)</div>"
        if rest
        else ""
    )
    return (
        f'{_TABLE_CSS}<div class="shotsmith-frame"><div><b>{html.escape(caption)}</b></div>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"{more}</div>"
    )


def _caption(frame: pd.DataFrame, max_rows: int, shown: int, hidden: int) -> str:
    sets = frame[C.APP_ID].nunique() if C.APP_ID in frame.columns else None
    caption = f"{len(frame)} rows" + (
        f" in {sets} set{'s' if sets != 1 else ''}" if sets is not None else ""
    )
    if len(frame) > max_rows:
        caption += f", first {max_rows} shown"
    caption += f", {shown} columns" + (f" of {shown + hidden}" if hidden else "")
    return caption


def frame_text(
    frame: pd.DataFrame,
    *,
    columns: Sequence[str] | None = None,
    max_rows: int = 40,
    max_chars: int = 40,
) -> str:
    """A plain-text view of the same table (paths, no pixels), for terminals and diffs."""
    cols, rest = _display_columns(frame, columns)
    data = {}
    for c in cols:
        if c == C.LAYOUT_SCENE:
            data[c] = [_scene_summary(v) for v in frame[c].head(max_rows)]
        else:
            data[c] = [_cell_text(v, max_chars, c) for v in frame[c].head(max_rows)]
    text = pd.DataFrame(data, index=frame.index[:max_rows]).to_string()
    if len(frame) > max_rows:
        text += f"\n... {len(frame) - max_rows} more rows"
    if rest:
        text += f"\nnot shown: {', '.join(map(str, rest))} (choose with columns=[...])"
    return text


class FrameView:
    """What :func:`show` returns for a frame: an HTML table with thumbnails."""

    def __init__(self, frame: pd.DataFrame, **options: Any):
        _display_columns(frame, options.get("columns"))  # unknown columns: say so now
        self.frame = frame
        self.options = options

    def _repr_html_(self) -> str:
        return frame_html(self.frame, **self.options)

    def __repr__(self) -> str:
        opts = {k: v for k, v in self.options.items() if k in ("columns", "max_rows")}
        return frame_text(self.frame, **opts)

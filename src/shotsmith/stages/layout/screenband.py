"""Does a raw screenshot need a status-bar band before it goes into a device frame?

A screenshot taken on a phone (or captured by shotsmith) leaves the top inset to the
status bar: the Dynamic Island and the display's rounded corners cover nothing there. A
raw screenshot of a web page taken without that inset starts its content at the very top,
so once framed, the island sits on the page's title and the corners cut its menu buttons.

:func:`screen_band` looks only at the top rows of the raw screenshot (decoded on their
own, a few milliseconds) where the frame's island (or camera hole) and corners fall. If
page content (edges of text and icons) lies there, the screenshot is shown as iOS would
lay out such a page: below a band as high as the device's top inset, filled with the
page's own top colour, with the status bar drawn in it. ``plan_layout`` records the
result in the scene (``DeviceFrame.screen_band``); ``render`` draws it. A screenshot that
already keeps the inset clear (a status bar, or an empty band) is left exactly as it is.
"""

from __future__ import annotations

import hashlib
import io
import math
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from ...color import to_hex
from ...devices import Device
from ...png import to_rgb
from ...statusbar import top_color

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EDGE = 60  # grey-level step between neighbours that counts as an edge of text or an icon
INK_SHARE = 0.01  # a zone holds content when this share of its pixels are edges
MARGIN_PT = 4.0  # content this close to the island or a corner's curve is hidden too


def read_top_rows(ref: str | Path | bytes, rows: int) -> Image.Image | None:
    """The first ``rows`` rows of a PNG as RGB, decoding only those rows.

    The PNG's first rows are inflated on their own and handed to Pillow as a PNG of
    that height (so every filter, bit depth and palette decodes as usual). ``None`` for
    an interlaced PNG or anything unreadable (the caller then decodes the whole image).
    """
    data = _png_bytes(ref)
    if data is None:
        return None
    pos, header, keep, out = 8, b"", [], bytearray()
    inflate = zlib.decompressobj()
    need = 0
    try:
        while pos + 8 <= len(data):
            length, kind = struct.unpack(">I4s", data[pos : pos + 8])
            body = data[pos + 8 : pos + 8 + length]
            pos += 12 + length
            if kind == b"IHDR":
                header = body
                width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
                if interlace or color not in (0, 2, 3, 4, 6):
                    return None
                channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
                rows = max(1, min(rows, height))
                need = (1 + math.ceil(width * channels * depth / 8)) * rows
            elif kind in (b"PLTE", b"tRNS"):
                keep.append((kind, body))
            elif kind == b"IDAT" and need:
                chunk = body
                while chunk and len(out) < need:
                    piece = inflate.decompress(chunk, need - len(out))
                    out += piece
                    chunk = inflate.unconsumed_tail
                    if not piece:
                        break
                if len(out) >= need:
                    break
            elif kind == b"IEND":
                break
    except (struct.error, zlib.error, KeyError):
        return None
    if not header or len(out) < need or need == 0:
        return None
    head = bytearray(header)
    head[4:8] = struct.pack(">I", rows)

    def chunk_bytes(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    png = PNG_SIGNATURE + chunk_bytes(b"IHDR", bytes(head))
    png += b"".join(chunk_bytes(k, b) for k, b in keep)
    png += chunk_bytes(b"IDAT", zlib.compress(bytes(out[:need]), 1))
    png += chunk_bytes(b"IEND", b"")
    try:
        with Image.open(io.BytesIO(png)) as im:
            im.load()
            return to_rgb(im, png)  # every PNG mode as a viewer shows it (png.to_rgb)
    except (OSError, SyntaxError, ValueError):
        return None


def _edges(gray: np.ndarray) -> np.ndarray:
    """Pixels where the grey level steps by more than EDGE to a neighbour."""
    e = np.zeros(gray.shape, dtype=bool)
    e[:, 1:] |= np.abs(np.diff(gray, axis=1)) > EDGE
    e[1:, :] |= np.abs(np.diff(gray, axis=0)) > EDGE
    return e


#: The top rows last decoded, by (the PNG's digest, rows): planning a set again (the layout
#: tuner, at every slider change) asks for the same rows of the same screenshots.
_DECODED: dict[tuple[bytes, int], tuple[Image.Image, np.ndarray] | None] = {}
DECODED_KEPT = 64
_UNKNOWN = object()


def _top_edges(data: bytes, rows: int) -> tuple[Image.Image, np.ndarray] | None:
    """The first ``rows`` rows of a PNG (:func:`read_top_rows`) and their edges."""
    key = (hashlib.blake2b(data, digest_size=16).digest(), rows)
    known = _DECODED.get(key, _UNKNOWN)
    if known is not _UNKNOWN:
        return known  # type: ignore[return-value]
    top = read_top_rows(data, rows)
    found = None
    if top is not None:
        rgb = np.asarray(top, dtype=np.int32)
        gray = (rgb[..., 0] * 299 + rgb[..., 1] * 587 + rgb[..., 2] * 114) // 1000
        edges = _edges(gray)
        edges.setflags(write=False)  # shared by every caller
        found = top, edges
    if len(_DECODED) >= DECODED_KEPT:
        _DECODED.pop(next(iter(_DECODED)), None)
    _DECODED[key] = found
    return found


def screen_band(
    ref: str | Path | bytes, device: Device, screen_w: int, screen_h: int
) -> dict[str, Any] | None:
    """The band a framed screenshot needs, or None when its top inset is already clear.

    ``device`` is the frame's device and ``screen_w`` x ``screen_h`` its display on the
    canvas (px). Returns ``{"height": px on the canvas, "color": "#rrggbb", "status_bar":
    {...StatusBarStyle fields at the canvas scale}}``.
    """
    if device.top_inset_pt <= 0:
        return None
    data = _png_bytes(ref)
    if data is None or len(data) < 24:
        return None
    src_w, src_h = struct.unpack(">II", data[16:24])
    if not src_w or not src_h:
        return None
    w_pt = device.points[0]
    s = screen_w / w_pt  # canvas px per point
    cover = max(screen_w / src_w, screen_h / src_h)  # how render fits the screenshot
    left = (src_w - screen_w / cover) / 2
    k = s / cover  # source px per point
    inset_rows = math.ceil(device.top_inset_pt * k) + 1
    found = _top_edges(data, inset_rows)
    if found is None:
        return None
    top, edges = found

    def box(x0_pt: float, y0_pt: float, x1_pt: float, y1_pt: float) -> np.ndarray:
        x0 = max(0, int(left + x0_pt * k))
        x1 = min(src_w, int(math.ceil(left + x1_pt * k)))
        y0 = max(0, int(y0_pt * k))
        y1 = min(edges.shape[0], int(math.ceil(y1_pt * k)))
        return edges[y0:y1, x0:x1]

    zones = _hidden_zones(device, box, k)
    if not any(z.size and z.mean() >= INK_SHARE for z in zones):
        return None
    color = top_color(top)
    return {
        "height": round(device.top_inset_pt * s),
        "color": to_hex(color),
        "status_bar": {
            "platform": device.platform,
            "scale": s,
            "inset_pt": device.top_inset_pt,
            "island_pt": list(device.island_pt) if device.island_pt else None,
            "home_button": device.home_button,
            "tablet": device.id.startswith("ipad"),
        },
    }


def _hidden_zones(
    device: Device, box: Callable[[float, float, float, float], np.ndarray], k: float
) -> list[np.ndarray]:
    """The edge pixels the frame would hide: around the island or punch hole, and in the
    rounded top corners (``box`` cuts a rectangle in points; ``k`` source px per point)."""
    w_pt = device.points[0]
    zones: list[np.ndarray] = []
    if device.island_pt:
        iw, ih, it = device.island_pt
        cx = w_pt / 2
        zones.append(
            box(
                cx - iw / 2 - MARGIN_PT,
                it - MARGIN_PT,
                cx + iw / 2 + MARGIN_PT,
                it + ih + MARGIN_PT,
            )
        )
    if device.punch_hole_pt:
        d, t = device.punch_hole_pt
        cx = w_pt / 2
        zones.append(
            box(cx - d / 2 - MARGIN_PT, t - MARGIN_PT, cx + d / 2 + MARGIN_PT, t + d + MARGIN_PT)
        )
    r = device.corner_radius_pt
    if r > 0:
        for right in (False, True):
            x0_pt = w_pt - r if right else 0.0
            zone = box(x0_pt, 0.0, x0_pt + r, min(r, device.top_inset_pt))
            if zone.size:
                ys, xs = np.mgrid[0 : zone.shape[0], 0 : zone.shape[1]]
                x_pt = xs / k + x0_pt
                y_pt = ys / k
                cx_pt = w_pt - r if right else r
                hidden = (x_pt - cx_pt) ** 2 + (y_pt - r) ** 2 > (r - MARGIN_PT) ** 2
                hidden &= (x_pt > cx_pt) if right else (x_pt < cx_pt)
                zones.append(zone[hidden])
    return zones


def _png_bytes(ref: str | Path | bytes) -> bytes | None:
    try:
        if isinstance(ref, (bytes, bytearray, memoryview)):
            data = bytes(ref)
        else:
            with open(ref, "rb") as fh:
                data = fh.read()
    except (OSError, TypeError):
        return None
    return data if data.startswith(PNG_SIGNATURE) else None

"""Text: glyph coverage, shaping (raqm where available), line order, wrapping, fitting.

Everything that measures or draws text goes through here, so layout planning
(measuring) and rendering (drawing) agree to the pixel.

Captions come in every language the stores serve, often mixed ("Face ID" inside an
Arabic line, Hebrew punctuation, a Latin brand in Japanese). No single font covers all
of that, and a missing glyph draws as a box (tofu, ``.notdef``). So a line is split into
*runs*, each set in the first font of the line's own family and then
``data/scripts.json``'s fallback order whose character map (read from the font file
itself) holds every character of the run. Measuring and drawing both go through
:func:`runs`, so what the layout planned is what gets drawn. A line is ordered by the
Unicode bidirectional algorithm (UAX #9) as a whole, as a browser orders it: FriBidi
(the library raqm uses) gives each character its embedding level, the runs are cut where
the font or the level changes and reordered by rule L2, and each run is shaped by raqm in
its own direction, so "ב-20% מהתקציב!" keeps its per cent sign with the number and its
dash with the letter. Fonts are found by :mod:`shotsmith.fonts`.

Wrapping breaks at spaces; Thai, Lao, Khmer and Myanmar, written without spaces between
words, break where ICU's dictionary finds word boundaries; Chinese and Japanese between
characters, never breaking the kinsoku rules (no line starts with 。 or ッ, none ends with
「), Japanese preferring phrase boundaries (after a particle, ICU's ``lw=phrase``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import json
import logging
import struct
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from PIL import ImageDraw, ImageFont, features

from . import fonts
from .errors import ShotsmithError, ToolMissingError
from .fonts import WEIGHT_NAMES

log = logging.getLogger("shotsmith.text")


@functools.lru_cache(maxsize=1)
def _scripts() -> dict:
    """``data/scripts.json``: which Noto family covers which script, the fallback order,
    the kinsoku tables and the caption limits of unspaced scripts."""
    text = resources.files("shotsmith").joinpath("data/scripts.json").read_text("utf-8")
    return json.loads(text)


# Scripts Inter does not cover, and the Noto family that does (Debian fonts-noto-core/-cjk).
SCRIPT_FAMILIES: dict[str, str] = dict(_scripts()["script_families"])
RTL_SCRIPTS = frozenset(_scripts()["rtl_scripts"])
FALLBACK_FAMILIES: tuple[str, ...] = tuple(_scripts()["fallback_families"])


@functools.lru_cache(maxsize=1)
def has_raqm() -> bool:
    return bool(features.check("raqm"))


def _layout_engine() -> ImageFont.Layout:
    return ImageFont.Layout.RAQM if has_raqm() else ImageFont.Layout.BASIC


def script_of(text: str) -> str:
    """The first non-Latin script in ``text`` that needs another font, or "LATIN"."""
    for ch in text:
        if ord(ch) < 0x0370:
            continue
        try:
            name = unicodedata.name(ch)
        except ValueError:
            continue
        first = name.split(" ")[0]
        if first in SCRIPT_FAMILIES:
            return first
        if "CJK" in name:
            return "CJK"
    return "LATIN"


def full_stops(text: str) -> str | None:
    """The marks that end a sentence in ``text``'s script when ``data/scripts.json`` lists
    the script (Khmer ។, Myanmar ။; "" for Thai and Lao, which have none), else None."""
    script = script_of(text)
    stops = _scripts()["full_stops"]
    return str(stops[script]) if script in stops and not script.startswith("_") else None


def paragraph_rtl(text: str) -> bool:
    """True when the first strongly directional character of ``text`` is right-to-left."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def caption_origin(align: str, x: int, text: str, canvas_width: int) -> tuple[int, str]:
    """Where a caption line is drawn from and Pillow's anchor for it: centred on ``x``, or
    from the left margin ``x``; right-to-left text in a left-aligned template starts at the
    mirrored margin. Layout measures the ink and render draws it from the same origin."""
    if align == "center":
        return x, "ms"
    if paragraph_rtl(text):
        return canvas_width - x, "rs"
    return x, "ls"


@functools.lru_cache(maxsize=64)
def find_font(family: str, weight: int = 400, *, fallback: bool = True) -> str:
    """Path of an installed font file for ``family`` at the nearest available weight
    (``fallback``: else Inter, else DejaVu Sans). Where fonts are looked for:
    :mod:`shotsmith.fonts`."""
    path = fonts.locate(family, weight)
    if path is not None:
        return path
    if fallback and family != "DejaVu Sans":
        fallback_family = "Inter" if family not in ("Inter", "Noto Sans") else "DejaVu Sans"
        try:
            return find_font(fallback_family, weight)
        except ShotsmithError:
            pass
    raise fonts.missing_font_error(family, weight)


def font_for(text: str, family: str, weight: int) -> str:
    """Font path for ``family``, switched to a Noto family when the text's script needs it."""
    script = script_of(text)
    if script != "LATIN":
        try:
            return find_font(SCRIPT_FAMILIES[script], 700 if weight >= 600 else 400)
        except ShotsmithError:
            pass
    return find_font(family, weight)


@functools.lru_cache(maxsize=256)
def load_font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, layout_engine=_layout_engine())


# --------------------------------------------------------------------------------------
# Glyph coverage: the character map of a font file, read once
# --------------------------------------------------------------------------------------


def _cmap_table(data: bytes, index: int = 0) -> bytes | None:
    offset = 0
    if data[:4] == b"ttcf":  # a collection: the first font's table directory
        (offset,) = struct.unpack_from(">I", data, 12 + 4 * index)
    num_tables = struct.unpack_from(">H", data, offset + 4)[0]
    for i in range(num_tables):
        tag, _, start, length = struct.unpack_from(">4sIII", data, offset + 12 + 16 * i)
        if tag == b"cmap":
            return data[start : start + length]
    return None


def _format4(t: bytes, at: int) -> set[int]:
    seg = struct.unpack_from(">H", t, at + 6)[0] // 2
    ends = struct.unpack_from(f">{seg}H", t, at + 14)
    starts = struct.unpack_from(f">{seg}H", t, at + 16 + 2 * seg)
    deltas = struct.unpack_from(f">{seg}h", t, at + 16 + 4 * seg)
    ro_at = at + 16 + 6 * seg
    ranges = struct.unpack_from(f">{seg}H", t, ro_at)
    out: set[int] = set()
    for i in range(seg):
        for c in range(starts[i], ends[i] + 1):
            if c == 0xFFFF:
                continue
            if ranges[i] == 0:
                gid = (c + deltas[i]) & 0xFFFF
            else:
                addr = ro_at + 2 * i + ranges[i] + 2 * (c - starts[i])
                gid = struct.unpack_from(">H", t, addr)[0] if addr + 2 <= len(t) else 0
                gid = (gid + deltas[i]) & 0xFFFF if gid else 0
            if gid:
                out.add(c)
    return out


def _format12(t: bytes, at: int) -> set[int]:
    groups = struct.unpack_from(">I", t, at + 12)[0]
    out: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">III", t, at + 16 + 12 * g)
        out.update(range(start + (1 if glyph == 0 else 0), end + 1))
    return out


@functools.lru_cache(maxsize=64)
def covered(path: str) -> frozenset[int]:
    """The code points a font file maps to a real glyph (not ``.notdef``)."""
    data = Path(path).read_bytes()
    table = _cmap_table(data)
    if table is None:
        return frozenset()
    n = struct.unpack_from(">H", table, 2)[0]
    subtables = [struct.unpack_from(">HHI", table, 4 + 8 * i) for i in range(n)]
    best: set[int] = set()
    for platform, encoding, at in subtables:
        if platform not in (0, 3) or (platform == 3 and encoding not in (1, 10)):
            continue
        fmt = struct.unpack_from(">H", table, at)[0]
        chars = _format12(table, at) if fmt == 12 else _format4(table, at) if fmt == 4 else set()
        if len(chars) > len(best):
            best = chars
    return frozenset(best)


def _needs_glyph(ch: str) -> bool:
    """Controls and format characters (ZWJ, bidi marks) have no glyph of their own."""
    return unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp")


def missing_glyphs(text: str, path: str) -> list[str]:
    """Characters of ``text`` the font at ``path`` would draw as ``.notdef`` (tofu)."""
    have = covered(path)
    return [ch for ch in text if _needs_glyph(ch) and ord(ch) not in have]


def _weight_of(path: str) -> int:
    stem = Path(path).stem.lower()
    for weight, name in sorted(WEIGHT_NAMES.items(), key=lambda kv: -len(kv[1])):
        if stem.endswith(name.lower()):
            return weight
    return 400


@functools.lru_cache(maxsize=64)
def _fallbacks(path: str) -> tuple[str, ...]:
    """The font files tried after ``path``, at its weight, in ``scripts.json`` order."""
    weight = _weight_of(path)
    out: list[str] = []
    for family in FALLBACK_FAMILIES:
        try:
            found = find_font(family, weight, fallback=False)
        except ShotsmithError:
            continue
        if found != path and found not in out:
            out.append(found)
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def runs(text: str, path: str) -> tuple[tuple[str, str], ...]:
    """``text`` split into (run, font path) pieces, each set in a font that has its glyphs.

    A character stays in the current run when the run's font has it (spaces and
    punctuation join their neighbours, combining marks their base); otherwise the
    line's own font, then the fallback fonts, are tried in order. A character no
    installed font has is left out (and logged) rather than drawn as a box.
    """
    out: list[list[str]] = []
    chain = (path, *_fallbacks(path))
    for ch in text:
        if not _needs_glyph(ch):
            if out:
                out[-1][0] += ch
            continue
        current = out[-1][1] if out else None
        if current is not None and ord(ch) in covered(current):
            out[-1][0] += ch
            continue
        font = next((f for f in chain if ord(ch) in covered(f)), None)
        if font is None:
            family = SCRIPT_FAMILIES.get(script_of(ch), "Noto Sans")
            log.warning(
                "text: no installed font has %r (U+%04X); it is left out. Font %r has it: %s.",
                ch,
                ord(ch),
                family,
                fonts.install_hint(family),
            )
            continue
        if current == font:
            out[-1][0] += ch
        elif ch.isspace() and out:
            out[-1][0] += ch
        else:
            out.append([ch, font])
    return tuple((t, f) for t, f in out) or (("", path),)


# --------------------------------------------------------------------------------------
# Direction: the Unicode bidirectional algorithm over the whole line
# --------------------------------------------------------------------------------------


class _FriBidi:
    """GNU FriBidi's paragraph levels (the library raqm itself runs), through ctypes."""

    PAR_ON = 0x40  # FRIBIDI_PAR_ON: the first strong character decides (rules P2, P3)
    PAR_LTR, PAR_RTL = 0x110, 0x111

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        lib.fribidi_get_bidi_types.restype = None
        lib.fribidi_get_bracket_types.restype = None
        lib.fribidi_get_par_embedding_levels_ex.restype = ctypes.c_int8

    def levels(self, text: str, rtl: bool | None) -> list[int] | None:
        """The levels, or None when FriBidi could not resolve them."""
        n = len(text)
        chars = (ctypes.c_uint32 * n)(*map(ord, text))
        types = (ctypes.c_uint32 * n)()
        brackets = (ctypes.c_uint32 * n)()
        levels = (ctypes.c_int8 * n)()
        self.lib.fribidi_get_bidi_types(chars, n, types)
        self.lib.fribidi_get_bracket_types(chars, n, types, brackets)
        base = ctypes.c_uint32(
            self.PAR_ON if rtl is None else self.PAR_RTL if rtl else self.PAR_LTR
        )
        ok = self.lib.fribidi_get_par_embedding_levels_ex(
            types, brackets, n, ctypes.byref(base), levels
        )
        return list(levels) if ok else None


@functools.lru_cache(maxsize=1)
def _fribidi() -> _FriBidi | None:
    names = ["libfribidi.so.0", "libfribidi.0.dylib", "fribidi-0.dll", "libfribidi-0.dll"]
    found = ctypes.util.find_library("fribidi")
    for name in [found, *names] if found else names:
        try:
            return _FriBidi(ctypes.CDLL(name))
        except (OSError, AttributeError):
            continue
    return None


def _simple_levels(text: str, rtl: bool) -> list[int]:
    """Levels without FriBidi (then there is no raqm either): rules W2, W4, W5, W7, N1, N2
    and I1, I2 of UAX #9 for one line without explicit embeddings or brackets."""
    kinds = [unicodedata.bidirectional(ch) for ch in text]
    last = "R" if rtl else "L"
    for i, kind in enumerate(kinds):  # W2: digits after Arabic letters are Arabic numbers
        if kind in ("R", "AL", "L"):
            last = kind
        elif kind == "EN" and last == "AL":
            kinds[i] = "AN"
    for i in range(1, len(kinds) - 1):  # W4: 1,000 and 10-20 are one number
        if kinds[i] in ("ES", "CS") and kinds[i - 1] == kinds[i + 1] == "EN":
            kinds[i] = "EN"
        elif kinds[i] == "CS" and kinds[i - 1] == kinds[i + 1] == "AN":
            kinds[i] = "AN"
    for i in range(1, len(kinds)):  # W5: "20%" and "$5", the sign goes with the number
        if kinds[i] == "ET" and kinds[i - 1] == "EN":
            kinds[i] = "EN"
    for i in range(len(kinds) - 2, -1, -1):
        if kinds[i] == "ET" and kinds[i + 1] == "EN":
            kinds[i] = "EN"
    strong: list[str | None] = []
    last = "R" if rtl else "L"
    for kind in kinds:
        if kind in ("R", "AL", "L"):
            last = "L" if kind == "L" else "R"
        if kind == "L" or (kind == "EN" and last == "L"):  # W7: "iOS 18" is left-to-right
            strong.append("L")
        elif kind in ("R", "AL", "EN", "AN"):  # numbers count as right-to-left (N1)
            strong.append("R")
        else:
            strong.append(None)
    base = "R" if rtl else "L"
    levels = []
    for i, direction in enumerate(strong):
        if direction is None:  # N1, N2: a neutral between two of one direction takes it
            before = next((d for d in reversed(strong[:i]) if d), base)
            after = next((d for d in strong[i + 1 :] if d), base)
            direction = before if before == after else base
        number = kinds[i] in ("EN", "AN")
        if rtl:  # I2
            levels.append(1 if direction == "R" and not number else 2)
        else:  # I1
            levels.append(0 if direction == "L" else 2 if number else 1)
    return levels


# Characters that can make a line anything but one left-to-right run.
_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN", "RLE", "RLO", "RLI", "LRE", "LRO", "LRI", "FSI"})


def bidi_levels(text: str, rtl: bool | None = None) -> list[int]:
    """The embedding level of each character of one line (UAX #9): even runs are drawn
    left to right, odd ones right to left. ``rtl`` sets the paragraph direction; None
    takes it from the first strong character, as a browser's ``dir="auto"`` does."""
    if not text:
        return []
    if not rtl and not any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text):
        return [0] * len(text)  # nothing to reorder: the common case, kept cheap
    bidi = _fribidi()
    found = bidi.levels(text, rtl) if bidi is not None else None
    if found is not None:
        return found
    return _simple_levels(text, paragraph_rtl(text) if rtl is None else rtl)


@dataclass(frozen=True)
class VisualRun:
    """A piece of a line in one font file and one direction, in drawing order."""

    text: str
    path: str
    size: int
    rtl: bool

    @property
    def font(self) -> ImageFont.FreeTypeFont:
        return load_font(self.path, self.size)

    @property
    def direction(self) -> str | None:
        if not has_raqm():
            return None
        return "rtl" if self.rtl else "ltr"

    @property
    def drawn(self) -> str:
        """The text as handed to Pillow: without raqm a right-to-left run is reversed here."""
        return self.text if has_raqm() or not self.rtl else self.text[::-1]

    def width(self) -> float:
        return self.font.getlength(self.drawn, direction=self.direction)


def visual_runs(
    text: str, font: ImageFont.FreeTypeFont, rtl: bool | None = None
) -> tuple[VisualRun, ...]:
    """``text`` as drawn, left to right: split where the font or the embedding level
    changes, then ordered by rule L2 of the bidirectional algorithm (from the highest
    level down to the lowest odd one, every stretch at that level or above reversed)."""
    return _visual_runs(text, str(font.path), int(font.size), rtl)


@functools.lru_cache(maxsize=4096)  # keyed by file and size: no font object is kept alive
def _visual_runs(text: str, path: str, size: int, rtl: bool | None) -> tuple[VisualRun, ...]:
    pieces_: list[tuple[str, str, int]] = []
    levels = bidi_levels(text, rtl)
    at = 0
    for t, f in runs(text, path):
        for ch in t:
            while text[at] != ch:  # a character no font has was left out of the runs
                at += 1
            level = levels[at]
            at += 1
            if pieces_ and pieces_[-1][1] == f and pieces_[-1][2] == level:
                pieces_[-1] = (pieces_[-1][0] + ch, f, level)
            else:
                pieces_.append((ch, f, level))
    if not pieces_:
        return (VisualRun(text, path, size, False),)
    order = list(range(len(pieces_)))
    run_levels = [p[2] for p in pieces_]
    odd = [v for v in run_levels if v % 2]
    for level in range(max(run_levels), min(odd) - 1 if odd else max(run_levels) + 1, -1):
        i = 0
        while i < len(order):
            if run_levels[order[i]] >= level:
                j = i
                while j < len(order) and run_levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return tuple(
        VisualRun(pieces_[k][0], pieces_[k][1], size, pieces_[k][2] % 2 == 1) for k in order
    )


def _visual(text: str, font: ImageFont.FreeTypeFont) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """Runs in drawing order as (text, font) pairs."""
    return [(r.text, r.font) for r in visual_runs(text, font)]


def text_width(text: str, font: ImageFont.FreeTypeFont, rtl: bool | None = None) -> float:
    """The advance of ``text`` drawn by :func:`draw_line`."""
    return _text_width(text, str(font.path), int(font.size), rtl)


@functools.lru_cache(maxsize=8192)  # fitting measures the same pieces many times over
def _text_width(text: str, path: str, size: int, rtl: bool | None) -> float:
    return sum(r.width() for r in _visual_runs(text, path, size, rtl))


def draw_line(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: object,
    anchor: str = "ls",
    rtl: bool | None = None,
) -> None:
    """Draw one line at ``xy`` (anchor ``ls``, ``ms`` or ``rs``), each run in a font that
    has its glyphs and in the order the bidirectional algorithm gives; measured exactly
    as :func:`text_width` measures it. ``rtl``: the paragraph's direction, for a line of a
    wrapped caption (None: the line's own first strong letter decides)."""
    parts = visual_runs(text, font, rtl)
    x, y = xy
    widths = [r.width() for r in parts]
    total = sum(widths)
    left = x - total / 2 if anchor[0] == "m" else x - total if anchor[0] == "r" else x
    for run, w in zip(parts, widths):
        draw.text(
            (left, y),
            run.drawn,
            font=run.font,
            fill=fill,  # type: ignore[arg-type]
            anchor="l" + anchor[1],
            direction=run.direction,
        )
        left += w


# --------------------------------------------------------------------------------------
# Wrapping: at spaces, and between characters of scripts written without them
# --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _kinsoku() -> tuple[frozenset[str], frozenset[str]]:
    table = _scripts()["kinsoku"]
    return frozenset(table["no_line_start"]), frozenset(table["no_line_end"])


def _breaks_anywhere(ch: str) -> bool:
    """Characters a line may break before or after without a space (CJK, kana, Hangul
    syllables in Japanese-style setting are kept as words)."""
    cp = ord(ch)
    return (
        0x3000 <= cp <= 0x30FF  # CJK punctuation, hiragana, katakana
        or 0x3400 <= cp <= 0x4DBF
        or 0x4E00 <= cp <= 0x9FFF
        or 0xF900 <= cp <= 0xFAFF
        or 0xFF00 <= cp <= 0xFFEF
        or 0x20000 <= cp <= 0x3FFFF
    )


@functools.lru_cache(maxsize=1)
def _line_breaker() -> type:
    try:
        from icu4py.breakers import LineBreaker
    except ImportError as exc:  # a dependency of shotsmith: only a broken install lacks it
        raise ToolMissingError(
            "line breaking of Thai, Lao, Khmer, Myanmar and Japanese needs ICU: pip install icu4py"
        ) from exc
    return LineBreaker


@functools.lru_cache(maxsize=1024)
def icu_line_units(text: str, locale: str) -> tuple[str, ...]:
    """``text`` cut at ICU's line-break opportunities for ``locale`` (its dictionary
    finds the words of scripts written without spaces; ``ja@lw=phrase`` cuts Japanese
    into phrases)."""
    return tuple(_line_breaker()(text, locale))


def dictionary_locale(word: str) -> str | None:
    """The ICU locale whose dictionary breaks ``word`` (a word in Thai, Lao, Khmer or
    Myanmar, ``data/scripts.json``'s ``dictionary_break_scripts``), or None."""
    table = _scripts()["dictionary_break_scripts"]
    for ch in word:
        if ord(ch) >= 0x0E00:
            locale = table.get(unicodedata.name(ch, "").split(" ")[0])
            if locale:
                return str(locale)
    return None


def _cjk_units(word: str) -> list[str]:
    """One space-free word of CJK (or Latin) text cut between CJK characters, except that
    a character that may not start a line sticks to the one before and one that may not
    end a line to the one after (kinsoku); Latin words inside CJK stay whole."""
    no_start, no_end = _kinsoku()
    out: list[str] = []
    glue_next = False
    for ch in word:
        starts_new = not out or _breaks_anywhere(ch) or _breaks_anywhere(out[-1][-1])
        if out and (glue_next or ch in no_start):
            starts_new = False
        if starts_new:
            out.append(ch)
        else:
            out[-1] += ch
        glue_next = ch in no_end
    return out


def unspaced_limit(text: str, role: str) -> int:
    """The most graphemes a ``role`` ("headline" or "subtitle") in a script written
    without spaces may have: full-width CJK characters count about two Latin letters,
    Thai, Lao, Khmer and Myanmar letters about one (``data/scripts.json``)."""
    limits = _scripts()["copy_limits"]
    kind = "dictionary" if dictionary_locale(text) else "unspaced"
    return int(limits[f"{kind}_{role}_max"])


def length_hint(text: str, role: str) -> str:
    """How long a ``role`` ("headline" or "subtitle") in ``text``'s script should be, for
    an error message: words for spaced scripts, characters for the others."""
    unspaced = dictionary_locale(text) or any(_breaks_anywhere(ch) for ch in text)
    if unspaced:
        return f"at most {unspaced_limit(text, role)} characters in this script"
    return "2-6 words" if role == "headline" else "under 60 characters"


def pieces(text: str) -> list[str]:
    """The units a line may break between, each with its trailing space.

    Spaced text breaks at spaces; Thai, Lao, Khmer and Myanmar words at ICU's dictionary
    word boundaries; CJK text between any two characters, keeping the kinsoku rules.
    """
    out: list[str] = []
    for word in text.split():
        locale = dictionary_locale(word)
        units = list(icu_line_units(word, locale)) if locale else _cjk_units(word)
        units[-1] += " "
        out += units
    if out:
        out[-1] = out[-1].rstrip()
    return out


@functools.lru_cache(maxsize=256)
def _japanese_phrase_cuts(text: str) -> frozenset[int] | None:
    """Offsets in ``text`` between Japanese phrases (ICU's ``lw=phrase``), or None for
    text without kana."""
    if not any(0x3040 <= ord(ch) <= 0x30FF for ch in text):
        return None
    cuts, at = set(), 0
    for unit in icu_line_units(text, "ja@lw=phrase"):
        at += len(unit)
        cuts.add(at)
    return frozenset(cuts)


def _phrase_boundary(first: str, second: str) -> bool:
    """A CJK break that falls between phrases: after 、 or a closing bracket, before an
    opening one ("予定を|「ひと目で」"), or after a case particle ("受信箱を|すっきり")."""
    if not first or not second or first[-1] == " ":
        return False
    a, b = first[-1], second[0]
    if not (_breaks_anywhere(a) or _breaks_anywhere(b)):
        return False
    if a in "、，,」』）】" or b in "「『（【":
        return True
    # after a Japanese case particle before a new word ("受信箱を|すっきり整理")
    return a in _scripts()["kinsoku"]["phrase_end_particles"] and len(first) >= 3 and b not in "ー"


def _join(parts: Sequence[str]) -> str:
    return "".join(parts).strip()


def wrap_balanced(
    text: str, font: ImageFont.FreeTypeFont, max_width: float, max_lines: int = 2
) -> list[str] | None:
    """Wrap ``text`` into at most ``max_lines`` lines no wider than ``max_width``.

    One line when it fits; otherwise the split whose longest line is shortest
    (balanced), never leaving a single orphan word on the last line when the
    text has four or more words. CJK text breaks between characters (kinsoku rules
    kept). Returns None when it cannot fit.
    """
    words = pieces(text)
    if not words:
        return [""]
    if text_width(_join(words), font) <= max_width:
        return [_join(words)]
    if max_lines < 2 or len(words) < 2:
        return None
    best: tuple[float, list[str]] | None = None
    phrase_cuts = _japanese_phrase_cuts("".join(words))
    for cut in range(1, len(words)):
        lines = [_join(words[:cut]), _join(words[cut:])]
        # between phrases: after a particle, 、 or a bracket (0.12), or where ICU's
        # Japanese phrase model cuts (0.1: it also cuts inside compounds, 進み|具合)
        phrase = 0.12 if _phrase_boundary(lines[0], lines[1]) else 0.0
        if phrase_cuts is not None and len("".join(words[:cut])) in phrase_cuts:
            phrase += 0.1
        widths = [text_width(s, font) for s in lines]
        if max(widths) > max_width:
            continue
        orphan = len(words) >= 4 and (cut == len(words) - 1 or cut == 1)
        # balanced: minimise the longest line; a slightly longer top line reads better
        score = (
            max(widths)
            + (max_width if orphan else 0)
            + (0.02 * max_width if widths[0] < widths[1] else 0)
            - phrase * max_width
        )
        if best is None or score < best[0]:
            best = (score, lines)
    if best is not None:
        return best[1]
    if max_lines >= 3:
        for cut in range(1, len(words) - 1):
            head = _join(words[:cut])
            if text_width(head, font) <= max_width:
                rest = wrap_balanced(_join(words[cut:]), font, max_width, max_lines - 1)
                if rest is not None:
                    return [head, *rest]
    return None


@dataclass(frozen=True)
class FittedText:
    size: int
    lines: list[str]


def fit_size(
    texts: Sequence[str],
    family: str,
    weight: int,
    max_width: float,
    max_lines: int,
    largest: int,
    smallest: int,
) -> int | None:
    """Largest size in [smallest, largest] at which every text wraps into ``max_lines``."""
    lo, hi, found = smallest, largest, None
    while lo <= hi:  # wrapping is monotone in size: binary search
        mid = (lo + hi) // 2
        if all(
            wrap_balanced(t, load_font(font_for(t, family, weight), mid), max_width, max_lines)
            is not None
            for t in texts
        ):
            found, lo = mid, mid + 1
        else:
            hi = mid - 1
    return found


def line_metrics(font: ImageFont.FreeTypeFont) -> tuple[int, int]:
    """(ascent, descent) in px of a font at its size."""
    return font.getmetrics()


def ink_box(
    text: str,
    font: ImageFont.FreeTypeFont,
    x: float,
    baseline: float,
    anchor: str,
    rtl: bool | None = None,
) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the pixels ``text`` covers when drawn at ``anchor``."""
    total, parts = _ink_runs(text, str(font.path), int(font.size), anchor[1], rtl)
    cursor = x - total / 2 if anchor[0] == "m" else x - total if anchor[0] == "r" else x
    boxes = []
    for left, top, right, bottom, width in parts:
        boxes.append((cursor + left, baseline + top, cursor + right, baseline + bottom))
        cursor += width
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


@functools.lru_cache(maxsize=4096)  # a re-plan measures the same caption lines again
def _ink_runs(
    text: str, path: str, size: int, vertical: str, rtl: bool | None
) -> tuple[float, tuple[tuple[float, float, float, float, float], ...]]:
    """The advance of ``text`` and, per visual run, its ink box from its pen position (at
    vertical anchor ``vertical``) and its advance."""
    parts = _visual_runs(text, path, size, rtl)
    total = sum(r.width() for r in parts)
    measured = []
    for run in parts:
        left, top, right, bottom = run.font.getbbox(
            run.drawn, anchor="l" + vertical, direction=run.direction
        )
        measured.append((left, top, right, bottom, run.width()))
    return total, tuple(measured)

"""extract_features: what each screen shows, read as a copywriter would, and the set's colours.

Per screenshot the stage writes the screen's evidence by role (title, headings, tabs,
actions, labels, numbers; :mod:`.evidence`: from the DOM's roles when capture recorded
them, else from OCR lines with boxes, else from the visible text), a *screen intent*
from a broad vocabulary (:mod:`.intent`), a short phrase of what the screen offers in its
own words and up to eight salient keywords. From the pixels it writes each screenshot's
colours, one accent colour for the whole set (flat interface colour first: headers and
buttons, not photos; ``color.accent_of``) and whether the set's UI is mostly dark.

Every image is decoded once (in two worker threads; decoding and Tesseract both release
the GIL), reduced to half size, analysed and dropped: no pixels stay in the frame.
"""

from __future__ import annotations

import logging
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd
from PIL import Image

from ... import ocr as ocr_mod
from ... import progress
from ...color import (
    DEFAULT_ACCENT,
    accent_of,
    hue_distance,
    image_colors,
    is_dark_image,
    saturation,
)
from ...columns import (
    APP_ID,
    DOMAIN_CATEGORY,
    FEATURES_ACCENT,
    FEATURES_ACTIONS,
    FEATURES_COLORS,
    FEATURES_DARK_UI,
    FEATURES_EVIDENCE,
    FEATURES_EXAMPLES,
    FEATURES_FIELDS,
    FEATURES_HEADINGS,
    FEATURES_INTENT,
    FEATURES_KEYWORDS,
    FEATURES_KIND,
    FEATURES_LABELS,
    FEATURES_NUMBERS,
    FEATURES_PHRASE,
    FEATURES_SUBJECT,
    FEATURES_SUBJECT_FROM,
    FEATURES_TABS,
    FEATURES_TEXT,
    FEATURES_TEXT_SOURCE,
    FEATURES_TITLE,
    IMAGE,
    LOCALE,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_ELEMENTS,
    SCREEN_TEXT,
    SCREEN_TITLE,
    stage,
)
from ...errors import InvalidOptionError
from ...io import open_image
from ...words import is_word, without_icons, word_frequency
from . import evidence as reader
from .intent import keywords_of, screen_intent, screen_phrase
from .reading import Reading, is_person, read_screens

log = logging.getLogger("shotsmith")

# --------------------------------------------------------------------------------------
# The stage
# --------------------------------------------------------------------------------------


@dataclass
class _Pixels:
    colors: list[tuple[str, float]]
    dark: bool
    ocr: ocr_mod.OCRResult | None = None
    flat: list[tuple[str, float]] | None = None  # colours of flat areas only (the interface)
    height: int = 0  # the screenshot's height in px
    width: int = 0  # and its width
    read_height: int = 0  # the height of the image OCR read (half size for large ones)
    deep: Image.Image | None = None  # the long band (top to DEEP_BOTTOM), prepared, until read
    lower_at: int = 0  # where the band below the top one starts in it, in px


def _set_accent(screens: list[_Pixels | None]) -> str:
    """The set's accent: the app's own flat interface colour (headers, buttons, tab bars)
    that recurs across its screens, not a colour of pictures inside it (book covers,
    photos); the colours of whole screenshots when the interface has none."""
    shown = [p for p in screens if p is not None]
    if not shown:
        return DEFAULT_ACCENT
    for palette in ([p.flat or [] for p in shown], [p.colors for p in shown]):
        merged: dict[str, float] = {}  # the same colour in several screenshots adds up
        for colors in palette:
            for c, share in colors:
                merged[c] = merged.get(c, 0.0) + share / len(shown)

        def presence(color: str, palette: list = palette) -> float:
            near = sum(
                any(hue_distance(color, c) <= HUE_MATCH and saturation(c) >= 0.28 for c, _ in cs)
                for cs in palette
            )
            return near / len(palette)

        ranked = sorted(merged.items(), key=lambda kv: -kv[1])
        found = accent_of(ranked, presence if len(shown) > 1 else None)
        if found:
            return found
    return DEFAULT_ACCENT


#: Hues this close (degrees) count as the same colour on another screen.
HUE_MATCH = 18.0
#: A screen whose DOM holds fewer words than this (and some) is read from its pixels too:
#: a page that draws its text on a canvas shows more than its DOM says. The pixels' reading
#: is taken when it has twice the DOM's words (and ``ocr.SPARSE_WORDS`` at least); on the
#: real apps' corpus no page with DOM text reads more from its top band, so only pages
#: that draw their text change.
THIN_DOM_WORDS = 20
#: A word of three letters or more: what counts as something said.
_WORD = re.compile(r"[^\W\d_]{3,}")


def _ocr_mode(ocr: bool | str) -> bool | None:
    """True: required; None: when installed; False: off."""
    if ocr is True or (
        isinstance(ocr, str) and ocr.lower() in ("on", "true", "always", "required")
    ):
        return True
    if (
        ocr is False
        or ocr is None
        or (isinstance(ocr, str) and ocr.lower() in ("off", "false", "never", "no"))
    ):
        return False
    if isinstance(ocr, str) and ocr.lower() == "auto":
        return None
    raise InvalidOptionError(
        f"extract_features: ocr={ocr!r} is not understood; use 'auto', True or False."
    )


def _analyse(refs: list, want_ocr: list[bool], lang: str, binary: str | None) -> list[_Pixels]:
    """Decode each image once, measure colours, then OCR (one tesseract call) those that need it."""
    out: list[_Pixels] = []
    prepared: list[Image.Image] = []
    prepared_at: list[int] = []
    deep: dict[int, Image.Image] = {}  # the longer band, read again if the first is sparse
    for ref, need in zip(refs, want_ocr):
        img = open_image(ref)  # InputImageError names the image when it cannot be decoded
        half = img.reduce(2) if min(img.size) >= 400 else img
        dark = is_dark_image(half)
        full_height = img.size[1]
        out.append(
            _Pixels(
                image_colors(half),
                dark,
                flat=image_colors(half, flat=True),
                height=full_height,
                width=img.size[0],
                read_height=half.size[1],
            )
        )
        if need and binary:
            band = (ocr_mod.BAND_TOP, ocr_mod.DEEP_BOTTOM)  # the long band, the top one in it
            long = ocr_mod.prepare(half.convert("L"), dark=dark, scale=1, band=band)
            h = half.size[1]
            lower_at = int(h * ocr_mod.BAND_BOTTOM) - int(h * band[0])
            prepared.append(long.crop((0, 0, long.width, lower_at)))
            prepared_at.append(len(out) - 1)
            deep[len(out) - 1] = out[-1].deep = long
            out[-1].lower_at = lower_at
        else:
            progress.advance()  # nothing to read: this screenshot is done
        del half, img
    if prepared:
        read = ocr_mod.recognize(prepared, lang=lang, binary=binary, on_page=_done_unless_sparse)
        for i, res in zip(prepared_at, read):
            out[i].ocr = res
        _read_deeper(out, deep, lang, binary)
    return out


#: Kinds whose screens say what they are for without items (a sign-in form).
_NO_ITEMS_NEEDED = frozenset(["sign-in"])


def _thin(readings: list[Reading], pixels: list[_Pixels | None], sources: list[str]) -> list[int]:
    """Screens read by OCR from the top band only whose reading found at most one item
    and one field: a list whose items, a calendar whose days, a map whose places sit
    lower down."""
    return [
        i
        for i, (r, px, source) in enumerate(zip(readings, pixels, sources))
        if source == "ocr"
        and px is not None
        and px.deep is not None
        and len(r.examples) < 2
        and len(r.fields) < 2
        and r.kind not in _NO_ITEMS_NEEDED
    ]


def _read_further(
    pixels: list[_Pixels | None], rows: list[int], lang: str, binary: str | None, workers: int
) -> list[int]:
    """Read the screens ``rows`` below their top band, down to ``ocr.DEEP_BOTTOM`` (``workers``
    readers side by side), and add those lines to each screen's reading; the rows read."""
    shown: list[tuple[int, _Pixels, Image.Image]] = []
    for i in rows:
        px = pixels[i]
        if px is not None and px.deep is not None:  # the band below the top one, cut from it
            shown.append((i, px, px.deep.crop((0, px.lower_at, px.deep.width, px.deep.height))))
    if not shown or binary is None:
        return []
    kept = []
    bands = [band for _, _, band in shown]
    read = ocr_mod.recognize_many(bands, workers=workers, lang=lang, binary=binary)
    for (i, px, _), res in zip(shown, read):
        if not res.error and px.ocr is not None and not px.ocr.error and res.words:
            px.ocr = _below(px.ocr, res, px.lower_at)
            kept.append(i)
    return kept


def _below(upper: ocr_mod.OCRResult, lower: ocr_mod.OCRResult, at: int) -> ocr_mod.OCRResult:
    """One reading of a screen from its top band and the band below it (``at`` px lower)."""
    return ocr_mod.OCRResult(
        text="\n".join(t for t in (upper.text, lower.text) if t),
        title=upper.title,
        words=upper.words + lower.words,
        lines=[*upper.lines, *lower.lines],
        boxes=[*upper.boxes, *(replace(b, top=b.top + at) for b in lower.boxes)],
    )


# Progress: a screenshot read by OCR is done once its reading is final, as Tesseract's
# output for it arrives: after the top band, or (a sparse band) after the deeper reading.


def _done_unless_sparse(page: int, result: ocr_mod.OCRResult) -> None:
    if result.error or not _few_words(result.text):
        progress.advance()


def _done(page: int, result: ocr_mod.OCRResult) -> None:
    progress.advance()


def _few_words(text: str) -> bool:
    """Too few words a caption could use: the band held a photo, a chart, or only names
    and figures (a balance list of people above the table the screen is for)."""
    words = [
        w
        for w in re.findall(r"[^\W\d_]{3,}", text)
        if word_frequency(w.casefold()) >= 3.0 and not is_person(w)
    ]
    return len(words) < ocr_mod.SPARSE_WORDS


def _read_deeper(
    out: list[_Pixels], deep: dict[int, Image.Image], lang: str, binary: str | None
) -> None:
    """Read further down the screens whose top band held almost no words.

    The top band is where titles, tabs and headings sit on most screens; a screen that
    opens with a photo, a chart or a list of names and figures (a destination's hero
    picture, a balance list above the table of who owes whom) has its title and content
    below it. Those few screens (one tesseract call for all of them) are read again from
    the top down to ``ocr.DEEP_BOTTOM``, and the deeper reading kept: one band, so no seam
    cuts a line in two, and one histogram, so a band cut out below would not threshold
    differently (text on a grey page read as black on black).
    """
    sparse = []
    for i in deep:
        first = out[i].ocr
        if first is not None and not first.error and _few_words(first.text):
            sparse.append(i)
    if not sparse:
        return
    deeper = [deep[i] for i in sparse]
    read = ocr_mod.recognize(deeper, lang=lang, binary=binary, on_page=_done)
    for i, res in zip(sparse, read):
        out[i].deep = None  # read down to the bottom already
        upper = out[i].ocr
        if not res.error and upper is not None and res.words >= upper.words:
            out[i].ocr = res


@stage(
    "extract_features",
    requires=(APP_ID, POSITION, SCREEN, IMAGE),
    provides=(
        FEATURES_INTENT,
        FEATURES_PHRASE,
        FEATURES_KEYWORDS,
        FEATURES_TEXT,
        FEATURES_TEXT_SOURCE,
        FEATURES_TITLE,
        FEATURES_HEADINGS,
        FEATURES_TABS,
        FEATURES_ACTIONS,
        FEATURES_LABELS,
        FEATURES_NUMBERS,
        FEATURES_EVIDENCE,
        FEATURES_KIND,
        FEATURES_SUBJECT,
        FEATURES_SUBJECT_FROM,
        FEATURES_EXAMPLES,
        FEATURES_FIELDS,
        FEATURES_COLORS,
        FEATURES_ACCENT,
        FEATURES_DARK_UI,
    ),
    optional=(
        DOMAIN_CATEGORY,
        SCREEN_TEXT,
        SCREEN_ELEMENTS,
        SCREEN_TITLE,
        PROJECT_NAME,
        LOCALE,
    ),
)
def extract_features(
    frame: pd.DataFrame, *, ocr: bool | str = "auto", workers: int = 2, chunk: int = 16
) -> pd.DataFrame:
    """Evidence by role, intent, phrase and keywords per row; colours, accent, dark UI per set.

    ``ocr``: ``"auto"`` reads screenshots without DOM text with Tesseract when it is
    installed; ``True`` requires it (error when missing); ``False`` never reads.
    ``workers`` threads decode images and run tesseract side by side.
    """
    mode = _ocr_mode(ocr)
    binary = ocr_mod.tesseract_path() if mode is not False else None
    if mode is True and binary is None:
        ocr_mod.require_tesseract()
    rows = _Rows.of(frame)
    # no DOM text, or so little that the page may draw its text itself (a canvas)
    want = [not t.strip() or rows.thin(i) for i, t in enumerate(rows.dom)]
    if mode is None and binary is None and any(want):
        log.warning(
            "extract_features: Tesseract is not installed, so %d screenshot(s) without DOM "
            "text were not read and their captions rest on the screen names alone. Install "
            "it (Debian/Ubuntu: apt install tesseract-ocr; macOS: brew install tesseract; "
            "Windows: the UB Mannheim installer), or pass ocr=False (--no-ocr) to design "
            "without it on purpose.",
            sum(want),
        )
    lang = "eng"
    if binary and any(want) and LOCALE in frame.columns:
        locales = frame[LOCALE].dropna().astype(str)
        lang = ocr_mod.language_for(locales.iloc[0] if len(locales) else None)
    pixels = _read_pixels(frame[IMAGE].tolist(), want, lang, binary, workers=workers, chunk=chunk)
    reads = [rows.read(i, pixels[i], mode, binary) for i in range(len(frame))]

    members_of: dict[object, list[int]] = {}
    for i, app in enumerate(frame[APP_ID].tolist()):
        members_of.setdefault(app, []).append(i)
    readings = _read_sets(members_of, reads, rows)
    # a screen whose top band named nothing a caption could show (no item, no field) is
    # read again further down, once, for the whole table (readers side by side)
    sources = [r.source for r in reads]
    thin = _read_further(pixels, _thin(readings, pixels, sources), lang, binary, workers)
    for i in thin:
        reads[i] = rows.read(i, pixels[i], mode, binary)
    for px in pixels:
        if px is not None:
            px.deep = None
    if thin:
        readings = _read_sets(members_of, reads, rows)
    _write_columns(frame, reads, readings, pixels)
    _add_set_colors(frame, pixels, members_of)
    return frame


@dataclass
class _Read:
    """One screenshot's evidence, text and what it is for."""

    evidence: reader.Evidence
    text: str
    source: str
    intent: str
    phrase: str
    keywords: list[str]


def _without_icons(elements: object) -> object:
    """Capture's elements with an icon font's glyphs taken out of their text."""
    if not isinstance(elements, (list, tuple)):
        return elements
    return [
        {**e, "text": without_icons(e["text"])}
        if isinstance(e, dict) and isinstance(e.get("text"), str)
        else e
        for e in elements
    ]


@dataclass
class _Rows:
    """The columns of the frame that reading a screen needs, as lists."""

    dom: list[str]
    screens: list[str]
    positions: list
    domains: list
    projects: list[str]
    elements: list
    titles: list[str]  # each page's document title, "" when unknown
    captured: list[bool] = field(default_factory=list)  # capture recorded its elements
    dom_words: list[int] = field(default_factory=list)  # words of its elements (or DOM text)

    def __post_init__(self) -> None:
        for elements, dom in zip(self.elements, self.dom):
            listed = elements if isinstance(elements, (list, tuple)) else []
            text = " ".join(str(e.get("text") or "") for e in listed) or dom
            self.captured.append(bool(listed))
            self.dom_words.append(len(_WORD.findall(text)))

    @classmethod
    def of(cls, frame: pd.DataFrame) -> _Rows:
        n = len(frame)

        def column(name: str) -> list:
            return frame[name].tolist() if name in frame.columns else [None] * n

        return cls(
            dom=[without_icons(t) if isinstance(t, str) else "" for t in column(SCREEN_TEXT)],
            screens=frame[SCREEN].astype(str).tolist(),
            positions=frame[POSITION].tolist(),
            domains=column(DOMAIN_CATEGORY),
            projects=[str(p) if p is not None else "" for p in column(PROJECT_NAME)],
            elements=[_without_icons(e) for e in column(SCREEN_ELEMENTS)],
            titles=[t if isinstance(t, str) else "" for t in column(SCREEN_TITLE)],
        )

    def thin(self, i: int) -> bool:
        """Whether a captured page's DOM holds so few words (a logo's "tt" is none) that
        the page may draw its text on a canvas (a timeline, a drawing, a Flutter app): read
        its pixels too. Text a caller gave without elements is taken as it is."""
        return self.captured[i] and self.dom_words[i] < THIN_DOM_WORDS

    def drawn(self, i: int, px: _Pixels | None) -> bool:
        """Whether the pixels show clearly more words than a thin DOM holds: the page
        draws its text itself, so the OCR reading is the screen's."""
        if px is None or px.ocr is None or px.ocr.error or not self.thin(i):
            return False
        seen = [w for w in _WORD.findall(px.ocr.text) if is_word(w.casefold())]
        return len(seen) >= max(ocr_mod.SPARSE_WORDS, 2 * self.dom_words[i])

    def read(self, i: int, px: _Pixels | None, mode: object, binary: str | None) -> _Read:
        domain = self.domains[i] if isinstance(self.domains[i], str) else None
        screen = self.screens[i]
        drawn = self.drawn(i, px)
        elements, dom = ([], "") if drawn else (self.elements[i], self.dom[i])
        ev = _evidence_of(elements, dom, px)
        text, source = _text_of(dom, px, mode, binary)
        intent = screen_intent(
            screen,
            text,
            domain=domain,
            position=self.positions[i],
            title=ev.title or "",
            tabs=ev.tabs,
        )
        return _Read(
            evidence=ev,
            text=text,
            source=source,
            intent=intent,
            phrase=screen_phrase(intent, screen, domain, title=ev.title),
            keywords=keywords_of(screen, text, project=self.projects[i]),
        )


def _write_columns(
    frame: pd.DataFrame, reads: list[_Read], readings: list[Reading], pixels: list
) -> None:
    """Every screen's evidence, reading and colours as the stage's columns."""

    def objects(values: list) -> pd.Series:
        return pd.Series(values, index=frame.index, dtype=object)

    found = [r.evidence for r in reads]
    frame[FEATURES_INTENT] = [r.intent for r in reads]
    frame[FEATURES_PHRASE] = [r.phrase for r in reads]
    frame[FEATURES_KEYWORDS] = objects([r.keywords for r in reads])
    frame[FEATURES_TEXT] = [r.text for r in reads]
    frame[FEATURES_TEXT_SOURCE] = [r.source for r in reads]
    frame[FEATURES_TITLE] = [ev.title for ev in found]
    for column, attribute in (
        (FEATURES_HEADINGS, "headings"),
        (FEATURES_TABS, "tabs"),
        (FEATURES_ACTIONS, "actions"),
        (FEATURES_LABELS, "labels"),
        (FEATURES_NUMBERS, "numbers"),
        (FEATURES_EVIDENCE, "items"),
    ):
        frame[column] = objects([list(getattr(ev, attribute)) for ev in found])
    frame[FEATURES_COLORS] = objects([[c for c, _ in px.colors] if px else [] for px in pixels])
    frame[FEATURES_KIND] = [r.kind for r in readings]
    frame[FEATURES_SUBJECT] = [r.subject for r in readings]
    frame[FEATURES_SUBJECT_FROM] = [r.subject_from for r in readings]
    frame[FEATURES_EXAMPLES] = objects([list(r.examples) for r in readings])
    frame[FEATURES_FIELDS] = objects([list(r.fields) for r in readings])


def _read_pixels(
    refs: list[Any],
    want: list[bool],
    lang: str,
    binary: str | None,
    *,
    workers: int,
    chunk: int,
) -> list[_Pixels | None]:
    """Every screenshot decoded, measured and (where ``want``) OCR'd: rows dealt to
    ``workers`` threads in chunks (the tesseract program's start-up is paid once per chunk)
    or, read in process, one at a time to whichever thread is free (a screen read twice,
    its top band too sparse, does not hold up the rest of its chunk); progress told per
    screenshot."""
    n = len(refs)
    rows = list(range(n))
    per_call = max(1, min(chunk, -(-n // max(1, workers)))) if n else 1
    if binary == ocr_mod.INPROCESS:
        per_call = 1
    batches = [rows[i : i + per_call] for i in range(0, n, per_call)]
    pixels: list[_Pixels | None] = [None] * n

    def work(batch: list[int]) -> None:
        res = _analyse([refs[i] for i in batch], [want[i] for i in batch], lang, binary)
        for i, r in zip(batch, res):
            pixels[i] = r

    if len(batches) <= 1 or workers <= 1:
        for b in batches:
            work(b)  # tells progress per screenshot (``_analyse``)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            progress.in_threads(pool, work, batches)  # heard here, per screenshot
    return pixels


def _evidence_of(elements: object, dom: str, px: _Pixels | None) -> reader.Evidence:
    """A screen's evidence: from its DOM elements, else its DOM text, else its OCR."""
    roles = elements if isinstance(elements, (list, tuple)) else []
    full = float(px.height) if px is not None and px.height else None
    wide = float(px.width) if px is not None and px.width else None
    if roles:
        return reader.from_elements(roles, full, wide)
    if dom.strip():
        return reader.from_text(dom)
    if px is not None and px.ocr is not None and not px.ocr.error:
        return reader.from_ocr(px.ocr, float(px.read_height) or None)
    return reader.Evidence()


def _text_of(dom: str, px: _Pixels | None, mode: object, binary: str | None) -> tuple[str, str]:
    """A screen's visible text and where it came from (``features_text_source``)."""
    if dom.strip():
        return dom.strip(), "dom"
    if mode is False:
        return "", "none (ocr off)"
    if binary is None:
        return "", "none (tesseract not installed)"
    if px is None or px.ocr is None:
        return "", "none (not read)"
    if px.ocr.error:
        return "", f"none (ocr failed: {px.ocr.error})"
    return px.ocr.text, "ocr"


def _read_sets(
    members_of: dict[object, list[int]], reads: list[_Read], rows: _Rows
) -> list[Reading]:
    """Each set's screens read together (kind, subject, examples, fields), in store order."""
    readings: list[Reading] = [Reading() for _ in reads]
    for members in members_of.values():
        members = sorted(members, key=lambda i: (rows.positions[i], i))
        try:
            found_here = _read_together(members, reads, rows)
        except Exception as error:  # one screen's defect must not cost its set
            log.warning(
                "extract_features: reading %s's screens together failed (%s: %s); each "
                "screen is read on its own. Please report it with the screenshots.",
                rows.projects[members[0]] or "a set",
                type(error).__name__,
                error,
            )
            found_here = [_read_alone(i, reads, rows) for i in members]
        for i, reading in zip(members, found_here):
            readings[i] = reading
    return readings


def _read_together(members: list[int], reads: list[_Read], rows: _Rows) -> list[Reading]:
    return read_screens(
        [reads[i].evidence for i in members],
        [rows.screens[i] for i in members],
        [reads[i].intent for i in members],
        rows.projects[members[0]],
        texts=[reads[i].text or "" for i in members],
        page_titles=[rows.titles[i] for i in members],
    )


def _read_alone(i: int, reads: list[_Read], rows: _Rows) -> Reading:
    """One screen read without its set; an empty reading (no kind's words, no subject)
    when even that fails, so the screen still gets the set's other stages."""
    try:
        return _read_together([i], reads, rows)[0]
    except Exception as error:  # the screen alone fails too
        log.warning(
            "extract_features: screen %s could not be read (%s: %s); its reading is left "
            "empty and its captions rest on the rest of the set.",
            rows.screens[i] or i,
            type(error).__name__,
            error,
        )
        return Reading()


def _add_set_colors(
    frame: pd.DataFrame, pixels: list[_Pixels | None], members_of: dict[object, list[int]]
) -> None:
    """Per set: the accent colour and whether most of its screens are dark."""
    n = len(frame)
    accent: list[str] = [DEFAULT_ACCENT] * n
    dark_ui: list[bool] = [False] * n
    for members in members_of.values():
        set_accent = _set_accent([pixels[i] for i in members])
        shown = [pixels[i] for i in members]
        is_dark = sum(bool(p is not None and p.dark) for p in shown) * 2 > len(members)
        for i in members:
            accent[i], dark_ui[i] = set_accent, is_dark
    frame[FEATURES_ACCENT] = accent
    frame[FEATURES_DARK_UI] = pd.Series(dark_ui, index=frame.index, dtype=bool)

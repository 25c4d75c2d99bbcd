"""Column names, declared once, and the contracts of the pipeline stages.

Input columns have no prefix; every column a stage adds is prefixed by the stage
that made it. Set-level values (one per ``app_id``) are repeated on every row of
the set so that a slice of a frame carries everything needed to re-run a stage.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ParamSpec

import pandas as pd

from .errors import MissingColumnError

# --- input columns (read_screenshots / capture) -----------------------------
APP_ID = "app_id"  # one set of screenshots = one app
POSITION = "position"  # store order inside the set, 0-based
PROJECT_NAME = "project_name"
BUNDLE_ID = "bundle_id"  # reverse-domain id, "" when unknown
SCREEN = "screen"  # screen name, e.g. "home", "budgets"
DEVICE = "device"  # device id of the raw screenshot, e.g. "iphone-16-pro"
LOCALE = "locale"  # BCP 47, e.g. "en-US"
IMAGE = "image"  # reference to the raw PNG: a path (str) or the PNG bytes
SCREEN_TEXT = "screen_text"  # visible text known without OCR (DOM text), "" if none
IMAGE_WIDTH = "image_width"
IMAGE_HEIGHT = "image_height"
# Optional inputs. SCREEN_ELEMENTS: the visible text with roles, read from the DOM by
# capture (manifest.json "elements"): a list of {"role", "text"[, "level"][, "current"]
# [, "box"]}, role one of "heading" (level 1-6), "tab" (tab bar / nav item), "button",
# "link", "listitem", "label" (form label, column header), "input" (a field's placeholder),
# "text"; current true on the page's own item of a menu or a tab bar (aria-current, a
# selected tab, an "active" class); box [x, y, w, h] in the PNG's pixels. [] when unknown
# (then OCR reads the pixels).
SCREEN_ELEMENTS = "screen_elements"
SCREEN_URL = "screen_url"  # the page a captured screen shows, "" when not captured
# the page's document title ("Bookmarks - buku server"), "" when unknown: where an app
# names its own screens, so reading a screen may take its feature from it
SCREEN_TITLE = "screen_title"
ABOUT = "about"  # the user's own description of the app (set-level), "" when none

INPUT_COLUMNS = (
    APP_ID,
    POSITION,
    PROJECT_NAME,
    BUNDLE_ID,
    SCREEN,
    DEVICE,
    LOCALE,
    IMAGE,
    SCREEN_TEXT,
    IMAGE_WIDTH,
    IMAGE_HEIGHT,
)

# --- detect_domain ----------------------------------------------------------
DOMAIN_CATEGORY = "domain_category"  # App Store category (set-level)
DOMAIN_CONFIDENCE = "domain_confidence"  # 0..1 (set-level)
DOMAIN_SIGNALS = "domain_signals"  # human-readable list of what decided it (set-level)
DOMAIN_RUNNER_UP = "domain_runner_up"  # the second most likely category (set-level)
DOMAIN_CONFIDENT = "domain_confident"  # bool: confidence cleared the threshold (set-level);
# when False, copy and palette stay neutral rather than lean on the category

# --- extract_features -------------------------------------------------------
FEATURES_INTENT = "features_intent"  # what kind of screen: "overview", "search", ...
FEATURES_PHRASE = "features_phrase"  # short phrase: what this screen offers
FEATURES_KEYWORDS = "features_keywords"  # list[str]
FEATURES_TEXT = "features_text"  # visible text used (DOM text or OCR)
FEATURES_TEXT_SOURCE = "features_text_source"  # "dom", "ocr", "none (...reason...)"
FEATURES_COLORS = "features_colors"  # list of hex colours of this screenshot, most used first
FEATURES_ACCENT = "features_accent"  # the set's brand/accent colour, hex (set-level)
FEATURES_DARK_UI = "features_dark_ui"  # the set's UI is mostly dark (set-level)
# What each screen shows, as a copywriter reads it (chrome left out: status bar, cookie
# banners, "Powered by", raw JSON). From SCREEN_ELEMENTS when present, else OCR boxes.
FEATURES_TITLE = "features_title"  # the screen's title (largest text near the top), ""
FEATURES_HEADINGS = "features_headings"  # list[str], section headings in reading order
FEATURES_TABS = "features_tabs"  # list[str], tab bar / navigation labels
FEATURES_ACTIONS = "features_actions"  # list[str], button labels ("Add expense")
FEATURES_LABELS = "features_labels"  # list[str], list items, field labels, column headers
FEATURES_NUMBERS = "features_numbers"  # list[str], numbers with their units ("$1,240")
# list of {"role", "text", "source"}: every piece of evidence above, in reading order;
# role "title" | "heading" | "tab" | "action" | "label" | "number" | "text"; source
# "dom" | "ocr". What write_copy may draw on, and the record of why.
FEATURES_EVIDENCE = "features_evidence"
# The one reading of each screen (stages/features/reading.py), used by copy, store text and
# the LLM prompt alike: what kind of screen ("list", "table", "detail", "reader", "player", "form",
# "chart", "dashboard", "search", "settings", "menu", "conversation", "calendar", "map",
# "sign-in"), its subject (the feature as a person names it, in the app's words, "" when
# the screen names none) and where that came from ("title", "breadcrumb", "heading",
# "screen name", "label"), its examples (content items kept whole, never the subject) and
# its fields (column headers, form labels: the names of the data, never the values).
FEATURES_KIND = "features_kind"
FEATURES_SUBJECT = "features_subject"
FEATURES_SUBJECT_FROM = "features_subject_from"
FEATURES_EXAMPLES = "features_examples"  # list[str]
FEATURES_FIELDS = "features_fields"  # list[str]

# --- write_copy -------------------------------------------------------------
COPY_TAGLINE = "copy_tagline"  # set-level promise
COPY_HEADLINE = "copy_headline"
COPY_SUBTITLE = "copy_subtitle"
COPY_SOURCE = "copy_source"  # "phrasebank", "llm:<model>", "phrasebank (llm failed: ...)"
# dict {"headline": [...], "subtitle": [...]}: the evidence words each line rests on
# (screen text, app name, the user's description); [] for a line the user wrote
COPY_EVIDENCE = "copy_evidence"
# dict per set and locale {"subtitle", "promotional_text", "keywords", "evidence"}: the
# App Store text written from the same evidence (fastlane export writes it for deliver)
COPY_STORE_TEXT = "copy_store_text"

# --- plan_layout ------------------------------------------------------------
LAYOUT_TEMPLATE = "layout_template"
LAYOUT_DEVICE = "layout_device"  # the device drawn around the screenshot, e.g. "pixel-9"
LAYOUT_SIZE = "layout_size"  # output store size, e.g. "1320x2868"
LAYOUT_HEADLINE_SIZE = "layout_headline_size"  # px, one per set
LAYOUT_VARIANT = "layout_variant"  # the rhythm variant of this slide
LAYOUT_BACKGROUND = "layout_background"  # hex colours of the background stops
LAYOUT_TEXT_COLOR = "layout_text_color"
LAYOUT_CONTRAST = "layout_contrast"  # worst caption contrast on this slide
LAYOUT_SCENE = "layout_scene"  # dict: the JSON-serialisable scene

# --- render -----------------------------------------------------------------
RENDER_PATH = "render_path"  # path of the written PNG ("" when rendered to bytes)
RENDER_PNG = "render_png"  # PNG bytes, only when render(..., out_dir=None)
RENDER_WIDTH = "render_width"
RENDER_HEIGHT = "render_height"
RENDER_MS = "render_ms"

# design(variants=N): which experiment set a row belongs to and what sets it apart
VARIANT = "variant"  # "variant-1" (the original) ... "variant-N"
VARIANT_DIFFERS = "variant_differs"  # what this set changes from variant-1, "" for it


@dataclass(frozen=True)
class StageContract:
    name: str
    requires: tuple[str, ...]
    provides: tuple[str, ...]
    doc: str = ""
    optional: tuple[str, ...] = field(default=())

    def check(self, frame: pd.DataFrame) -> None:
        if not isinstance(frame, pd.DataFrame):
            raise MissingColumnError(
                f"{self.name}: expected a pandas DataFrame of screenshots, got "
                f"{type(frame).__name__}. Start from shotsmith.read_screenshots(...)."
            )
        missing = [c for c in self.requires if c not in frame.columns]
        if missing:
            raise MissingColumnError(
                f"{self.name}: the frame has no column {', '.join(repr(c) for c in missing)}. "
                f"This stage needs {list(self.requires)}; run the stage that provides "
                f"{'it' if len(missing) == 1 else 'them'} first "
                f"({', '.join(sorted({provider_of(c) for c in missing}))})."
            )


STAGES: dict[str, StageContract] = {}

# The modules whose import declares the pipeline's stages (each ``@stage`` registers its
# contract in STAGES). Imported on demand: ``import shotsmith`` loads no stage.
STAGE_MODULES = (
    "shotsmith.stages.features",
    "shotsmith.stages.domain",
    "shotsmith.stages.copy",
    "shotsmith.stages.layout",
    "shotsmith.stages.render",
)

P = ParamSpec("P")


def load_stages() -> dict[str, StageContract]:
    """Every stage's contract: imports the stage modules not imported yet."""
    for module in STAGE_MODULES:
        importlib.import_module(module)
    return STAGES


def provider_of(column: str) -> str:
    load_stages()
    for contract in STAGES.values():
        if column in contract.provides:
            return contract.name
    return "read_screenshots"


def stage(
    name: str, requires: tuple[str, ...], provides: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Callable[[Callable[P, pd.DataFrame]], Callable[P, pd.DataFrame]]:
    """Declare a stage's contract once; the wrapper validates frames and copies.

    The wrapped function receives a copy of the frame (so it may add columns
    freely) and must return a frame with all ``provides`` columns. Input rows,
    index and columns are kept as they were. The stage keeps its own signature
    (``ParamSpec``), so editors and type checkers see its options.
    """

    def decorate(fn: Callable[P, pd.DataFrame]) -> Callable[P, pd.DataFrame]:
        contract = StageContract(
            name,
            tuple(requires),
            tuple(provides),
            (fn.__doc__ or "").strip().split("\n")[0],
            tuple(optional),
        )
        STAGES[name] = contract

        @functools.wraps(fn)
        def run(*args: P.args, **kwargs: P.kwargs) -> pd.DataFrame:
            if not args:
                raise TypeError(f"{name}() takes the frame of screenshots as its first argument")
            frame, rest = args[0], args[1:]
            contract.check(frame)  # refuses anything but a DataFrame
            out = fn(frame.copy(), *rest, **kwargs)  # type: ignore[attr-defined,arg-type]
            lost = [c for c in contract.provides if c not in out.columns]
            if lost:  # a bug in the stage itself, not in the user's input
                raise RuntimeError(f"stage {name} did not provide {lost}")
            return out

        run.contract = contract  # type: ignore[attr-defined]
        return run

    return decorate


def set_groups(frame: pd.DataFrame):
    """Iterate ``(app_id, rows)`` over the sets of a frame, rows in store order."""
    for app_id, rows in frame.groupby(APP_ID, sort=False):
        yield app_id, rows.sort_values(POSITION, kind="stable")


def list_cell(value: object) -> list:
    """A list-valued cell as a list (a list, tuple or numpy array); [] for a missing value
    (None, NaN) or a scalar, as a frame read back from CSV or parquet may hold."""
    if value is None or isinstance(value, (str, bytes, float, int)):
        return []
    try:
        return list(value)  # type: ignore[call-overload]  # lists, tuples, numpy arrays
    except TypeError:
        return []

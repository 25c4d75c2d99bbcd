"""Check a design output or a fastlane folder against the stores' rules.

A folder is read in one of three ways, whichever it is:

- a fastlane folder: ``screenshots/<locale>/*.png`` (``deliver``, App Store; the display
  class follows from each file's size) and
  ``metadata/android/<locale>/images/<type>Screenshots/*.png`` (``supply``, Google Play);
- a design output: a folder per set with ``design.json``, whose rows name each PNG with
  its device and locale (a folder of store PNGs without it counts as one set; contact
  sheets are not screenshots and are left out);

and every file is checked (format, RGB without alpha, dpi, accepted size, Play's side,
aspect and file-size limits), then every set (how many screenshots per display class or
device type and locale).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputFileError
from ..locales import app_store_codes, app_store_locale, play_codes, play_locale
from .rules import (
    APP_STORE,
    GOOGLE_PLAY,
    PLAY_FOLDERS,
    ImageFacts,
    Problem,
    app_store_class,
    count_problems,
    device_store,
    file_problems,
    image_facts,
    play_size_problems,
)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
NOT_SCREENSHOTS = ("contact-sheet",)


@dataclass(frozen=True)
class Shot:
    """One screenshot file and where it belongs: store, set folder, locale, device type."""

    path: Path
    store: str | None  # None: decided from the file's size
    group: str  # the set it counts in (a folder)
    locale: str = ""
    device_type: str = "phone"  # Google Play: phone, seven_inch, ten_inch


def _images(folder: Path) -> list[Path]:
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file()
        and p.suffix.lower() in IMAGE_SUFFIXES
        and not p.name.startswith(NOT_SCREENSHOTS)
    )


def _fastlane_shots(root: Path) -> list[Shot]:
    shots: list[Shot] = []
    app_store = root / "screenshots"
    if app_store.is_dir():
        for locale_dir in sorted(p for p in app_store.iterdir() if p.is_dir()):
            for path in _images(locale_dir):
                shots.append(Shot(path, APP_STORE, str(locale_dir), locale_dir.name))
    play = root / "metadata" / "android"
    if play.is_dir():
        by_folder = {folder: kind for kind, folder in PLAY_FOLDERS.items()}
        for locale_dir in sorted(p for p in play.iterdir() if p.is_dir()):
            images = locale_dir / "images"
            if not images.is_dir():
                continue
            for kind_dir in sorted(p for p in images.iterdir() if p.is_dir()):
                kind = by_folder.get(kind_dir.name)
                if kind is None:
                    continue  # feature graphics, icons: not screenshots
                for path in _images(kind_dir):
                    shots.append(Shot(path, GOOGLE_PLAY, str(kind_dir), locale_dir.name, kind))
    return shots


#: Folders deliver reads beside the locale folders, or skips (fastlane's deliver/loader.rb).
DELIVER_SPECIAL = ("appleTV", "iMessage", "default")
DELIVER_SKIPS = (
    "android",
    "fonts",
    "review_information",
    "trade_representative_contact_information",
    "app_clip_review_information",
)


def locale_folder_problems(root: Path) -> list[Problem]:
    """Locale folders fastlane refuses: ``deliver`` any name App Store Connect does not
    list ("Unsupported directory name(s)"), ``supply`` any Google Play does not."""
    app_codes = {c.casefold() for c in (*app_store_codes(), *DELIVER_SPECIAL)}
    skips = {s.casefold() for s in DELIVER_SKIPS}
    out: list[Problem] = []
    for part in ("screenshots", "metadata"):
        base = root / part
        for folder in sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []:
            name = folder.name
            if name.casefold() in skips or name.casefold() in app_codes:
                continue
            code = app_store_locale(name)
            hint = (
                f"name it {code}"
                if code
                else "use an App Store Connect code such as en-US, de-DE or ja"
            )
            out.append(
                Problem(
                    str(folder),
                    "locale-folder",
                    f"{name!r} is not a language deliver accepts ('Unsupported directory "
                    f"name(s)'): {hint} (docs/store-rules.md lists them)",
                )
            )
    play = root / "metadata" / "android"
    known = set(play_codes())
    for folder in sorted(p for p in play.iterdir() if p.is_dir()) if play.is_dir() else []:
        if folder.name in known:
            continue
        code = play_locale(folder.name)
        hint = f"name it {code}" if code else "use a Google Play code such as en-US, de-DE or ja-JP"
        out.append(
            Problem(
                str(folder),
                "play-locale-folder",
                f"{folder.name!r} is not a Google Play language code supply uploads: {hint} "
                "(Google Play's codes differ from App Store Connect's: ar, iw-IL, th, ja-JP)",
            )
        )
    return out


def listing_image_problems(root: Path) -> list[Problem]:
    """Play's feature graphic (1024x500, no alpha) and hi-res icon (512x512 PNG)."""
    out: list[Problem] = []
    play = root / "metadata" / "android"
    for images in sorted(play.glob("*/images")) if play.is_dir() else []:
        for stem, size, alpha_ok in (
            ("featureGraphic", (1024, 500), False),
            ("icon", (512, 512), True),
        ):
            for path in sorted(images.glob(f"{stem}.*")):
                if path.suffix.lower() not in IMAGE_SUFFIXES:
                    continue
                facts = image_facts(path)
                if isinstance(facts, Problem):
                    out.append(facts)
                    continue
                if facts.size != size:
                    out.append(
                        Problem(
                            str(path),
                            "play-listing-size",
                            f"{facts.size[0]}x{facts.size[1]}; Google Play's {stem} is "
                            f"{size[0]}x{size[1]}",
                        )
                    )
                if facts.has_alpha and not alpha_ok:
                    out.append(
                        Problem(str(path), "no-alpha", "has an alpha channel; save it as RGB")
                    )
    return out


def _design_shots(root: Path) -> list[Shot]:
    shots: list[Shot] = []
    tables = sorted(root.rglob("design.json"))
    listed: set[Path] = set()
    for table in tables:
        try:
            rows = json.loads(table.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputFileError(f"{table}: cannot read the design table ({exc}).") from exc
        for row in rows if isinstance(rows, list) else []:
            ref = str(row.get("render_path") or "")
            if not ref:
                continue
            path = Path(ref)
            if not path.is_absolute() and not path.exists():
                path = table.parent / path.name
            listed.add(path.resolve())
            store, kind = device_store(str(row.get("layout_device") or row.get("device") or ""))
            if store == APP_STORE and not app_store_class(*_size_of(row)):
                store = None  # an iPhone set rendered at a Play size: judge by the size
            shots.append(Shot(path, store, str(table.parent), str(row.get("locale") or ""), kind))
    # folders of store PNGs without a design table
    for folder in sorted({p.parent for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES}):
        if (folder / "design.json").exists():
            continue
        for path in _images(folder):
            if path.resolve() not in listed:
                shots.append(Shot(path, None, str(folder)))
    return shots


def _size_of(row: dict) -> tuple[int, int]:
    try:
        return int(row.get("render_width") or 0), int(row.get("render_height") or 0)
    except (TypeError, ValueError):
        return 0, 0


def collect(root: str | Path) -> list[Shot]:
    """The screenshots under ``root`` and the set each belongs to."""
    root = Path(root)
    if not root.exists():
        raise InputFileError(
            f"validate: {root} does not exist; pass a design output or a fastlane folder."
        )
    if root.is_file():
        return [Shot(root, None, str(root.parent))]
    shots = _fastlane_shots(root)
    if not shots:
        shots = _design_shots(root)
    return shots


def videos_in(root: Path) -> list[Path]:
    """The app preview / promo videos under ``root`` (or ``root`` itself)."""
    from ..video import VIDEO_SUFFIXES

    if root.is_file():
        return [root] if root.suffix.lower() in VIDEO_SUFFIXES else []
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in VIDEO_SUFFIXES)


def video_problems(root: str | Path) -> list[Problem]:
    """Every app preview rule the videos under ``root`` break (size, codec, fps, duration,
    audio track; see shotsmith.video), read through ffprobe."""
    from ..video import video_problems as problems_of

    return [
        Problem(str(path), rule, message)
        for path in videos_in(Path(root))
        for rule, message in problems_of(path)
    ]


def validate(root: str | Path) -> list[Problem]:
    """Every store rule that the screenshots (and preview videos) under ``root`` break
    ([] when they pass)."""
    if Path(root).exists() and videos_in(Path(root)):
        videos = video_problems(root)
        if Path(root).is_file() or not collect(root):
            return videos
        return videos + _validate_shots(root)
    return _validate_shots(root)


def _validate_shots(root: str | Path) -> list[Problem]:
    shots = collect(root)
    if not shots:
        return [
            Problem(
                str(root),
                "screenshots",
                "no screenshots found: expected a design output (folders with design.json "
                "and PNGs) or a fastlane folder (screenshots/<locale>/, "
                "metadata/android/<locale>/images/phoneScreenshots/)",
            )
        ]
    problems: list[Problem] = []
    if Path(root).is_dir():
        problems += locale_folder_problems(Path(root)) + listing_image_problems(Path(root))
    groups: dict[tuple[str, str, str, str], list[Path]] = defaultdict(list)
    for shot in shots:
        facts = image_facts(shot.path)
        if isinstance(facts, Problem):
            problems.append(facts)
            continue
        store, kind = _store_for(shot, facts)
        problems += file_problems(facts, store, kind)
        if store is None:
            continue  # no store takes it: no set to count it in
        what = app_store_class(*facts.size) if store == APP_STORE else kind
        groups[(shot.group, store, what or "unknown size", shot.locale)].append(shot.path)
    for (group, store, what, locale), paths in sorted(groups.items()):
        label = f'{what}" screens' if store == APP_STORE and what[0].isdigit() else f"{what}"
        label += f" in {locale}" if locale else ""
        problems += count_problems(group, len(paths), store, label)
    return problems


def _store_for(shot: Shot, facts: ImageFacts) -> tuple[str | None, str]:
    """The store whose rules apply: the folder's, else the one that takes this size."""
    if shot.store is not None:
        return shot.store, shot.device_type
    if app_store_class(*facts.size):
        return APP_STORE, "phone"
    if not play_size_problems(*facts.size):
        return GOOGLE_PLAY, "phone"
    return None, "phone"

"""Font files: where they are looked for, and what to do when one is missing.

shotsmith draws with Inter and the Noto families (``data/scripts.json`` names which
script needs which). They are found by file name, ``<Family without spaces>-<Weight>``
with ``.otf``, ``.ttf`` or ``.ttc`` ("NotoSansThai-Bold.ttf"), anywhere below these
folders, in this order:

1. ``$SHOTSMITH_FONTS``: one folder or several, separated like ``PATH``
   (``$SHOTSMITH_FONT_DIRS`` is read the same way);
2. the user's own fonts: ``~/.local/share/fonts``, ``~/.fonts`` (Linux),
   ``~/Library/Fonts`` (macOS), ``%LOCALAPPDATA%\\Microsoft\\Windows\\Fonts`` (Windows);
3. the system's: ``/usr/local/share/fonts``, ``/usr/share/fonts`` (Linux),
   ``/Library/Fonts``, ``/System/Library/Fonts`` (macOS), ``%WINDIR%\\Fonts`` (Windows).

The folders are read once per process (:func:`refresh` reads them again).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from .errors import InvalidOptionError, ToolMissingError
from .settings import Settings, current

EXTENSIONS = (".otf", ".ttf", ".ttc")

WEIGHT_NAMES = {
    100: "Thin",
    200: "ExtraLight",
    300: "Light",
    400: "Regular",
    500: "Medium",
    600: "SemiBold",
    700: "Bold",
    800: "ExtraBold",
    900: "Black",
}


def _env_dirs(settings: Settings) -> list[Path]:
    """The folders named by SHOTSMITH_FONTS (and SHOTSMITH_FONT_DIRS); each must exist."""
    out: list[Path] = []
    for name, part in settings.font_dirs:
        folder = Path(part).expanduser()
        if not folder.is_dir():
            raise InvalidOptionError(
                f"{name} names {part!r}, which is not a folder: point it at the folder "
                "that holds your .ttf/.otf files, or unset it."
            )
        out.append(folder)
    return out


def font_dirs() -> list[Path]:
    """Every folder searched, in order (those that do not exist included)."""
    settings = current()
    home = Path.home()
    dirs = [
        *_env_dirs(settings),
        home / ".local/share/fonts",
        home / ".fonts",
        home / "Library/Fonts",
    ]
    if settings.local_app_data:
        dirs.append(Path(settings.local_app_data) / "Microsoft" / "Windows" / "Fonts")
    dirs += [
        Path("/usr/local/share/fonts"),
        Path("/usr/share/fonts"),
        Path("/Library/Fonts"),
        Path("/System/Library/Fonts"),
    ]
    if settings.windows_dir:
        dirs.append(Path(settings.windows_dir) / "Fonts")
    return dirs


@functools.lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    """Lower-case file name -> path of the first file of that name, in search order."""
    found: dict[str, str] = {}
    for root in font_dirs():
        if not root.is_dir():
            continue
        for folder, subdirs, files in os.walk(root, followlinks=True):
            subdirs.sort()
            for name in sorted(files):
                key = name.lower()
                if key.endswith(EXTENSIONS) and key not in found:
                    found[key] = os.path.join(folder, name)
    return found


def refresh() -> None:
    """Read the font folders again (after installing fonts or changing SHOTSMITH_FONTS)."""
    _index.cache_clear()
    locate.cache_clear()


@functools.lru_cache(maxsize=256)
def locate(family: str, weight: int = 400) -> str | None:
    """Path of ``family``'s file at the available weight nearest ``weight``, or None."""
    stem = family.replace(" ", "").lower()
    index = _index()
    for w in sorted(WEIGHT_NAMES, key=lambda w: (abs(w - weight), -w)):
        for ext in EXTENSIONS:
            path = index.get(f"{stem}-{WEIGHT_NAMES[w].lower()}{ext}")
            if path:
                return path
    return None


def install_hint(family: str) -> str:
    """How to install ``family`` on Debian/Ubuntu, macOS and Windows, in one sentence."""
    stem = family.replace(" ", "")
    if family == "Inter":
        debian, source = "fonts-inter", "the Inter release zip's extras/otf folder"
    elif family == "Noto Sans CJK":
        debian, source = "fonts-noto-cjk", "the Noto CJK release (NotoSansCJK-Bold.ttc ...)"
    elif family == "DejaVu Sans":
        debian, source = "fonts-dejavu-core", "the DejaVu release"
    else:
        debian, source = "fonts-noto-core", "Google Fonts (the download's static folder)"
    return (
        f"install it (Debian/Ubuntu: sudo apt-get install {debian}; macOS, Windows: its "
        f"static files named like {stem}-Bold.ttf, from {source}, into ~/Library/Fonts, "
        "the Windows Fonts folder or a folder named by SHOTSMITH_FONTS)"
    )


def missing_font_error(family: str, weight: int) -> ToolMissingError:
    return ToolMissingError(
        f"font {family!r} (weight {weight}) is not installed: {install_hint(family)}."
    )

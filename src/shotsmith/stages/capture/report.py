"""What a capture returns: the frame, and what it left out and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ... import columns as C
from .devices import CaptureDevice
from .screens import Skipped

#: the columns of a captured frame: read_screenshots' inputs, the DOM text with roles and
#: the page each screen shows (read_screenshots reads both back from manifest.json)
FRAME_COLUMNS = (*C.INPUT_COLUMNS, C.SCREEN_ELEMENTS, C.SCREEN_URL)


@dataclass
class CaptureReport:
    """What :func:`capture_report` found: the frame, and what it left out and why."""

    frame: pd.DataFrame
    skipped: list[Skipped] = field(default_factory=list)
    devices: list[CaptureDevice] = field(default_factory=list)
    source: str = ""
    seconds: float = 0.0
    explored: int = 0  # distinct screens found (web)
    visited: int = 0  # pages loaded while exploring (web)
    sign_in_url: str = ""  # where the app asked for a sign-in it did not get (web)
    notes: list[str] = field(default_factory=list)  # what the user should know (web)
    titles: dict[Any, str] = field(default_factory=dict)  # frame index -> page title (web)

    def summary(self) -> str:
        lines = [f"{self.source}: {len(self.frame)} screenshot(s) in {self.seconds:.1f} s"]
        lines += [f"  note: {note}" for note in self.notes]
        for s in self.skipped:
            lines.append(f"  skipped {s.url}: {s.reason}" + (f" [{s.device}]" if s.device else ""))
        return "\n".join(lines)

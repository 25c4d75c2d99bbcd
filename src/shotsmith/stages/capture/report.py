"""What a capture returns: the frame, and what it left out and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ... import columns as C
from .devices import CaptureDevice
from .network import BlockedRequest, blocked_lines
from .screens import Skipped

#: the columns of a captured frame: read_screenshots' inputs, the DOM text with roles and
#: the page each screen shows (read_screenshots reads both back from manifest.json)
FRAME_COLUMNS = (*C.INPUT_COLUMNS, C.SCREEN_ELEMENTS, C.SCREEN_URL, C.SCREEN_TITLE)

#: kinds of Skipped that are a page judged and rejected (not a budget or a duplicate)
REJECTED_KINDS = (
    "error",
    "http",
    "timeout",
    "not-html",
    "error-page",
    "blank",
    "near-empty",
    "warning-page",
    "empty-state",
    "transient",
    "store-links",
    "sign-in",
    "write",
    "desktop-layout",
    "loading",
    "about-page",
    "bare-form",
)


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
    blocked: list[BlockedRequest] = field(default_factory=list)  # refused requests (web)
    network: dict[str, Any] = field(default_factory=dict)  # the network policy's record (web)
    stopped: str = ""  # why exploring ended (web)
    clicks: int = 0  # controls pressed while exploring (web)
    # a desktop-only app captured at a tablet instead of a phone: {from, to, reason} ("to"
    # None when the device was pinned and capture did not switch) (web)
    device_switch: dict[str, Any] = field(default_factory=dict)
    videos: dict[str, str] = field(default_factory=dict)  # store -> preview video (video=True)
    sandbox: str = ""  # why Chromium ran without its sandbox ("" when it had it) (web)
    # each control pressed while exploring: {"page", "control", "kind", "outcome"} (web)
    pressed: list[dict[str, str]] = field(default_factory=list)

    def screens_per_set(self) -> int:
        """Usable screens: the fewest any captured set (device) has."""
        if self.frame.empty:
            return 0
        return int(min(len(rows) for _, rows in C.set_groups(self.frame)))

    def too_few(self, min_screens: int) -> str:
        """'' when every set has at least ``min_screens`` screens, else what to tell the user."""
        have = self.screens_per_set()
        if have >= min_screens:
            return ""
        rejected = [s for s in self.skipped if s.kind in REJECTED_KINDS]
        why = [f"exploring stopped: {self.stopped}"] if self.stopped else []
        if self.sign_in_url:
            why.append(f"the app asks for a sign-in at {self.sign_in_url} (pass --login)")
        if rejected:
            why.append(f"{len(rejected)} page(s) or state(s) rejected (listed above)")
        if self.blocked:
            why.append(f"{len(self.blocked)} request(s) blocked (listed above)")
        return (
            f"only {have} usable screen(s) captured, fewer than --min-screens {min_screens}"
            + (": " + "; ".join(why) if why else "")
            + ". Point the capture at a page with more to show, raise --timeout, sign in "
            "(--login / --storage-state), or lower --min-screens."
        )

    def as_dict(self) -> dict[str, Any]:
        """The capture report the manifest keeps (``capture_report``)."""
        out: dict[str, Any] = {
            "seconds": round(self.seconds, 1),
            "pages_visited": self.visited,
            "presses": self.clicks,
            "screens_found": self.explored,
            "screens_kept": self.screens_per_set(),
            "stopped": self.stopped,
            "rejected": [
                {"url": s.url, "reason": s.reason, "kind": s.kind}
                | ({"device": s.device} if s.device else {})
                for s in self.skipped
                if s.kind in REJECTED_KINDS
            ],
        }
        if self.pressed:
            out["pressed"] = [dict(p) for p in self.pressed]
        if self.network:
            out["browser_sandbox"] = not self.sandbox
        if self.device_switch:
            out["device_switch"] = dict(self.device_switch)
        if self.network:
            out["network"] = self.network
        return out

    def summary(self) -> str:
        lines = [f"{self.source}: {len(self.frame)} screenshot(s) in {self.seconds:.1f} s"]
        if self.visited or self.stopped:
            lines.append(
                f"  explored: {self.visited} page(s) visited, {self.clicks} control(s) "
                f"pressed, {self.explored} distinct screen(s) found"
            )
        if self.stopped:
            lines.append(f"  stopped: {self.stopped}")
        lines += [f"  note: {note}" for note in self.notes]
        for s in self.skipped:
            lines.append(f"  skipped {s.url}: {s.reason}" + (f" [{s.device}]" if s.device else ""))
        lines += [f"  blocked {line}" for line in blocked_lines(self.blocked)]
        if self.sandbox:
            lines.append(f"  note: {self.sandbox}")
        if self.network.get("one_connection"):
            lines.append(f"  note: {self.network['one_connection']}")
        if self.network.get("websocket_gap"):
            lines.append(f"  note: {self.network['websocket_gap']}")
        return "\n".join(lines)

"""App previews from a capture's footage, and the checks a store makes of a video.

``capture(..., video=True)`` records the exploration of the web app (Playwright's video of
each page the explorer opened, in order); :func:`make_previews` joins the recordings and
cuts them into

- an App Store app preview, 886x1920 (the 6.9", 6.5", 6.3" and 6.1" iPhones' portrait
  preview size), and
- a Google Play promo clip, 1080x1920 (Play takes a YouTube URL: upload the MP4 there),

both H.264 (High profile, yuv420p), 30 fps, with a silent stereo AAC track (App Store
Connect refuses a preview without an audio track), 15 to 30 s long: footage longer than
30 s is cut at 30 s; shorter footage holds its last frame until 15 s. The status bar drawn
on the first screenshot stands above the footage, as on the screenshots. Only what shows a
screen is kept (:func:`spans`): the blank frames a browser shows while a page loads
(:func:`blank_lead`: one colour, or one colour and a spinner) are cut, and so are the
stretches the capture judged no screen (an error page, a page that never loaded, a
duplicate: ``FOOTAGE_CUTS`` beside the recordings), so a preview opens on the app and
shows only the app's screens.

:func:`video_problems` checks a video file against the store's rules
(``data/video.json``) through ``ffprobe``: size, codec, frame rate, duration, audio track.
ffmpeg and ffprobe come from the system (Debian: ``apt-get install ffmpeg``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from PIL import Image

from .errors import CaptureError, ToolMissingError
from .settings import current

VIDEO_SUFFIXES = (".mp4", ".mov", ".m4v")
APP_PREVIEW = "app-preview.mp4"
PLAY_PROMO = "play-promo.mp4"


@lru_cache(maxsize=1)
def video_rules() -> dict[str, Any]:
    """The stores' video rules (``data/video.json``)."""
    text = resources.files("shotsmith").joinpath("data/video.json").read_text(encoding="utf-8")
    rules: dict[str, Any] = json.loads(text)
    return rules


def tool(name: str) -> str:
    """The path of ``ffmpeg`` or ``ffprobe``; a clear error when it is not installed."""
    found = shutil.which(name)
    if not found:
        raise ToolMissingError(
            f"{name} is not installed; app preview videos need it "
            "(Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg)."
        )
    return found


def _registry_dir() -> Path:
    """Where Playwright looks for what it downloads (its ``registryDirectory``)."""
    settings = current()
    env = settings.playwright_browsers
    if env == "0":
        import playwright

        return Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers"
    if env:
        return Path(env).resolve()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ms-playwright"
    if sys.platform.startswith("win"):
        return Path(settings.local_app_data or Path.home()) / "ms-playwright"
    cache = settings.cache_home or str(Path.home() / ".cache")
    return Path(cache) / "ms-playwright"


def playwright_ffmpeg() -> Path:
    """The ffmpeg Playwright records video with; the system's ffmpeg, linked where
    Playwright looks, when Playwright's own (``playwright install ffmpeg``) is absent."""
    import playwright

    table = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    browsers = json.loads(table.read_text(encoding="utf-8"))["browsers"]
    revision = next(b["revision"] for b in browsers if b["name"] == "ffmpeg")
    name = {"darwin": "ffmpeg-mac"}.get(sys.platform, "ffmpeg-linux")
    if sys.platform.startswith("win"):
        name = "ffmpeg-win64.exe"
    target = _registry_dir() / f"ffmpeg-{revision}" / name
    if target.exists():
        return target
    system = tool("ffmpeg")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():  # a link to an ffmpeg since removed
            target.unlink()
        target.symlink_to(system)
    except OSError as exc:
        raise ToolMissingError(
            f"recording video needs an ffmpeg at {target} ({exc.strerror}); run "
            "`playwright install ffmpeg`, or set PLAYWRIGHT_BROWSERS_PATH to a writable folder."
        ) from None
    return target


def _run(args: list[str], what: str) -> str:
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        tail = (done.stderr or "").strip().splitlines()[-1:] or ["no message"]
        raise CaptureError(f"{what} failed: {tail[0]}")
    return done.stdout


@dataclass(frozen=True)
class VideoFacts:
    """What ffprobe reads off a video file."""

    width: int
    height: int
    codec: str
    fps: float
    duration: float
    audio_channels: int  # 0: no audio track
    audio_codec: str
    pix_fmt: str


def probe(path: str | Path) -> VideoFacts | None:
    """The facts of a video file, or None when ffprobe cannot read it as one."""
    out = subprocess.run(
        [
            tool("ffprobe"),
            "-v",
            "error",
            "-show_entries",
            "stream=codec_type,codec_name,width,height,avg_frame_rate,channels,pix_fmt"
            ":format=duration",
            "-of",
            "json",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if out.returncode != 0:
        return None
    try:
        data = json.loads(out.stdout)
    except ValueError:
        return None
    streams = data.get("streams") or []
    video = next((s for s in streams if s.get("codec_type") == "video"), None)
    if video is None:
        return None
    audio: dict[str, Any] = next((s for s in streams if s.get("codec_type") == "audio"), {})
    num, _, den = str(video.get("avg_frame_rate") or "0/1").partition("/")
    try:
        fps = float(num) / float(den or 1) if float(den or 1) else 0.0
        duration = float((data.get("format") or {}).get("duration") or 0)
    except ValueError:
        fps, duration = 0.0, 0.0
    return VideoFacts(
        width=int(video.get("width") or 0),
        height=int(video.get("height") or 0),
        codec=str(video.get("codec_name") or ""),
        fps=fps,
        duration=duration,
        audio_channels=int(audio.get("channels") or 0),
        audio_codec=str(audio.get("codec_name") or ""),
        pix_fmt=str(video.get("pix_fmt") or ""),
    )


def accepted_sizes() -> dict[tuple[int, int], str]:
    """Every accepted video size and what takes it ('App Store 6.9"...', 'Google Play')."""
    rules = video_rules()
    out: dict[tuple[int, int], list[str]] = {}
    for cls, sizes in rules["app_store"]["sizes"].items():
        for w, h in sizes:
            out.setdefault((w, h), []).append(f'{cls}"')
    named = {size: "App Store " + "/".join(classes) for size, classes in out.items()}
    w, h = rules["google_play"]["preview"]
    named[(w, h)] = named.get((w, h), "App Store") + " and Google Play promo"
    return named


def video_problems(path: str | Path) -> list[tuple[str, str]]:
    """(rule, message) for each store rule the video at ``path`` breaks ([] when none)."""
    facts = probe(path)
    if facts is None:
        return [("video-unreadable", "ffprobe cannot read a video stream; re-export it as MP4")]
    rules = video_rules()["app_store"]
    out: list[tuple[str, str]] = []
    sizes = accepted_sizes()
    if (facts.width, facts.height) not in sizes:
        listed = ", ".join(f"{w}x{h}" for w, h in sizes if h > w)
        out.append(
            (
                "video-size",
                f"{facts.width}x{facts.height}; an app preview is one of {listed} "
                "(portrait; landscape swaps them)",
            )
        )
    if facts.codec != rules["codec"]:
        out.append(("video-codec", f"codec {facts.codec}; encode it as H.264 (libx264)"))
    if abs(facts.fps - rules["fps"]) > 0.5:
        out.append(("video-fps", f"{facts.fps:.2f} fps; app previews are {rules['fps']} fps"))
    low, high = rules["duration_s"]
    if not low <= round(facts.duration, 1) <= high:
        out.append(
            (
                "video-duration",
                f"{facts.duration:.1f} s long; an app preview runs {low}-{high} s",
            )
        )
    if facts.audio_channels == 0:
        out.append(
            (
                "video-audio",
                "no audio track; App Store Connect wants one (a silent stereo AAC track)",
            )
        )
    elif facts.audio_channels != rules["audio_channels"]:
        out.append(("video-audio", f"{facts.audio_channels} audio channel(s); use stereo"))
    return out


def recordings_in(folder: str | Path) -> list[Path]:
    """Playwright's recordings in ``folder``, in the order the pages were closed."""
    files = [p for p in Path(folder).glob("*.webm") if p.stat().st_size > 0]
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name))


BLANK_PROBE_FPS = 10  # frames a second looked at for blank ones
BLANK_PROBE_SIZE = (96, 192)  # px: enough to tell a page from an empty one
BLANK_LEVELS = 24  # grey levels from the frame's commonest grey that count as drawn
BLANK_SHARE = 0.02  # a frame with less of it drawn is blank (a spinner, a "Loading" line)


def _drawn(path: str | Path, limit: float) -> Any:
    """One flag per probed frame (``BLANK_PROBE_FPS`` a second, up to ``limit`` s): True
    where at least ``BLANK_SHARE`` of the pixels differ from the frame's two flat greys
    (its commonest, and the commonest of the rest)."""
    import numpy as np

    width, height = BLANK_PROBE_SIZE
    done = subprocess.run(
        [tool("ffmpeg"), "-v", "error", "-i", str(path), "-t", f"{limit:.3f}"]
        + ["-vf", f"fps={BLANK_PROBE_FPS},scale={width}:{height}"]
        + ["-f", "rawvideo", "-pix_fmt", "gray", "-"],
        capture_output=True,
        timeout=120,
    )
    count = len(done.stdout) // (width * height) if done.returncode == 0 else 0
    if not count:
        return np.zeros(0, dtype=bool)
    frames = np.frombuffer(done.stdout[: count * width * height], dtype=np.uint8)
    frames = frames.reshape(count, width * height)
    grey = frames.astype(np.int16)
    drawn = np.ones_like(grey, dtype=bool)
    for _ in range(2):  # the page's colour, then one flat area beside it: the grey the
        # recorder pads a smaller frame with, a splash's band; what differs from both is drawn
        left = np.where(drawn, grey, 256)
        common = np.array([np.bincount(f, minlength=257)[:256].argmax() for f in left])
        drawn &= np.abs(grey - common[:, None]) > BLANK_LEVELS
    return drawn.mean(axis=1) > BLANK_SHARE


def blank_lead(path: str | Path, *, limit: float = 30.0) -> float:
    """Seconds of blank frames at the start of a recording: frames where less than
    ``BLANK_SHARE`` of the pixels differ from the frame's two flat greys (the empty page a
    browser shows while it loads, with at most a spinner or a one-line "Loading", on the
    grey the recorder pads a smaller frame with).
    The whole length read (up to ``limit`` s) when no frame shows more."""
    drawn = _drawn(path, limit)
    showing = drawn.nonzero()[0]
    return float(showing[0] if showing.size else drawn.size) / BLANK_PROBE_FPS


MIN_SPAN_S = 0.3  # s: a shorter stretch of footage between cuts is a flash, not a scene
CUT_SLACK_S = 0.2  # s: a cut reaches this much further (the recording lags the browser)


def spans(
    path: str | Path, duration: float, cuts: Sequence[tuple[float, float]] = ()
) -> list[tuple[float, float]]:
    """The stretches of a recording (start, end in s) that go into a preview: frames that
    show a page (see :func:`blank_lead`), outside ``cuts`` (what the capture judged no
    screen: an error page, a page that never loaded, a duplicate), each at least
    ``MIN_SPAN_S`` long."""
    import numpy as np

    keep = _drawn(path, duration + 1.0)
    at = np.arange(keep.size) / BLANK_PROBE_FPS
    for start, end in cuts:
        keep &= (at + 1.0 / BLANK_PROBE_FPS <= start) | (at >= end + CUT_SLACK_S)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], keep.astype(np.int8), [0]))))
    out = []
    for first, last in zip(edges[::2], edges[1::2]):
        # a probed frame stands for the half-frame around it: the stretch starts once the
        # drawn frame certainly is up
        start = (first + 0.5) / BLANK_PROBE_FPS
        end = min(last / BLANK_PROBE_FPS, duration)
        if end - start >= MIN_SPAN_S:
            out.append((float(start), float(end)))
    return out


FOOTAGE_CUTS = "footage-cuts.json"  # beside the recordings: {file name: [[from, to] s]}


def make_previews(
    recordings: list[Path],
    out_dir: str | Path,
    *,
    band: Image.Image | None = None,
    background: tuple[int, int, int] = (255, 255, 255),
    cuts: dict[str, list[tuple[float, float]]] | None = None,
) -> dict[str, Path]:
    """Join ``recordings`` and write the App Store preview and the Play promo clip.

    ``band``: the status bar (the top rows of a finished screenshot), drawn above the
    footage, scaled to the video's width. ``background`` fills what the footage does not
    cover (the sides of the wider Play clip). ``cuts``: per recording's file name, the
    stretches (from, to, in s) that show no screen and are left out (a capture writes them
    to ``FOOTAGE_CUTS`` beside its recordings). Returns {"app_store": path, "google_play":
    path}.
    """
    footage, size = _footage(recordings, cuts or {})
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rules = video_rules()
    low, high = rules["app_store"]["duration_s"]
    fps = rules["app_store"]["fps"]
    length = sum(end - start for _, start, end in footage)
    target = min(max(length, float(low)), float(high))
    outputs = {
        store: (out / name, tuple(rules[store]["preview"]))
        for store, name in (("app_store", APP_PREVIEW), ("google_play", PLAY_PROMO))
    }
    with tempfile.TemporaryDirectory(prefix="shotsmith-video-") as tmp:
        args = [tool("ffmpeg"), "-y", "-v", "error"]
        graph, inputs = _joined(footage, args, size, fps)
        hold = max(0.0, target - length) + 1.0  # a second more than needed; -t cuts it
        graph += f"trim=duration={target:.3f},tpad=stop_mode=clone:stop_duration={hold:.3f},"
        graph += f"split={len(outputs)}" + "".join(f"[s{k}]" for k in range(len(outputs))) + ";"
        maps = []
        for k, (path, (w, h)) in enumerate(outputs.values()):
            backdrop, top = _backdrop((w, h), band, background, Path(tmp))
            args += ["-loop", "1", "-framerate", str(fps), "-i", str(backdrop)]
            area = h - top
            graph += (
                f"[s{k}]scale={w}:{area}:force_original_aspect_ratio=decrease,setsar=1[f{k}];"
                f"[{inputs}:v][f{k}]overlay=x=(W-w)/2:y={top}+({area}-h)/2:shortest=1,"
                f"fps={fps},format=yuv420p[v{k}];"
            )
            maps.append((path, f"[v{k}]"))
            inputs += 1
        args += ["-f", "lavfi", "-i", "anullsrc=channel_layout=stereo:sample_rate=44100"]
        args += ["-filter_complex", graph.rstrip(";")]
        for path, label in maps:
            args += ["-map", label, "-map", f"{inputs}:a"]
            args += ["-c:v", "libx264", "-profile:v", "high", "-preset", "veryfast"]
            args += ["-crf", "20", "-pix_fmt", "yuv420p", "-r", str(fps)]
            args += ["-c:a", "aac", "-b:a", "128k", "-ac", "2"]
            args += ["-t", f"{target:.3f}", "-movflags", "+faststart", str(path)]
        _run(args, "writing the preview videos (ffmpeg)")
    return {store: path for store, (path, _) in outputs.items()}


def _joined(
    footage: list[tuple[Path, float, float]], args: list[str], size: tuple[int, int], fps: int
) -> tuple[str, int]:
    """The filter graph's start: the stretches of footage, in order, at one size, joined
    (ends open, for the caller to go on); each recording is added to ``args`` as an input,
    and their number returned with the graph."""
    inputs: dict[Path, int] = {}
    for path, _, _ in footage:
        if path not in inputs:
            inputs[path] = len(inputs)
            args += ["-i", str(path)]
    uses = {path: [k for k, (p, _, _) in enumerate(footage) if p == path] for path in inputs}
    # a recording has a frame only where the page changed: made constant-rate before it is
    # cut, so that every stretch has its frames (a still page from its first second)
    graph = ""
    for path, i in inputs.items():
        copies = "".join(f"[c{k}]" for k in uses[path])
        graph += f"[{i}:v]fps={fps},split={len(uses[path])}{copies};"
    w, h = size
    for k, (_, start, end) in enumerate(footage):
        graph += (
            f"[c{k}]trim=start={start:.3f}:end={end:.3f},setpts=PTS-STARTPTS,"
            f"scale={w}:{h},setsar=1,format=yuv420p[r{k}];"
        )
    graph += "".join(f"[r{k}]" for k in range(len(footage))) + f"concat=n={len(footage)}:v=1:a=0,"
    return graph, len(inputs)


def _footage(
    recordings: list[Path], cuts: dict[str, list[tuple[float, float]]]
) -> tuple[list[tuple[Path, float, float]], tuple[int, int]]:
    """The stretches of the recordings that show a screen, in order, as (recording, start,
    end), all of one size, and that size (even); a CaptureError when none shows one."""
    read = {p: probe(p) for p in recordings}  # a page closed at once may leave no frame
    facts = {p: f for p, f in read.items() if f is not None and f.width and f.height}
    recordings = [p for p in recordings if p in facts]
    if not recordings:
        raise CaptureError("no video was recorded (the browser wrote no readable recording).")
    shown = {p: spans(p, facts[p].duration, cuts.get(p.name, [])) for p in recordings}
    recordings = [p for p in recordings if shown[p]]
    if not recordings:
        raise CaptureError(
            "the recording shows only blank frames (the pages never drew); check that the "
            "web app renders in a headless browser."
        )
    # one device's recordings share a size: an exploration restarted at another device
    # (a desktop layout at a phone, explored again at a tablet) is the last one's size
    last = facts[recordings[-1]]
    size = (last.width, last.height)
    footage = [
        (p, start, end)
        for p in recordings
        if (facts[p].width, facts[p].height) == size
        for start, end in shown[p]
    ]
    return footage, _even(last)


def _even(facts: VideoFacts) -> tuple[int, int]:
    return facts.width + facts.width % 2, facts.height + facts.height % 2


def _backdrop(
    size: tuple[int, int],
    band: Image.Image | None,
    background: tuple[int, int, int],
    folder: Path,
) -> tuple[Path, int]:
    """A still of the video's size: the status bar at the top, ``background`` below; and
    the status bar's height (even, 0 without one)."""
    w, h = size
    top = 0
    frame = Image.new("RGB", (w, h), background)
    if band is not None and band.width and band.height:
        top = max(2, round(band.height * w / band.width / 2) * 2)
        frame.paste(band.convert("RGB").resize((w, top), Image.Resampling.LANCZOS), (0, 0))
    path = folder / f"backdrop-{w}x{h}.png"
    frame.save(path)
    return path, top

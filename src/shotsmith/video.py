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
on the first screenshot stands above the footage, as on the screenshots. Each page's
recording starts with the blank page the browser shows while it loads: those frames
(:func:`blank_lead`: one colour, or one colour and a spinner) are cut, and a recording
that never shows more is left out, so a preview opens on the app.

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


def blank_lead(path: str | Path, *, limit: float = 30.0) -> float:
    """Seconds of blank frames at the start of a recording: frames where less than
    ``BLANK_SHARE`` of the pixels differ from the frame's commonest grey (the empty page a
    browser shows while it loads, with at most a spinner or a one-line "Loading").
    The whole length read (up to ``limit`` s) when no frame shows more."""
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
        return 0.0
    frames = np.frombuffer(done.stdout[: count * width * height], dtype=np.uint8)
    frames = frames.reshape(count, width * height)
    common = np.array([np.bincount(f, minlength=256).argmax() for f in frames], dtype=np.int16)
    drawn = (np.abs(frames.astype(np.int16) - common[:, None]) > BLANK_LEVELS).mean(axis=1)
    showing = np.flatnonzero(drawn > BLANK_SHARE)
    return float(showing[0] if showing.size else count) / BLANK_PROBE_FPS


def make_previews(
    recordings: list[Path],
    out_dir: str | Path,
    *,
    band: Image.Image | None = None,
    background: tuple[int, int, int] = (255, 255, 255),
) -> dict[str, Path]:
    """Join ``recordings`` and write the App Store preview and the Play promo clip.

    ``band``: the status bar (the top rows of a finished screenshot), drawn above the
    footage, scaled to the video's width. ``background`` fills what the footage does not
    cover (the sides of the wider Play clip). Returns {"app_store": path, "google_play":
    path}.
    """
    recordings, facts, lead = _footage(recordings)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rules = video_rules()
    low, high = rules["app_store"]["duration_s"]
    fps = rules["app_store"]["fps"]
    ffmpeg = tool("ffmpeg")
    length = sum(facts[p].duration - lead[p] for p in recordings)
    target = min(max(length, float(low)), float(high))
    w0, h0 = _even(facts[recordings[0]])
    outputs = {
        store: (out / name, tuple(rules[store]["preview"]))
        for store, name in (("app_store", APP_PREVIEW), ("google_play", PLAY_PROMO))
    }
    with tempfile.TemporaryDirectory(prefix="shotsmith-video-") as tmp:
        args = [ffmpeg, "-y", "-v", "error"]
        for path in recordings:
            args += ["-i", str(path)]
        n = len(recordings)
        graph = "".join(
            f"[{i}:v]trim=start={lead[p]:.3f},setpts=PTS-STARTPTS,"
            f"scale={w0}:{h0},setsar=1,fps={fps},format=yuv420p[r{i}];"
            for i, p in enumerate(recordings)
        )
        graph += "".join(f"[r{i}]" for i in range(n)) + f"concat=n={n}:v=1:a=0,"
        hold = max(0.0, target - length) + 1.0  # a second more than needed; -t cuts it
        graph += f"trim=duration={target:.3f},tpad=stop_mode=clone:stop_duration={hold:.3f},"
        graph += f"split={len(outputs)}" + "".join(f"[s{k}]" for k in range(len(outputs))) + ";"
        inputs = n
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


def _footage(
    recordings: list[Path],
) -> tuple[list[Path], dict[Path, VideoFacts], dict[Path, float]]:
    """The recordings that show something, of one size, with their facts and the seconds of
    blank frames each starts with; a CaptureError when none does."""
    read = {p: probe(p) for p in recordings}  # a page closed at once may leave no frame
    facts = {p: f for p, f in read.items() if f is not None and f.width and f.height}
    recordings = [p for p in recordings if p in facts]
    if not recordings:
        raise CaptureError("no video was recorded (the browser wrote no readable recording).")
    lead = {p: blank_lead(p, limit=facts[p].duration + 1.0) for p in recordings}
    shown = [p for p in recordings if facts[p].duration - lead[p] >= 1.0 / BLANK_PROBE_FPS]
    if not shown:
        raise CaptureError(
            "the recording shows only blank frames (the pages never drew); check that the "
            "web app renders in a headless browser."
        )
    # one device's recordings share a size: an exploration restarted at another device
    # (a desktop layout at a phone, explored again at a tablet) is the last one's size
    size = (facts[shown[-1]].width, facts[shown[-1]].height)
    return [p for p in shown if (facts[p].width, facts[p].height) == size], facts, lead


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

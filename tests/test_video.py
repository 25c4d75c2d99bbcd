"""App preview videos: ``capture --video`` on the sample site, held short footage, and the
store checks ``validate`` makes of a video (read back with ffprobe, not with shotsmith)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from shotsmith.cli import build_parser
from shotsmith.errors import InvalidOptionError
from shotsmith.export.validate import validate
from shotsmith.stages.capture.stage import capture_report
from shotsmith.video import make_previews

from .stages.capture.test_capture import SITE, Server, needs_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
needs_ffmpeg = pytest.mark.skipif(not shutil.which("ffmpeg"), reason="no ffmpeg")


def _cli(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


def _ffprobe(path: Path) -> dict:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def _frame(path: Path, at: float) -> np.ndarray:
    png = path.with_suffix(f".{at:g}.png")
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-ss", str(at), "-i", str(path), "-frames:v", "1", png],
        check=True,
    )
    with Image.open(png) as im:
        return np.asarray(im.convert("RGB"), dtype=np.int16)


def _clip(path: Path, size: tuple[int, int], seconds: float, *, audio: bool, codec: str) -> Path:
    """A test-pattern video made with ffmpeg (what a user might upload by mistake)."""
    args = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi"]
    args += ["-i", f"testsrc=size={size[0]}x{size[1]}:rate=30:duration={seconds}"]
    if audio:
        args += ["-f", "lavfi", "-i", f"anullsrc=channel_layout=stereo:d={seconds}"]
    args += ["-c:v", codec, "-pix_fmt", "yuv420p"]
    if audio:
        args += ["-c:a", "aac", "-shortest"]
    subprocess.run([*args, str(path)], check=True)
    return path


@needs_browser
@needs_ffmpeg
def test_capture_video_gives_previews_validate_accepts(tmp_path, capsys):
    server = Server(SITE)
    try:
        out = tmp_path / "captured"
        code = _cli(
            [
                "capture",
                server.url + "/",
                "--out",
                str(out),
                "--size",
                "6.9",
                "--max-screens",
                "3",
                "--timeout",
                "20",
                "--min-screens",
                "1",
                "--video",
            ]
        )
    finally:
        server.close()
    assert code == 0
    printed = capsys.readouterr().out
    preview, promo = out / "video" / "app-preview.mp4", out / "video" / "play-promo.mp4"
    assert f"{preview}  App Store app preview" in printed
    for path, size in ((preview, (886, 1920)), (promo, (1080, 1920))):
        facts = _ffprobe(path)
        video = next(s for s in facts["streams"] if s["codec_type"] == "video")
        audio = next(s for s in facts["streams"] if s["codec_type"] == "audio")
        assert (video["width"], video["height"]) == size
        assert video["codec_name"] == "h264" and video["pix_fmt"] == "yuv420p"
        assert video["avg_frame_rate"] == "30/1"
        assert audio["codec_name"] == "aac" and audio["channels"] == 2
        assert 15.0 <= float(facts["format"]["duration"]) <= 30.05
    assert validate(out / "video") == []
    capsys.readouterr()
    assert _cli(["validate", str(out / "video")]) == 0
    assert "ok: 0 screenshots, 2 videos under" in capsys.readouterr().out
    # real footage: the status bar drawn above the page, the page's own text below it, at
    # every second: the site's broken link (a bare "Error response" page), the route that
    # never answers and the page that never loads are no screens and are left out
    band = round(62 * 3 * 886 / 1320)  # the 6.9" iPhone's status bar, at the preview's width
    for at in range(int(float(_ffprobe(preview)["format"]["duration"]))):
        frame = _frame(preview, at)
        assert (frame[:band].max(axis=2) < 80).mean() > 0.005, at  # the bar's dark glyphs
        page = frame[band + 10 :]
        assert page.std() > 20, at  # not a blank, grey or error page


@needs_ffmpeg
def test_short_footage_is_held_to_15_s(tmp_path):
    rec = tmp_path / "rec"
    rec.mkdir()
    webm = rec / "page.webm"
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i"]
        + ["testsrc=size=440x894:rate=25:duration=3", "-c:v", "libvpx-vp9"]
        + ["-deadline", "realtime", "-cpu-used", "8", str(webm)],
        check=True,
    )
    written = make_previews([webm], tmp_path / "video")
    preview = written["app_store"]
    facts = _ffprobe(preview)
    assert abs(float(facts["format"]["duration"]) - 15.0) < 0.1
    assert validate(tmp_path / "video") == []
    # after the 3 s of footage its last frame holds (testsrc's counter stops moving)
    late, later = _frame(preview, 6), _frame(preview, 14)
    assert np.abs(late - later).mean() < 2
    early = _frame(preview, 1)
    assert np.abs(early - late).mean() > 2  # the footage itself moves


@needs_ffmpeg
def test_bad_videos_named_in_one_line_each(tmp_path, capsys):
    folder = tmp_path / "previews"
    folder.mkdir()
    wrong = _clip(folder / "wrong-size.mp4", (886, 1000), 16, audio=True, codec="libx264")
    short = _clip(folder / "short.mp4", (886, 1920), 4, audio=False, codec="libx264")
    problems = validate(folder)
    rules = {(Path(p.path).name, p.rule) for p in problems}
    assert rules == {
        ("wrong-size.mp4", "video-size"),
        ("short.mp4", "video-duration"),
        ("short.mp4", "video-audio"),
    }
    assert _cli(["validate", str(wrong)]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0] == (
        f"{wrong}: video-size: 886x1000; an app preview is one of 886x1920, 1080x1920, "
        "1200x1600 (portrait; landscape swaps them)"
    )
    assert _cli(["validate", str(short)]) == 1
    err = capsys.readouterr().err
    assert f"{short}: video-duration: 4.0 s long; an app preview runs 15-30 s" in err.splitlines()
    assert "Traceback" not in err


def test_video_needs_a_web_app_and_an_out_folder(tmp_path):
    with pytest.raises(InvalidOptionError, match="out_dir"):
        capture_report("http://127.0.0.1:9/", video=True)
    with pytest.raises(InvalidOptionError, match="web app"):
        capture_report(tmp_path, video=True, out_dir=tmp_path / "out")


def _webm(path: Path, *parts: str) -> Path:
    """A VP9 recording (Playwright's format) of lavfi sources played one after another."""
    args = ["ffmpeg", "-v", "error", "-y"]
    for part in parts:
        args += ["-f", "lavfi", "-i", part]
    joined = "".join(f"[{i}:v]" for i in range(len(parts))) + f"concat=n={len(parts)}:v=1:a=0"
    args += ["-filter_complex", joined, "-c:v", "libvpx-vp9", "-deadline", "realtime"]
    subprocess.run([*args, "-cpu-used", "8", str(path)], check=True)
    return path


WHITE = "color=c=white:size=440x894:rate=25:duration={}"
SPINNER = WHITE + ",drawbox=x=200:y=427:w=40:h=40:color=0x3366ff:t=fill"
APP = "testsrc=size=440x894:rate=25:duration=3"


@needs_ffmpeg
def test_blank_and_loading_frames_at_the_start_are_measured(tmp_path):
    from shotsmith.video import blank_lead

    assert blank_lead(_webm(tmp_path / "a.webm", WHITE.format(1.2), APP)) == pytest.approx(1.2)
    # a spinner on the empty page is still loading; the app's first frame ends it
    loading = _webm(tmp_path / "b.webm", WHITE.format(0.5), SPINNER.format(1.0), APP)
    assert blank_lead(loading) == pytest.approx(1.5)
    assert blank_lead(_webm(tmp_path / "c.webm", APP)) == 0.0
    assert blank_lead(_webm(tmp_path / "d.webm", WHITE.format(2))) == pytest.approx(2.0)


@needs_ffmpeg
def test_the_preview_opens_on_the_app_not_on_a_loading_page(tmp_path):
    from shotsmith.errors import CaptureError

    empty = _webm(tmp_path / "1.webm", WHITE.format(2))  # a page that never drew
    page = _webm(tmp_path / "2.webm", WHITE.format(1.5), SPINNER.format(1.0), APP)
    written = make_previews([empty, page], tmp_path / "video")
    preview = written["app_store"]
    assert validate(tmp_path / "video") == []
    first = _frame(preview, 0.05)
    grey = first.mean(axis=2)
    # the footage's first frame is the app's (testsrc's colour bars), not a white page
    assert (np.abs(grey - np.median(grey)) > 24).mean() > 0.3
    assert first.shape == (1920, 886, 3)
    # the 3 s of footage that show the app are all that is kept, held to 15 s
    assert np.abs(_frame(preview, 2.5) - _frame(preview, 3.5)).mean() > 1
    assert np.abs(_frame(preview, 6) - _frame(preview, 14)).mean() < 2
    with pytest.raises(CaptureError, match="only blank frames"):
        make_previews([empty], tmp_path / "none")


@needs_ffmpeg
def test_what_the_capture_judged_no_screen_is_cut_from_the_preview(tmp_path):
    # a red page with a white card stands for an error page (drawn: no blank frame)
    red = "color=c=0xcc2222:size=440x894:rate=25:duration=2"
    red += ",drawbox=x=40:y=100:w=360:h=300:color=white:t=fill"
    page = _webm(tmp_path / "1.webm", APP, red, WHITE.format(0.8), APP)
    # the error page from 3 s to 5 s; the white frames after it are a page loading
    written = make_previews([page], tmp_path / "video", cuts={"1.webm": [(3.0, 5.0)]})
    preview = written["app_store"]
    assert validate(tmp_path / "video") == []
    for at in np.arange(0.0, 6.0, 0.25):
        frame = _frame(preview, float(at))[200:]
        reddish = (frame[..., 0] > 150) & (frame[..., 1] < 80) & (frame[..., 2] < 80)
        assert reddish.mean() < 0.25, at  # never the error page (testsrc: 0.1)
        assert frame.std() > 20, at  # never the blank page
    # the 6 s that show the app are kept, in order, then held to 15 s
    assert np.abs(_frame(preview, 2.0) - _frame(preview, 4.0)).mean() > 1
    assert np.abs(_frame(preview, 7) - _frame(preview, 14)).mean() < 2

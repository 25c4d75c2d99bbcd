"""Make a small local music library for Mopidy: four albums by made-up artists.

``library DATA``: each track is a quiet sine-tone Ogg Vorbis file of the track's length,
encoded with GStreamer (the same GStreamer Mopidy plays through), tagged with mutagen
(artist, album, title, track number, year, genre); each album folder gets an abstract
cover drawn here (cover.jpg), which Mopidy-Local serves as album art; an m3u playlist.
Then ``mopidy local scan`` indexes it (run by the spec). ``play PORT``: over Mopidy's
JSON-RPC, queue an album and a few more tracks and start playing the album's second
track, so the player has a now-playing track and a queue. Same files every reseed.
Usage: python mopidy_seed.py library DATA PORT | play PORT
"""

from __future__ import annotations

import json
import random
import sys
import time
import urllib.request
from pathlib import Path

ALBUMS = [
    (
        "The Harbour Lights",
        "Low Tide",
        2023,
        "Indie",
        ("#0f4c5c", "#e36414", "#fb8b24"),
        [
            ("Salt in the Air", 212),
            ("Low Tide", 247),
            ("Lighthouse Keeper", 198),
            ("Paper Boats", 185),
            ("Northern Pier", 263),
        ],
    ),
    (
        "Mira Okafor",
        "Paper Lanterns",
        2024,
        "Jazz",
        ("#3d348b", "#f7b801", "#f18701"),
        [("Paper Lanterns", 276), ("Blue Hour", 301), ("Kettle On", 189), ("Quiet Streets", 254)],
    ),
    (
        "Northbound Static",
        "Signal Fires",
        2022,
        "Electronic",
        ("#10002b", "#7b2cbf", "#c77dff"),
        [("Signal Fires", 318), ("Night Bus", 241), ("Glasshouse", 287), ("Afterglow", 352)],
    ),
    (
        "Elena Voss Quartet",
        "Winter Rooms",
        2021,
        "Classical",
        ("#edf2f4", "#8d99ae", "#2b2d42"),
        [("I. Snowfall", 402), ("II. Window Seat", 338), ("III. Thaw", 291)],
    ),
]


def cover(path: Path, colours: tuple[str, str, str], seed: int) -> None:
    from PIL import Image, ImageDraw

    rnd = random.Random(seed)
    image = Image.new("RGB", (600, 600), colours[0])
    draw = ImageDraw.Draw(image)
    for _ in range(7):
        x, y, r = rnd.randint(0, 600), rnd.randint(0, 600), rnd.randint(60, 240)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=rnd.choice(colours[1:]))
    draw.rectangle((0, 470, 600, 600), fill=colours[0])
    image.save(path, quality=88)


def tone(path: Path, seconds: int, freq: float) -> None:
    import gi

    gi.require_version("Gst", "1.0")
    from gi.repository import Gst

    Gst.init(None)
    buffers = seconds * 11025 // 1024
    pipeline = Gst.parse_launch(
        f"audiotestsrc wave=sine freq={freq} volume=0.05 num-buffers={buffers} samplesperbuffer=1024 "
        "! audio/x-raw,rate=11025,channels=1 ! audioconvert ! vorbisenc quality=0.0 ! oggmux "
        f'! filesink location="{path}"'
    )
    pipeline.set_state(Gst.State.PLAYING)
    pipeline.get_bus().timed_pop_filtered(
        Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR
    )
    pipeline.set_state(Gst.State.NULL)


CONFIG = """[core]
cache_dir = {d}/cache
config_dir = {d}/config
data_dir = {d}/state
[audio]
output = fakesink sync=true
[http]
hostname = 127.0.0.1
port = {port}
[mpd]
enabled = false
[local]
media_dir = {d}/music
album_art_files = cover.jpg
[file]
enabled = false
[m3u]
playlists_dir = {d}/playlists
base_dir = {d}/music
[stream]
enabled = false
[iris]
country = GB
locale = en_GB
"""


def library(data: Path, port: int) -> None:
    from mutagen.oggvorbis import OggVorbis

    (data / "mopidy.conf").write_text(CONFIG.format(d=data, port=port))
    music = data / "music"
    for number, (artist, album, year, genre, colours, tracks) in enumerate(ALBUMS):
        folder = music / artist / album
        folder.mkdir(parents=True, exist_ok=True)
        cover(folder / "cover.jpg", colours, number)
        for index, (title, seconds) in enumerate(tracks, start=1):
            path = folder / f"{index:02d} {title}.ogg"
            tone(path, seconds, 220 + 40 * index + 15 * number)
            tags = OggVorbis(path)
            tags.update(
                {
                    "artist": artist,
                    "albumartist": artist,
                    "album": album,
                    "title": title,
                    "tracknumber": str(index),
                    "date": str(year),
                    "genre": genre,
                }
            )
            tags.save()
    playlists = data / "playlists"
    playlists.mkdir(parents=True, exist_ok=True)
    picks = [(0, 0), (1, 1), (2, 1), (0, 3), (1, 2), (3, 1)]
    lines = ["#EXTM3U"]
    for a, t in picks:
        artist, album, _y, _g, _c, tracks = ALBUMS[a]
        lines.append(f"#EXTINF:{tracks[t][1]},{artist} - {tracks[t][0]}")
        lines.append(str(music / artist / album / f"{t + 1:02d} {tracks[t][0]}.ogg"))
    (playlists / "Sunday Morning.m3u8").write_text("\n".join(lines) + "\n")


def rpc(port: int, method: str, **params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mopidy/rpc", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response).get("result")


def play(port: int) -> None:
    for _ in range(60):
        albums = rpc(port, "core.library.browse", uri="local:directory?type=album") or []
        if albums:
            break
        time.sleep(1)
    by_name = {a["name"]: a["uri"] for a in albums}
    first = [u for n, u in by_name.items() if "Paper Lanterns" in n][0]
    rpc(port, "core.tracklist.clear")
    rpc(
        port,
        "core.tracklist.add",
        uris=[t["uri"] for t in rpc(port, "core.library.browse", uri=first)],
    )
    other = [u for n, u in by_name.items() if "Low Tide" in n][0]
    rpc(
        port,
        "core.tracklist.add",
        uris=[t["uri"] for t in rpc(port, "core.library.browse", uri=other)][:3],
    )
    tracks = rpc(port, "core.tracklist.get_tl_tracks")
    rpc(port, "core.mixer.set_volume", volume=70)
    rpc(port, "core.playback.play", tlid=tracks[1]["tlid"])
    time.sleep(2)
    rpc(port, "core.playback.seek", time_position=83_000)


if __name__ == "__main__":
    if sys.argv[1] == "library":
        library(Path(sys.argv[2]), int(sys.argv[3]))
    else:
        play(int(sys.argv[2]))

"""Seed a Transmission daemon with a fixed set of torrents: some complete, some part-done.

Before the daemon starts (``config DATA``): writes settings.json (RPC on 127.0.0.1 only,
no DHT / PEX / LPD / uTP, no port forwarding, so nothing reaches the network), makes
sparse payload files and .torrent files for them with ``transmission-create`` (no
tracker), and lays each torrent's data in the download folder complete or cut short, so
the daemon's verification finds it 100 % or part done. After it starts (``add DATA
PORT``): adds the torrents with ``transmission-remote``, verifies them, pauses a few and
sets speed limits. Every reseed gives the same torrents, sizes and progress.
Usage: python transmission_seed.py config DATA PORT | add DATA PORT
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

MB = 1024 * 1024
# (name, files [(relative path, size in MB)], fraction present, paused)
TORRENTS = [
    ("debian-12.8.0-amd64-netinst.iso", [("debian-12.8.0-amd64-netinst.iso", 631)], 1.0, False),
    (
        "Big Buck Bunny (2008) 1080p",
        [
            ("Big Buck Bunny (2008) 1080p/big_buck_bunny_1080p.mp4", 692),
            ("Big Buck Bunny (2008) 1080p/big_buck_bunny.srt", 1),
            ("Big Buck Bunny (2008) 1080p/poster.jpg", 1),
        ],
        1.0,
        False,
    ),
    (
        "Sintel (2010) 4K",
        [
            ("Sintel (2010) 4K/sintel-4k.mkv", 1840),
            ("Sintel (2010) 4K/subtitles/sintel_en.srt", 1),
            ("Sintel (2010) 4K/subtitles/sintel_de.srt", 1),
            ("Sintel (2010) 4K/subtitles/sintel_fr.srt", 1),
        ],
        0.64,
        False,
    ),
    ("ubuntu-24.04.1-desktop-amd64.iso", [("ubuntu-24.04.1-desktop-amd64.iso", 1380)], 0.27, False),
    (
        "LibriVox - Pride and Prejudice (MP3)",
        [
            (f"LibriVox - Pride and Prejudice (MP3)/prideandprejudice_{n:02d}_austen.mp3", 11)
            for n in range(1, 25)
        ],
        1.0,
        False,
    ),
    (
        "Tears of Steel (2012) 1080p",
        [
            ("Tears of Steel (2012) 1080p/tears_of_steel_1080p.mov", 540),
        ],
        0.12,
        True,
    ),
    (
        "Fedora-Workstation-Live-x86_64-41.iso",
        [("Fedora-Workstation-Live-x86_64-41.iso", 1020)],
        0.0,
        True,
    ),
    (
        "OpenStreetMap extract - Netherlands (PBF)",
        [("netherlands-latest.osm.pbf", 410)],
        0.83,
        False,
    ),
]


def settings(data: Path, port: int) -> dict:
    return {
        "rpc-enabled": True,
        "rpc-bind-address": "127.0.0.1",
        "rpc-port": port,
        "rpc-authentication-required": False,
        "rpc-whitelist-enabled": True,
        "rpc-whitelist": "127.0.0.1",
        "rpc-host-whitelist-enabled": False,
        "bind-address-ipv4": "127.0.0.1",
        "bind-address-ipv6": "::1",
        "peer-port": port + 1000,
        "port-forwarding-enabled": False,
        "dht-enabled": False,
        "pex-enabled": False,
        "lpd-enabled": False,
        "utp-enabled": False,
        "download-dir": str(data / "downloads"),
        "incomplete-dir-enabled": False,
        "start-added-torrents": True,
        "speed-limit-down": 8000,
        "speed-limit-down-enabled": True,
        "speed-limit-up": 1500,
        "speed-limit-up-enabled": True,
        "ratio-limit": 2.0,
        "ratio-limit-enabled": True,
        "alt-speed-down": 500,
        "alt-speed-up": 100,
        "download-queue-size": 4,
        "message-level": 1,
    }


def config(data: Path, port: int) -> None:
    (data / "config").mkdir(parents=True, exist_ok=True)
    (data / "config" / "settings.json").write_text(json.dumps(settings(data, port), indent=1))
    source, downloads, torrents = data / "source", data / "downloads", data / "torrents"
    for folder in (source, downloads, torrents):
        folder.mkdir(parents=True, exist_ok=True)
    for name, files, present, _paused in TORRENTS:
        for rel, size in files:
            full = source / rel
            full.parent.mkdir(parents=True, exist_ok=True)
            with full.open("wb") as out:
                out.truncate(size * MB)
        top = source / (files[0][0].split("/")[0])
        torrent = torrents / f"{name}.torrent"
        subprocess.run(
            ["transmission-create", "-o", str(torrent), "-s", "1024", str(top)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        total = sum(size for _rel, size in files) * MB
        keep = int(total * present)
        for rel, size in files:  # the download folder holds the first `present` share
            full = downloads / rel
            full.parent.mkdir(parents=True, exist_ok=True)
            length = min(size * MB, keep)
            keep -= length
            if length > 0:
                with full.open("wb") as out:
                    out.truncate(length)
        subprocess.run(["rm", "-rf", str(top)], check=True)


def remote(port: int, *args: str) -> str:
    result = subprocess.run(
        ["transmission-remote", f"127.0.0.1:{port}", *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout


def add(data: Path, port: int) -> None:
    for name, _files, _present, _paused in TORRENTS:
        remote(
            port, "-a", str(data / "torrents" / f"{name}.torrent"), "-w", str(data / "downloads")
        )
        time.sleep(0.3)
    time.sleep(2)
    remote(port, "-t", "all", "-v")
    for _ in range(300):  # until every torrent has been checked against its data
        time.sleep(1)
        if "Verif" not in remote(port, "-l") and "Will Verify" not in remote(port, "-l"):
            break
    for number, (_name, _files, _present, paused) in enumerate(TORRENTS, start=1):
        if paused:
            remote(port, "-t", str(number), "-S")
    print(remote(port, "-l"))


def main() -> None:
    action, data, port = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    if action == "config":
        config(data, port)
    else:
        add(data, port)


if __name__ == "__main__":
    main()

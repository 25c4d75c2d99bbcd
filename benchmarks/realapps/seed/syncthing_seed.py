"""Seed Syncthing: its own config (loopback only, no discovery, relays or reporting),
three shared folders with files, and three other devices (real device IDs made by
``syncthing generate``, never online).

``config DATA PORT`` before the server starts; ``share DATA PORT`` after, through the
REST API with the config's API key. Folder paths are under ~ ($HOME is DATA/home).
Usage: python syncthing_seed.py config|share DATA PORT
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

FOLDERS = [
    (
        "photos",
        "Photos",
        "~/Sync/Photos",
        {
            "2025-08 Cornwall": ["IMG_4012.jpg", "IMG_4013.jpg", "IMG_4027.jpg", "IMG_4031.jpg"],
            "2025-10 Lisbon": ["IMG_4410.jpg", "IMG_4415.jpg", "IMG_4422.jpg"],
        },
    ),
    (
        "documents",
        "Documents",
        "~/Sync/Documents",
        {
            "Tax 2025": ["P60.pdf", "receipts.xlsx"],
            "": ["CV 2025.docx", "Lease agreement.pdf", "Recipes.md"],
        },
    ),
    (
        "music",
        "Music",
        "~/Sync/Music",
        {
            "Mira Okafor/Paper Lanterns": ["01 Paper Lanterns.flac", "02 Blue Hour.flac"],
            "": ["playlist.m3u8"],
        },
    ),
]
DEVICES = [("phone", "Maya's Phone"), ("laptop", "Office Laptop"), ("nas", "Home NAS")]
SHARES = {"photos": ["phone", "nas"], "documents": ["laptop", "nas"], "music": ["phone"]}


def generate(home: Path) -> str:
    out = subprocess.run(
        ["syncthing", "generate", f"--home={home}", "--no-default-folder"],
        check=True,
        capture_output=True,
        text=True,
    )
    return re.search(r"[A-Z0-9]{7}(-[A-Z0-9]{7}){7}", out.stdout + out.stderr).group(0)


def config(data: Path, port: int) -> None:
    home = data / "st"
    generate(home)
    xml = (home / "config.xml").read_text()
    xml = re.sub(r"<address>[^<]*</address>", f"<address>127.0.0.1:{port}</address>", xml, count=1)
    for tag, value in {
        "globalAnnounceEnabled": "false",
        "localAnnounceEnabled": "false",
        "relaysEnabled": "false",
        "natEnabled": "false",
        "urAccepted": "-1",
        "autoUpgradeIntervalH": "0",
        "startBrowser": "false",
        "crashReportingEnabled": "false",
        "urSeen": "3",
    }.items():
        xml = re.sub(f"<{tag}>[^<]*</{tag}>", f"<{tag}>{value}</{tag}>", xml)
    xml = re.sub(
        r"<listenAddress>[^<]*</listenAddress>",
        f"<listenAddress>tcp://127.0.0.1:{port + 1000}</listenAddress>",
        xml,
    )
    xml = xml.replace("<name>", "<name>", 1)
    (home / "config.xml").write_text(xml)
    ids = {key: generate(data / "peers" / key) for key, _name in DEVICES}
    (data / "peers.json").write_text(json.dumps(ids))
    for _id, _label, path, tree in FOLDERS:
        root = data / "home" / path[2:]
        for sub, files in tree.items():
            (root / sub).mkdir(parents=True, exist_ok=True)
            for index, name in enumerate(files):
                (root / sub / name).write_bytes(bytes([index % 251]) * (180_000 + 37_000 * index))


def share(data: Path, port: int) -> None:
    key = re.search(r"<apikey>([^<]+)</apikey>", (data / "st" / "config.xml").read_text()).group(1)
    ids = json.loads((data / "peers.json").read_text())

    def put(path: str, body: dict) -> None:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            json.dumps(body).encode(),
            {"X-API-Key": key, "Content-Type": "application/json"},
            method="PUT",
        )
        urllib.request.urlopen(request, timeout=30).read()

    for peer, name in DEVICES:
        put(
            f"/rest/config/devices/{ids[peer]}",
            {"deviceID": ids[peer], "name": name, "addresses": ["dynamic"]},
        )
    for folder_id, label, path, _tree in FOLDERS:
        devices = [{"deviceID": ids[p]} for p in SHARES[folder_id]]
        put(
            f"/rest/config/folders/{folder_id}",
            {
                "id": folder_id,
                "label": label,
                "path": path,
                "type": "sendreceive",
                "devices": devices,
                "rescanIntervalS": 3600,
                "fsWatcherEnabled": False,
            },
        )
    status = urllib.request.Request(
        f"http://127.0.0.1:{port}/rest/system/status", headers={"X-API-Key": key}
    )
    own = json.load(urllib.request.urlopen(status, timeout=30))["myID"]
    put(
        f"/rest/config/devices/{own}",
        {"deviceID": own, "name": "Maya's Desktop", "addresses": ["dynamic"]},
    )
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/rest/config/options",
        json.dumps({"unackedNotificationIDs": []}).encode(),
        {"X-API-Key": key, "Content-Type": "application/json"},
        method="PATCH",
    )
    urllib.request.urlopen(
        request, timeout=30
    ).read()  # the "set a GUI password" notice, acknowledged
    put(
        "/rest/config/gui",
        {"address": f"127.0.0.1:{port}", "theme": "default", "insecureAdminAccess": False},
    )


if __name__ == "__main__":
    action, data, port = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    (config if action == "config" else share)(data, port)

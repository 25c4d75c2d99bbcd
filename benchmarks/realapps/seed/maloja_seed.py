"""Write a Maloja scrobble export (listening history) for `maloja import` to load.

Eight weeks of listening, ending at the seeding moment, drawn from a fixed catalogue with
a seeded generator: the same plays, in the same order, at the same offsets from "now" on
every seed (Maloja's charts are by week / month / year, so the history has to be recent).
Artists, albums and tracks are made up, and so is their artwork: abstract covers drawn
here with Pillow (seeded by the name), put where Maloja looks for local images, since
no image service is reachable. Usage: python maloja_seed.py OUT_DIR IMAGES_DIR
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

# artist -> (weight, [(album, [(track, seconds)])])
CATALOGUE = {
    "The Harbour Lights": (
        9,
        [
            (
                "Low Tide Letters",
                [
                    ("Driftwood", 214),
                    ("Letters at Low Tide", 247),
                    ("Lantern Row", 198),
                    ("North Pier", 263),
                    ("The Long Way Home", 301),
                ],
            ),
            ("Lanterns", [("Lanterns", 226), ("Fisherman's Blue", 252)]),
        ],
    ),
    "Mira Okafor": (
        7,
        [
            (
                "City of Small Hours",
                [
                    ("Small Hours", 322),
                    ("Rain on Bank Street", 288),
                    ("Night Bus", 245),
                    ("Last Train Blues", 354),
                ],
            ),
        ],
    ),
    "Kite Season": (
        6,
        [
            (
                "Paper Planets",
                [
                    ("Paper Planets", 226),
                    ("Satellite Heart", 203),
                    ("Orbit", 239),
                    ("Glow in the Dark", 211),
                    ("Signal Fire", 257),
                ],
            ),
        ],
    ),
    "Los Caminantes": (
        4,
        [
            (
                "Camino Real",
                [("Camino Real", 231), ("Bailando en la Plaza", 208), ("Luna de Agosto", 264)],
            ),
        ],
    ),
    "Aurora String Quartet": (
        3,
        [
            (
                "American Quartet",
                [("Allegro ma non troppo", 602), ("Lento", 468), ("Molto vivace", 241)],
            ),
        ],
    ),
    "Juno Vale": (
        5,
        [
            (
                "Northern Static",
                [
                    ("Northern Static", 198),
                    ("Headlights", 221),
                    ("Polaroid Summer", 187),
                    ("Slow Motion", 240),
                ],
            ),
        ],
    ),
    "Dusty Roads Collective": (
        2,
        [
            ("Porch Songs", [("Porch Light", 176), ("Two Dollar Bill", 201)]),
        ],
    ),
}


PALETTES = [
    ((242, 153, 74), (235, 87, 87), (39, 39, 64)),
    ((86, 204, 242), (47, 128, 237), (20, 30, 60)),
    ((111, 207, 151), (33, 150, 83), (18, 40, 32)),
    ((187, 107, 217), (155, 81, 224), (34, 18, 48)),
    ((242, 201, 76), (242, 153, 74), (60, 40, 20)),
    ((235, 87, 87), (130, 40, 60), (20, 16, 24)),
    ((224, 224, 224), (130, 130, 140), (30, 30, 36)),
    ((45, 156, 219), (111, 207, 151), (16, 36, 48)),
]


def cover(name: str, path: Path) -> None:
    """An abstract 320 px cover: a two-colour gradient, soft circles and a band, from the name."""
    rng = random.Random(hashlib.sha256(name.encode()).hexdigest())
    a, b, ink = rng.choice(PALETTES)
    size = 320
    image = Image.new("RGB", (size, size))
    draw = ImageDraw.Draw(image)
    for y in range(size):
        f = y / size
        draw.line([(0, y), (size, y)], fill=tuple(int(a[i] * (1 - f) + b[i] * f) for i in range(3)))
    shapes = Image.new("RGBA", (size, size))
    sd = ImageDraw.Draw(shapes)
    for _ in range(rng.randint(2, 4)):
        r = rng.randint(40, 130)
        x, y = rng.randint(0, size), rng.randint(0, size)
        sd.ellipse([x - r, y - r, x + r, y + r], fill=ink + (rng.randint(60, 150),))
    shapes = shapes.filter(ImageFilter.GaussianBlur(rng.choice([0, 2, 6])))
    image.paste(shapes, (0, 0), shapes)
    band = rng.randint(200, 270)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, band, size, band + rng.randint(6, 18)], fill=ink)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, quality=85)


def safe(text: str) -> str:
    return "".join(c for c in text if c.isascii() and c.isalnum())


def artwork(images: str) -> None:
    root = Path(images)
    for artist, (_weight, albums) in CATALOGUE.items():
        cover("artist " + artist, root / "artists" / f"{safe(artist)}.jpg")
        for album, _tracks in albums:
            cover(album + " by " + artist, root / "albums" / f"{safe(artist)}_{safe(album)}.jpg")


def main(out: str) -> None:
    rng = random.Random(2025)
    now = int(time.time())
    start = now - 56 * 86400
    artists = list(CATALOGUE)
    weights = [CATALOGUE[a][0] for a in artists]
    scrobbles = []
    t = start
    while True:
        # a listening session most days: 4-14 songs, evenings more than mornings
        t += rng.randint(14, 34) * 3600
        if t > now - 1800:
            break
        for _ in range(rng.randint(4, 14)):
            artist = rng.choices(artists, weights)[0]
            album, tracks = rng.choice(CATALOGUE[artist][1])
            # favourites: the first tracks of an album get played more
            title, length = tracks[min(int(rng.expovariate(0.8)), len(tracks) - 1)]
            scrobbles.append(
                {
                    "time": t,
                    "track": {
                        "artists": [artist],
                        "title": title,
                        "length": length,
                        "album": {"albumtitle": album, "artists": [artist]},
                    },
                    "duration": length,
                    "origin": "client:import",
                }
            )
            t += length + rng.randint(2, 20)
            if t > now - 1800:
                break
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    export = {"maloja": {"export_time": now}, "scrobbles": scrobbles}
    (folder / "maloja_export.json").write_text(json.dumps(export), encoding="utf-8")
    print(f"{len(scrobbles)} scrobbles")


if __name__ == "__main__":
    main(sys.argv[1])
    artwork(sys.argv[2])

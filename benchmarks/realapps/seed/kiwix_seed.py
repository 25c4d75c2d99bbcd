"""Build two small offline reference books (ZIM files) for kiwix-serve.

Each book is a folder of HTML articles written here (a garden-bird guide and a guide to
common trees), packed with zim-tools' ``zimwriterfs`` with an illustration drawn here.
The same files every reseed. Usage: python kiwix_seed.py DATA_DIR
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

CSS = """body{font-family:Georgia,serif;max-width:46em;margin:0 auto;padding:0 1em 2em;line-height:1.5;color:#202122}
h1{font-family:sans-serif;border-bottom:1px solid #a2a9b1;padding-bottom:.2em;font-weight:normal}
h2{font-family:sans-serif;font-size:1.2em;border-bottom:1px solid #eaecf0;margin-top:1.4em}
.infobox{border:1px solid #a2a9b1;background:#f8f9fa;padding:.5em;margin:0 0 1em;font-family:sans-serif;font-size:.9em}
.infobox th{text-align:left;padding-right:1em;vertical-align:top}
ul.index li{margin:.3em 0} a{color:#3366cc;text-decoration:none} .lead{font-size:1.05em}"""

BIRDS = {
    "Robin": (
        "European robin",
        "Erithacus rubecula",
        "12.5–14 cm",
        "16–22 g",
        "Green (least concern)",
        "The robin is a small insect-eating songbird with an orange-red face and breast, familiar in gardens all year round. Both sexes look alike; young birds are speckled brown and lack the red breast until their first moult.",
        [
            (
                "Song",
                "Robins sing almost all year, and are one of the few birds to sing through winter. Both males and females hold winter territories and defend them with song, which is why a robin may be heard under a street light at night.",
            ),
            (
                "Food",
                "Worms, beetles, spiders and other invertebrates, with berries and seeds in winter. Robins follow gardeners digging to pick up what is turned over, and readily take mealworms from a bird table.",
            ),
            (
                "Nesting",
                "A cup of moss and leaves lined with hair, in a hollow, a hedge, a shed or an old kettle. Two or three broods of four to six eggs from March to August.",
            ),
        ],
    ),
    "Blue tit": (
        "Eurasian blue tit",
        "Cyanistes caeruleus",
        "12 cm",
        "11 g",
        "Green (least concern)",
        "A small, acrobatic tit with a blue cap, wings and tail, a yellow breast and a white face crossed by a dark eye-stripe. Flocks of blue tits move through gardens and woods in winter, often with other tits.",
        [
            (
                "Food",
                "Caterpillars in spring — a single brood may need 10,000 — and insects, seeds and nuts at other times. Comes readily to hanging feeders.",
            ),
            (
                "Nesting",
                "Nests in holes and takes to nest boxes with a 25 mm entrance hole. One brood a year, timed so the chicks hatch when caterpillars are most plentiful.",
            ),
        ],
    ),
    "Blackbird": (
        "Common blackbird",
        "Turdus merula",
        "24–25 cm",
        "80–100 g",
        "Green (least concern)",
        "The male is all black with an orange-yellow bill and eye-ring; the female is dark brown, often with a faintly spotted breast. One of the commonest garden birds, and a fine singer at dawn and dusk.",
        [
            (
                "Song",
                "A rich, slow, fluting song from a roof or tree-top, from February to July. The alarm call is a loud chattering 'chink-chink-chink' at dusk.",
            ),
            (
                "Food",
                "Earthworms pulled from lawns, insects, and fallen fruit in autumn and winter. Apples left on the ground help them through cold spells.",
            ),
        ],
    ),
    "Goldfinch": (
        "European goldfinch",
        "Carduelis carduelis",
        "12 cm",
        "14–19 g",
        "Green (least concern)",
        "A brightly coloured finch with a red face, black and white head and a broad yellow bar on black wings. Its liquid, twittering song and call carry well as small flocks ('charms') move between seed heads.",
        [
            (
                "Food",
                "Small seeds — thistle, teasel, dandelion and groundsel. In gardens it favours nyjer seed and sunflower hearts.",
            ),
            (
                "Where to see",
                "Gardens, parks, orchards and rough ground with seeding plants; many move south to Spain and France in winter.",
            ),
        ],
    ),
    "Wren": (
        "Eurasian wren",
        "Troglodytes troglodytes",
        "9–10 cm",
        "7–12 g",
        "Green (least concern)",
        "A tiny, round brown bird with a short cocked tail and a remarkably loud voice for its size. Often seen creeping through low cover like a mouse.",
        [
            (
                "Song",
                "A fast, shrill warble ending in a trill, delivered with the whole body shaking.",
            ),
            (
                "Winter",
                "Wrens lose heat quickly and roost together in cold weather: more than sixty have been found sharing one nest box.",
            ),
        ],
    ),
    "House sparrow": (
        "House sparrow",
        "Passer domesticus",
        "14–15 cm",
        "24–38 g",
        "Red (population declining)",
        "A stocky, noisy sparrow that lives close to people. The male has a grey crown, chestnut nape and a black bib; the female is plain brown with a buff eye-stripe.",
        [
            (
                "Decline",
                "Numbers in Britain fell by more than half between the 1970s and 2000s, most steeply in towns. Loss of nest sites under roofs and of insects for chicks are thought to be among the causes.",
            ),
            (
                "Helping sparrows",
                "Sparrows nest in colonies: terraces of nest boxes under the eaves, thick hedges, and an untidy corner with insects all help.",
            ),
        ],
    ),
}

TREES = {
    "English oak": (
        "Quercus robur",
        "Up to 40 m",
        "Deciduous",
        "Britain's most familiar broadleaf tree, long-lived and broad-crowned, with lobed leaves and acorns on long stalks. A single old oak may support more than 2,000 other species.",
        [
            (
                "Identify",
                "Leaves with 4–5 rounded lobes on each side and almost no stalk; acorns in cups on stalks 4–8 cm long.",
            ),
            (
                "Age",
                "Oaks can live for more than 1,000 years; many ancient oaks stand in old deer parks and hunting forests.",
            ),
        ],
    ),
    "Silver birch": (
        "Betula pendula",
        "Up to 30 m",
        "Deciduous",
        "A slender, fast-growing pioneer tree with white peeling bark marked with dark diamonds, and drooping twigs.",
        [
            (
                "Identify",
                "Triangular, double-toothed leaves; catkins in spring; white bark that turns black and rugged at the base.",
            ),
            (
                "Wildlife",
                "Its light canopy lets flowers grow beneath; it feeds over 300 insect species.",
            ),
        ],
    ),
    "Rowan": (
        "Sorbus aucuparia",
        "Up to 15 m",
        "Deciduous",
        "A small, hardy tree of uplands and gardens, with feathery leaves and heavy bunches of scarlet berries in late summer.",
        [
            (
                "Identify",
                "Leaves of 5–8 pairs of toothed leaflets; creamy white flowers in May; red berries from August.",
            ),
            ("Wildlife", "Thrushes, blackbirds and redwings strip the berries in autumn."),
        ],
    ),
}


def page(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><title>{title}</title>'
        f'<link rel="stylesheet" href="style.css"></head><body>{body}</body></html>'
    )


def icon(path: Path, colour: str, mark: str) -> None:
    image = Image.new("RGBA", (48, 48), colour)
    draw = ImageDraw.Draw(image)
    if mark == "bird":
        draw.ellipse((10, 14, 36, 36), fill="#f4f1e8")
        draw.polygon([(34, 20), (44, 22), (34, 25)], fill="#f2a33a")
        draw.ellipse((27, 19, 30, 22), fill="#222")
    else:
        draw.rectangle((21, 28, 27, 42), fill="#6b4a2b")
        draw.ellipse((8, 6, 40, 32), fill="#cfe8b4")
    image.save(path)


def book(folder: Path, title: str, intro: str, articles: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "style.css").write_text(CSS)
    items = "".join(
        f'<li><a href="{name.replace(" ", "_")}.html">{name}</a></li>' for name in articles
    )
    (folder / "index.html").write_text(
        page(
            title,
            f"<h1>{title}</h1><p class=lead>{intro}</p><h2>Articles</h2><ul class=index>{items}</ul>",
        )
    )
    for name, html in articles.items():
        (folder / f"{name.replace(' ', '_')}.html").write_text(page(name, html))


def main() -> None:
    data = Path(sys.argv[1])
    birds = {}
    for name, (full, latin, length, weight, status, lead, sections) in BIRDS.items():
        box = (
            f"<table class=infobox><tr><th>Scientific name</th><td><i>{latin}</i></td></tr>"
            f"<tr><th>Length</th><td>{length}</td></tr><tr><th>Weight</th><td>{weight}</td></tr>"
            f"<tr><th>UK status</th><td>{status}</td></tr></table>"
        )
        text = "".join(f"<h2>{h}</h2><p>{p}</p>" for h, p in sections)
        birds[name] = f"<h1>{full}</h1>{box}<p class=lead>{lead}</p>{text}"
    trees = {}
    for name, (latin, height, kind, lead, sections) in TREES.items():
        box = (
            f"<table class=infobox><tr><th>Scientific name</th><td><i>{latin}</i></td></tr>"
            f"<tr><th>Height</th><td>{height}</td></tr><tr><th>Type</th><td>{kind}</td></tr></table>"
        )
        text = "".join(f"<h2>{h}</h2><p>{p}</p>" for h, p in sections)
        trees[name] = f"<h1>{name}</h1>{box}<p class=lead>{lead}</p>{text}"
    specs = [
        (
            "garden_birds",
            "Garden Birds of Britain",
            "A pocket guide to the birds that visit British gardens: how to know them, what they eat, where they nest.",
            birds,
            "#3c6e91",
            "bird",
        ),
        (
            "common_trees",
            "Common Trees of Britain",
            "How to identify the trees of British woods, parks and streets, and the wildlife they support.",
            trees,
            "#4d7a3a",
            "tree",
        ),
    ]
    shorts = {
        "garden_birds": "How to know the birds of British gardens, what they eat and where they nest.",
        "common_trees": "How to identify the trees of British woods, parks and streets.",
    }
    for name, title, intro, articles, colour, mark in specs:
        short = shorts[name]
        src = data / "src" / name
        book(src, title, intro, articles)
        icon(src / "illustration.png", colour, mark)
        subprocess.run(
            [
                "zimwriterfs",
                "--welcome=index.html",
                "--illustration=illustration.png",
                "--language=eng",
                f"--title={title}",
                f"--description={short}",
                "--creator=Open Field Guides",
                "--publisher=Open Field Guides",
                f"--name={name}_en",
                str(src),
                str(data / f"{name}.zim"),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )


if __name__ == "__main__":
    main()

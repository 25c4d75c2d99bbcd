"""Seed a TiddlyWiki folder (made by ``tiddlywiki DIR --init server``) as a garden journal.

Writes .tid files with fixed created/modified stamps, so every seed is identical.
Usage: python tiddlywiki.py WIKI_FOLDER
"""

from __future__ import annotations

import sys
from pathlib import Path

STAMP = "20250412093000000"

TIDDLERS: list[dict[str, str]] = [
    {"title": "$:/SiteTitle", "text": "Greenway Garden Journal"},
    {"title": "$:/SiteSubtitle", "text": "Notes from a small kitchen garden"},
    {
        "title": "$:/DefaultTiddlers",
        "text": "[[Garden Plan 2025]]\n[[Sowing Calendar]]\n[[Tomatoes]]",
    },
    {"title": "$:/config/AnimationDuration", "text": "0"},
    {
        "title": "Garden Plan 2025",
        "tags": "Planning",
        "text": """The plot is four raised beds (1.2 m × 2.4 m) and a strip along the south fence.
This year the rotation moves one bed clockwise.

|!Bed |!Crop family |!Main crops |!Follow-on |
|Bed 1 |Legumes |[[Runner Beans]], peas |Winter lettuce |
|Bed 2 |Brassicas |Kale, purple sprouting broccoli |Green manure |
|Bed 3 |Solanaceae |[[Tomatoes]], peppers |Garlic (October) |
|Bed 4 |Roots |Carrots, beetroot, parsnips |Broad beans |
|Fence strip |Perennials |[[Herbs]], rhubarb, strawberries | |

!! Goals for this year
* Keep the beds covered all winter (see [[Compost]])
* Grow three new tomato varieties and record yields in the [[Harvest Log]]
* Try [[Companion Planting]] with marigolds and basil against whitefly
""",
    },
    {
        "title": "Sowing Calendar",
        "tags": "Planning",
        "text": """When to sow, month by month, for a cool temperate garden (last frost mid-May).

|!Month |!Indoors |!Outdoors |
|February |Chillies, sweet peppers | |
|March |[[Tomatoes]], celeriac, leeks |Broad beans, early peas |
|April |Courgettes, squash, basil |Carrots, beetroot, spinach |
|May |Sweetcorn, [[Runner Beans]] |Lettuce, chard, radish |
|June | |French beans, kale, swede |
|August | |Winter lettuce, spring onions |

Sow little and often: a short row of salad every two weeks keeps the kitchen supplied
without a glut.
""",
    },
    {
        "title": "Tomatoes",
        "tags": "Vegetables [[Bed 3]]",
        "variety": "Sungold, Gardener's Delight, San Marzano",
        "text": """Sown indoors on 12 March at 20 °C; germinated in six days.

!! Varieties this year
* ''Sungold'' – orange cherry, the sweetest we have grown
* ''Gardener's Delight'' – reliable red cherry for the greenhouse
* ''San Marzano'' – plum tomato for sauce and bottling

!! Care
# Pot on when the first true leaves appear
# Plant out after the last frost, 60 cm apart
# Pinch out side shoots weekly on cordon varieties
# Feed with comfrey tea once the first truss sets

See [[Companion Planting]] for basil and marigolds, and [[Pests and Remedies]] for blight.
""",
    },
    {
        "title": "Runner Beans",
        "tags": "Vegetables [[Bed 1]]",
        "text": """Grown up a double row of hazel poles. Variety ''Scarlet Emperor''.

* Sow two seeds per pole in late May, after the soil warms to 12 °C
* Water generously once flowers appear; dry roots drop flowers
* Pick every two days – beans left to mature stop the plant cropping

Last year: 9.4 kg from 16 poles (see [[Harvest Log]]).
""",
    },
    {
        "title": "Herbs",
        "tags": "Perennials",
        "text": """The fence strip holds the perennial herbs; basil and coriander are sown in pots.

* Rosemary, thyme and sage – cut back by a third after flowering
* Chives – divide clumps every three years
* Mint – kept in a sunken bucket so it cannot spread
* Basil – next to the [[Tomatoes]]; pinch the tips to keep it bushy
""",
    },
    {
        "title": "Companion Planting",
        "tags": "Techniques",
        "text": """Pairings we have tried, and whether they helped.

|!Pair |!Why |!Verdict |
|Tomatoes + basil |Basil is said to deter whitefly |Fewer whitefly in 2024 |
|Carrots + onions |Onion scent masks carrots from carrot fly |Worked well |
|Beans + sweetcorn |Corn supports the beans, beans feed the soil |Corn too shaded |
|Brassicas + nasturtiums |Nasturtiums draw caterpillars away |Partly |
""",
    },
    {
        "title": "Compost",
        "tags": "Techniques",
        "text": """Three bays: filling, rotting, ready. Turn the rotting bay every month.

* Mix ''greens'' (grass, peelings) with ''browns'' (cardboard, leaves) about 1:1
* Keep it as damp as a wrung-out sponge
* Ready in 9–12 months; sieve before using as potting compost

Each autumn, 5 cm of compost goes on every bed as a mulch.
""",
    },
    {
        "title": "Pests and Remedies",
        "tags": "Techniques",
        "text": """What turned up, and what we did about it.

* ''Slugs'' – beer traps and evening patrols in wet weeks
* ''Cabbage white caterpillars'' – fine netting over [[Bed 2]] from May
* ''Tomato blight'' – remove lower leaves, water the soil not the plant
* ''Aphids'' – a blast of water, then the ladybirds take over
""",
    },
    {
        "title": "Harvest Log",
        "tags": "Log",
        "text": """Weights from the kitchen scales, rounded to the nearest 100 g.

|!Date |!Crop |!Bed |!Weight |
|2024-07-14 |Broad beans |Bed 4 |1.8 kg |
|2024-07-28 |Courgettes |Fence strip |3.2 kg |
|2024-08-09 |[[Runner Beans]] |Bed 1 |2.6 kg |
|2024-08-21 |[[Tomatoes]] (Sungold) |Bed 3 |4.1 kg |
|2024-09-03 |Beetroot |Bed 4 |2.0 kg |
|2024-09-17 |[[Tomatoes]] (San Marzano) |Bed 3 |6.7 kg |

Season total so far: ''20.4 kg''.
""",
    },
    {
        "title": "Seed Inventory",
        "tags": "Planning",
        "text": """Packets in the seed tin, with the year they were bought.

* Carrot ''Autumn King'' (2024)
* Beetroot ''Boltardy'' (2023)
* Kale ''Cavolo Nero'' (2024)
* Lettuce ''Little Gem'' (2025)
* Sweetcorn ''Swift'' (2025)
* Parsnip ''Tender and True'' (2025) – parsnip seed does not keep, buy fresh each year
""",
    },
    {
        "title": "Jobs This Week",
        "tags": "Log",
        "text": """!! Done
* Pot on the tomato seedlings
* Put up the bean poles

!! To do
* Net the brassicas before the butterflies arrive
* Sow the second row of lettuce
* Turn the compost bay
""",
    },
]


def tid(fields: dict[str, str]) -> str:
    head = {"created": STAMP, "modified": STAMP, "creator": "Maya", "modifier": "Maya"}
    head.update({k: v for k, v in fields.items() if k != "text"})
    if not head["title"].startswith("$:/"):
        head["type"] = "text/vnd.tiddlywiki"
    lines = [f"{key}: {value}" for key, value in head.items()]
    return "\n".join(lines) + "\n\n" + fields["text"].rstrip() + "\n"


def main(folder: str) -> None:
    tiddlers = Path(folder) / "tiddlers"
    tiddlers.mkdir(parents=True, exist_ok=True)
    for number, fields in enumerate(TIDDLERS):
        name = fields["title"].replace("$:/", "_system_").replace("/", "_").replace(" ", "_")
        (tiddlers / f"{number:02d}_{name}.tid").write_text(tid(fields), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])

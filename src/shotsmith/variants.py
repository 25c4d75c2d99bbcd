"""Variant sets for store experiments: one run, N sets that differ in one thing each.

App Store product page optimization compares up to 3 treatments with the original
product page; a Google Play store listing experiment compares up to 3 variants with the
current listing. ``design(variants=N)`` (``--variants N``) reads and captions the
screens once and designs N sets from them:

- ``variant-1``: the set as designed, the original (control);
- ``variant-2``: the **hook** - another screen leads, the one whose caption names the
  most concrete feature (examples, numbers and words read off the screen count most);
- ``variant-3``: the **palette** - another palette preset (``data/palette_presets.json``)
  of the template's strategy, with another first tone;
- ``variant-4``: the **template** - another built-in template (default, spotlight,
  panorama).

So every variant's first slide differs from the original's. Each set is written to its
own folder, ``OUT/<app>/variant-K/``, with its ``design.json``, whose rows carry
``variant`` and ``variant_differs`` (what this set changes, "" for the original).
``export --fastlane`` puts the original where deliver/supply read it and each treatment in
``experiments/variant-K/`` with a README on uploading it, since neither store's experiment
takes screenshots from fastlane. The table of treatments is ``data/variants.json``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from . import columns as C
from .errors import InvalidOptionError
from .stages.layout.palettes import palette_presets, preset_name
from .stages.layout.templates import load_template

VARIANTS_FILE = "data/variants.json"


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    return json.loads(resources.files("shotsmith").joinpath(VARIANTS_FILE).read_text("utf-8"))


def most_variants() -> int:
    """The largest ``variants``: the original plus the stores' 3 treatments."""
    return int(_table()["most"])


def check_variants(variants: Any) -> int:
    """``variants`` as a count of sets, or an :class:`InvalidOptionError` naming the range."""
    most = most_variants()
    if isinstance(variants, str) and variants.strip().isdigit():
        variants = int(variants)
    if isinstance(variants, bool) or not isinstance(variants, int) or not 1 <= variants <= most:
        raise InvalidOptionError(
            f"variants must be a whole number from 1 to {most} (the original set plus up to "
            f"{most - 1} treatments, as App Store product page optimization and Google Play "
            f"store listing experiments allow), got {variants!r}."
        )
    return variants


@dataclass(frozen=True)
class Variant:
    """One experiment set: its id, what it changes, and how."""

    id: str
    differs: str
    template: str | Path | dict
    lead: str | None = None  # the screen that leads, when it is not the original's


def concreteness(row: pd.Series) -> int:
    """How concretely a screen's caption names a feature: examples and numbers read off
    the screen, words of the headline found on it, and a kind that shows one feature."""
    weights = _table()["concreteness"]
    evidence = row.get(C.COPY_EVIDENCE)
    words = C.list_cell(evidence.get("headline")) if isinstance(evidence, dict) else []
    general = row.get(C.FEATURES_KIND) in _table()["general_kinds"]
    return (
        weights["example"] * len(C.list_cell(row.get(C.FEATURES_EXAMPLES)))
        + weights["number"] * len(C.list_cell(row.get(C.FEATURES_NUMBERS)))
        + weights["evidence_word"] * len(words)
        + (0 if general else weights["feature_kind"])
    )


def plan_variants(rows: pd.DataFrame, count: int, template: str | Path | dict) -> list[Variant]:
    """The ``count`` variants of one captioned set (rows in store order)."""
    variants = [Variant("variant-1", "", template)]
    for treatment in _table()["treatments"][: count - 1]:
        ident = f"variant-{len(variants) + 1}"
        variants.append(_TREATMENTS[treatment](ident, rows, template))
    return variants


def _hook(ident: str, rows: pd.DataFrame, template: str | Path | dict) -> Variant:
    first = str(rows[C.SCREEN].iloc[0])
    others = rows.iloc[1:]
    if others.empty:
        return _palette(ident, rows, template)  # one screen: nothing else can lead
    scores = [concreteness(row) for _, row in others.iterrows()]
    lead = others.iloc[scores.index(max(scores))]
    return Variant(
        ident,
        f"hook: leads with the {lead[C.SCREEN]} screen ({lead[C.COPY_HEADLINE]!r}) "
        f"instead of {first}",
        template,
        lead=str(lead[C.SCREEN]),
    )


def _palette(ident: str, rows: pd.DataFrame, template: str | Path | dict) -> Variant:
    spec = copy.deepcopy(load_template(template))  # the loaded template is shared
    now = spec["palette"]
    tone = list(now.get("rhythm") or ["deep"])[0]
    presets = palette_presets()
    ranked = sorted(
        (name for name, p in presets.items() if p["rhythm"][0] != tone),
        key=lambda name: presets[name]["strategy"] != now.get("strategy"),
    )
    name = ranked[0]
    spec["palette"] = {**now, **presets[name]}
    was = preset_name(now) or f"{now.get('strategy')} {'/'.join(now.get('rhythm', []))}"
    return Variant(ident, f"palette: {name!r} instead of {was!r}", spec)


def _template(ident: str, rows: pd.DataFrame, template: str | Path | dict) -> Variant:
    now = str(load_template(template).get("name") or template)
    other = next(t for t in _table()["builtin_templates"] if t != now)
    return Variant(ident, f"template: {other} instead of {now}", other)


_TREATMENTS: dict[str, Callable[[str, pd.DataFrame, str | Path | dict], Variant]] = {
    "hook": _hook,
    "palette": _palette,
    "template": _template,
}


def lead_with(rows: pd.DataFrame, screen: str | None) -> pd.DataFrame:
    """The set with ``screen`` first and the others after it in their order."""
    if screen is None:
        return rows
    screens = [str(s) for s in rows[C.SCREEN]]
    first = screens.index(screen)  # two screens of one name: the first of them leads
    order = [first, *(i for i in range(len(screens)) if i != first)]
    moved = rows.iloc[order].reset_index(drop=True)
    return moved.assign(**{C.POSITION: range(len(moved))})


Runner = Callable[[list[Any], pd.DataFrame], pd.DataFrame]
Writer = Callable[..., Any]


def design_variants(
    frame: pd.DataFrame,
    plan: Any,
    draw: Any,
    count: int,
    *,
    folder: Path | None,
    run: Runner,
    write: Writer | None = None,
) -> pd.DataFrame:
    """Lay out and render ``count`` variants of each captioned set of ``frame``.

    ``plan`` and ``draw`` are the pipeline's ``plan_layout`` and ``render`` steps
    (:class:`shotsmith.pipeline.Step`); ``run(steps, rows)`` runs steps over rows. Each
    variant of app ``A`` is rendered into ``folder/A/variant-K/``, where ``write`` (the
    pipeline's ``write_report``), when given, writes its ``design.json``/``design.csv``."""
    results = []
    for app_id, rows in C.set_groups(frame):
        rows = rows.reset_index(drop=True)
        for variant in plan_variants(rows, count, plan.options.get("template", "default")):
            tagged = lead_with(rows, variant.lead).assign(
                **{C.VARIANT: variant.id, C.VARIANT_DIFFERS: variant.differs}
            )
            laid = run(
                [replace(plan, options={**plan.options, "template": variant.template})], tagged
            )
            if folder is not None:
                # render names files <out_dir>/<app_id>/NN_screen.png: the variant's id
                # stands in for the app's while it draws into the app's folder
                where = folder / str(app_id)
                step = replace(draw, options={**draw.options, "out_dir": where})
                drawn = run([step], laid.assign(**{C.APP_ID: variant.id}))
                drawn = drawn.assign(**{C.APP_ID: app_id})
                if write is not None:
                    write(drawn, where, folder_name=variant.id)
            else:
                drawn = run([draw], laid)
            results.append(drawn)
    return pd.concat(results, ignore_index=True)


README = """\
# Store experiment variants

`shotsmith design --variants N` made these sets from one run; each folder holds one
variant in fastlane's layout. The original set (variant-1) is in the fastlane folder
itself, where `deliver` and `supply` upload it as the product page and store listing.

Neither store's experiment takes screenshots from fastlane: App Store product page
optimization and Google Play store listing experiments have no fastlane folder and no
upload action, so each treatment is uploaded by hand:

- **App Store** (product page optimization, up to 3 treatments): App Store Connect >
  your app > Product Page Optimization > Create Test; name a treatment per variant and,
  for each, upload `variant-K/screenshots/<locale>/` in file-name order for each display
  size.
- **Google Play** (store listing experiments, up to 3 variants): Play Console > Grow
  users > Store presence > Store listing experiments > Create experiment; add a variant
  per folder and upload
  `variant-K/metadata/android/<locale>/images/phoneScreenshots/` (and the tablet folders)
  in number order.

What each variant changes (from its design.json's `variant_differs`):
"""


def export_variants(
    design_out: Path,
    dest: Path,
    rows: list[dict],
    export: Callable[..., list],
    **options: Any,
) -> list:
    """Export each variant of one app's rows: ``variant-1`` into ``dest`` (as
    ``export_fastlane`` would the one set), every other one into
    ``dest/experiments/variant-K/``, and ``dest/experiments/README.md`` saying how to
    upload them to each store's experiment."""
    differs = {str(r.get(C.VARIANT)): str(r.get(C.VARIANT_DIFFERS) or "") for r in rows}
    written = []
    for variant in sorted(differs, key=_variant_number):
        target = dest if variant == "variant-1" else dest / "experiments" / variant
        written += export(design_out, target, variant=variant, **options)
    lines = [
        f"- `{v}`: {differs[v] or 'the original set, in the fastlane folder itself'}"
        for v in sorted(differs, key=_variant_number)
    ]
    readme = dest / "experiments" / "README.md"
    readme.parent.mkdir(parents=True, exist_ok=True)
    readme.write_text(README + "\n".join(lines) + "\n", encoding="utf-8")
    return written


def _variant_number(ident: str) -> int:
    tail = ident.rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0

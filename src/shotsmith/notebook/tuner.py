"""The layout tuner: tune a layout template on one set, live, then save it as a file.

Controls change a working copy of the template; each change plans and renders the
previews again at a quarter of the store size (~20 ms a slide). What each control really
did on the canvas is read back from the planned scene and shown beside it, so a label
never claims more than the picture shows. Saving writes the template (and the headlines
edited here as a copy file) where ``shotsmith design --template`` finds it."""

from __future__ import annotations

import copy
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pandas as pd
from PIL import Image

from .. import columns as C
from ..errors import ConflictError, InvalidOptionError, ShotsmithError, TemplateError
from ..scene import as_scene
from ..stages.layout import load_template, plan_layout
from ..stages.layout.palettes import palette_preset, palette_presets
from ..stages.layout.palettes import preset_name as _palette_name
from ..stages.layout.templates import default_layouts_dir, template_toml
from ..stages.read import folder_project_name
from .frames import _breakable
from .images import PREVIEW_SCALE, _png_bytes
from .scenes import preview_scene

TUNER_MARK = "# Written by the shotsmith layout tuner"  # first line of a template it saved


def _ready_for_layout(frame: pd.DataFrame, ocr: bool | str) -> pd.DataFrame:
    """The frame with every stage before ``plan_layout`` run (those it has not had yet)."""
    from ..pipeline import Pipeline

    run = Pipeline.default(ocr=ocr).run(
        frame, until="plan_layout", resume=True, keep_intermediates=False
    )
    return run.output


COALESCE_S = 0.03  # a slider's changes within this (and during a plan) make one plan
COPY_FILE_SUFFIX = ".copy.csv"  # <template>.<app_id>.copy.csv: the tuned set's own copy
PREVIEW_GAP_PX = 16
LABEL_STYLE = {"description_width": "92px"}  # the controls' labels line up
TEMPLATE_CONTROLS = (  # the controls that change the template (each re-plans the preview)
    "headline_size",
    "device_width",
    "device_offset_x",
    "device_alternate",
    "device_top",
    "device_bleed",
    "palette",
    "caption_align",
    "caption_top",
)


def _design_takes(option: str) -> bool:
    """Does this shotsmith's ``design()`` (and so ``shotsmith design``) take ``option``?"""
    import inspect

    from ..pipeline import design

    return option in inspect.signature(design).parameters


def _builtin_templates() -> set[str]:
    from ..stages.layout import BUILTIN_LAYOUTS

    return {p.stem for p in BUILTIN_LAYOUTS.iterdir() if p.suffix in (".toml", ".json")}


class LayoutTuner:
    """Tune a layout template on one set, live, then save it as a template file.

    ``LayoutTuner(frame)`` takes a frame after ``write_copy`` (or earlier: the missing
    stages run first) and tunes its first set (or ``app_id``). ``.widget`` is the
    ipywidgets UI; ``.controls`` are its inputs by name (set ``.value`` in code and the
    previews follow) and ``.readouts`` what each one really did on the canvas (the
    fitted headline size, where the caption and the device ended up); ``.template`` is
    the tuned template; ``.frame`` the set with any edited headlines;
    ``.preview_image()`` / ``.set_preview()`` are the previews as PIL images (rendered at
    ``preview_scale`` x the store size so sliders feel instant, shown at their own size).

    ``.save_template(name)`` writes ``layouts/<name>.toml``, which
    ``plan_layout(template=name)`` and ``shotsmith design --template name`` use, and
    beside it ``<name>.<app_id>.copy.csv`` (``screen, headline, subtitle``: the set's
    copy as tuned, edits included), which ``shotsmith design --copy`` reads.
    ``.design_command()`` is the command that designs the set as tuned.
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        *,
        template: str | Path | dict = "default",
        app_id: str | None = None,
        size: str | None = None,
        preview_scale: float = PREVIEW_SCALE,
        set_scale: float = 0.12,
        ocr: bool | str = False,
        layouts_dir: str | Path | None = None,
    ):
        frame = _ready_for_layout(frame, ocr)
        ids = list(frame[C.APP_ID].unique())
        if not ids:
            raise InvalidOptionError("LayoutTuner: the frame has no rows.")
        if app_id is None:
            app_id = ids[0]
        elif app_id not in ids:
            raise InvalidOptionError(f"LayoutTuner: no set {app_id!r} in the frame; sets: {ids}.")
        rows = frame[frame[C.APP_ID] == app_id].sort_values(C.POSITION, kind="stable")
        self.frame = rows.drop(
            columns=[c for c in rows.columns if c.startswith(("layout_", "render_"))]
        ).reset_index(drop=True)
        self.app_id = str(app_id)
        self.size = size
        self.preview_scale = preview_scale
        self.set_scale = set_scale
        self.layouts_dir = Path(layouts_dir) if layouts_dir is not None else None
        self.base = template if isinstance(template, str) and not Path(template).suffix else None
        self._template = copy.deepcopy(load_template(template))
        self._started = {self._template["name"]: copy.deepcopy(self._template)}
        self._generated = list(self.headlines)  # the copy as written, to tell edits apart
        self.index = 0
        self._error: str | None = None
        self._planned: pd.DataFrame | None = None
        self._due: Any = None  # a re-plan scheduled on the kernel's event loop
        self.saved: Path | None = None
        self.saved_copy: Path | None = None
        self._widget = None
        self.controls: dict[str, Any] = {}
        self.readouts: dict[str, Any] = {}
        self._syncing = False
        self.replan()

    # --- state -----------------------------------------------------------------------
    @property
    def planned(self) -> pd.DataFrame | None:
        """The set planned with the current settings (None until one plans)."""
        self._flush()
        return self._planned

    @property
    def error(self) -> str | None:
        """Why the current settings do not plan (the previews keep the last that did)."""
        self._flush()
        return self._error

    def pending(self) -> bool:
        """Whether a change is waiting to be planned (the UI coalesces a fast drag)."""
        return self._due is not None

    @property
    def template(self) -> dict[str, Any]:
        """The tuned template (a full template dict, usable as ``plan_layout(template=...)``)."""
        return copy.deepcopy(self._template)

    @property
    def headlines(self) -> list[str]:
        return [str(h) for h in self.frame[C.COPY_HEADLINE]]

    @property
    def edited(self) -> list[int]:
        """Positions (0-based) of the screenshots whose headline was edited here."""
        return [i for i, (a, b) in enumerate(zip(self.headlines, self._generated)) if a != b]

    def set_headline(self, index: int, text: str) -> None:
        self.frame.loc[index, C.COPY_HEADLINE] = text
        self.replan()

    def update(self, **changes: Any) -> None:
        """Change template values by dotted path, e.g. ``update(**{"device.width": 0.7})``."""
        for dotted, value in changes.items():
            node = self._template
            *parents, leaf = dotted.split(".")
            for p in parents:
                node = node[p]
            node[leaf] = value
        self.replan()

    def replan(self) -> None:
        """Plan the set with the current template and headlines; refresh the previews."""
        if self._due is not None:
            self._due.cancel()
            self._due = None
        try:
            self._planned = plan_layout(self.frame, template=self._template, size=self.size)
            self._error = None
        except ShotsmithError as exc:  # e.g. a headline too long at this size: keep the last
            self._error = str(exc)
        self._refresh_widgets()

    def _replan_soon(self) -> None:
        """Re-plan once the changes waiting in the kernel's queue are taken in: a fast drag
        sends a value every few ms, each plan takes longer, so the values that arrived
        meanwhile are coalesced into one plan of the latest. Without a running event loop
        (plain Python, tests) at once."""
        import asyncio

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.replan()
            return
        if self._due is None:
            self._due = loop.call_later(COALESCE_S, self._flush)

    def _flush(self) -> None:
        if self._due is not None:
            self.replan()

    def scene(self, index: int | None = None) -> dict[str, Any]:
        """The full-size scene of a screenshot under the current settings."""
        if self.planned is None:
            raise ConflictError(f"LayoutTuner: nothing planned yet ({self.error}).")
        i = self.index if index is None else index
        return self.planned[C.LAYOUT_SCENE].iloc[i]

    def preview_image(self, index: int | None = None, scale: float | None = None) -> Image.Image:
        """One screenshot, designed, at preview size (PIL image)."""
        i = self.index if index is None else index
        return preview_scene(
            self.scene(i),
            self.frame[C.IMAGE].iloc[i],
            scale or self.preview_scale,
            self._screenshots(),
        )

    @property
    def is_strip(self) -> bool:
        """Whether the set is one panorama strip cut into slides (its shapes or a device
        run across slide edges)."""
        return self.planned is not None and "strip" in self.scene(0).get("meta", {})

    def set_preview(self, scale: float | None = None, gap: int = 12) -> Image.Image:
        """The whole set side by side at preview size (PIL image); a panorama set as one
        strip, its slides edge to edge so shapes and devices run on across the cuts."""
        s = scale or self.set_scale
        shots = self._screenshots()
        slides = [
            preview_scene(self.scene(i), self.frame[C.IMAGE].iloc[i], s, shots)
            for i in range(len(self.frame))
        ]
        between = 0 if self.is_strip else gap
        width = sum(im.width for im in slides) + between * (len(slides) - 1) + 2 * gap
        height = max(im.height for im in slides) + 2 * gap
        strip = Image.new("RGB", (width, height), "#f2f2f5")
        x = gap
        for im in slides:
            strip.paste(im, (x, gap))
            x += im.width + between
        return strip

    def _screenshots(self) -> dict[int, Any]:
        """The set's screenshots by store position (a panorama's neighbours)."""
        return dict(zip(self.frame[C.POSITION].astype(int), self.frame[C.IMAGE]))

    def measures(self, index: int | None = None) -> dict[str, Any]:
        """What the current settings really did on the canvas (px), for one screenshot:
        the fitted headline size and the largest allowed, where the caption's ink starts
        and where its band starts, the device's box, how far it runs off the bottom."""
        if self.planned is None:
            raise ConflictError(f"LayoutTuner: nothing planned yet ({self.error}).")
        i = self.index if index is None else index
        scene = as_scene(self.scene(i))
        t = self._template
        width, height = scene.width, scene.height
        device = scene.device
        offsets = t["device"]["offsets_x"]
        return {
            "canvas": (width, height),
            "headline_px": int(self.planned[C.LAYOUT_HEADLINE_SIZE].iloc[i]),
            "headline_max_px": round(t["text"]["headline_size"][1] * width),
            "band_top_px": round(t["text"]["top"] * height),
            "caption_top_px": min(b.box[1] for b in scene.texts) if scene.texts else 0,
            "device_box": (device.x, device.y, device.width, device.height),
            "device_asked_px": round(t["device"]["width"] * width),
            "device_min_top_px": round(t["device"]["min_top"] * height),
            "offset_px": round(offsets[i % len(offsets)] * width),
            "below_bottom_px": device.y + device.height - height,
        }

    # --- saving ----------------------------------------------------------------------
    def copy_table(self) -> pd.DataFrame:
        """The set's copy as tuned: ``screen, headline, subtitle`` (what ``--copy`` reads)."""
        return pd.DataFrame(
            {
                "screen": [str(s) for s in self.frame[C.SCREEN]],
                "headline": self.headlines,
                "subtitle": [str(s) for s in self.frame[C.COPY_SUBTITLE]],
            }
        )

    def save_template(
        self, name: str, layouts_dir: str | Path | None = None, *, overwrite: bool = False
    ) -> Path:
        """Write the tuned template as ``<layouts_dir>/<name>.toml``; returns its path.

        Beside it, ``<name>.<app_id>.copy.csv`` keeps the set's headlines (edits
        included) and subtitles. An existing file written by the tuner is replaced; any
        other template file, or a new file that would shadow a built-in template (such as
        ``default``), only with ``overwrite=True`` (in the UI: tick *replace*)."""
        if self.error:
            raise ConflictError(
                f"not saved: this layout does not plan ({self.error}). Change the settings "
                "until the preview shows no error, then save."
            )
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", name or ""):
            raise TemplateError(
                f"template name {name!r}: use lower-case letters, digits, "
                "'-' and '_' (it becomes the file name and --template value)."
            )
        folder = (
            Path(layouts_dir)
            if layouts_dir is not None
            else (self.layouts_dir or default_layouts_dir())
        )
        path = folder / f"{name}.toml"
        if not overwrite:
            if path.exists() and not path.read_text(encoding="utf-8").startswith(TUNER_MARK):
                raise TemplateError(
                    f"{path} exists and was not written by the tuner. Pick another name, "
                    "or replace it: tick 'replace' beside Save (overwrite=True in code)."
                )
            if not path.exists() and name in _builtin_templates():
                raise TemplateError(
                    f"{name!r} is a built-in template: {path} would replace it for everything "
                    "designed from this folder. Pick another name, or replace it: tick "
                    "'replace' beside Save (overwrite=True in code)."
                )
        folder.mkdir(parents=True, exist_ok=True)
        template = self.template
        template["name"] = name
        base = self.base or "a template"
        template["description"] = (
            f"Tuned from {base} in the layout tuner on {self.frame[C.PROJECT_NAME].iloc[0]}."
        )
        text = template_toml(
            template,
            header=TUNER_MARK[2:] + f" from {base!r}.\n"
            "Fractions are of the canvas width (x, sizes) or height (y).",
        )
        parsed = tomllib.loads(text)  # what load_template will read, checked before writing
        load_template(parsed)
        _write_text(path, text)
        copy_path = folder / f"{name}.{self.app_id}{COPY_FILE_SUFFIX}"
        _write_text(copy_path, self.copy_table().to_csv(index=False))
        self.saved, self.saved_copy = path, copy_path
        self._started[name] = copy.deepcopy(template)
        self.base = name
        if self._widget is not None:
            self._show_saved(name)
        return path

    def source_folder(self) -> Path | None:
        """The folder the set's screenshots were read from, when they are files in one."""
        refs = list(self.frame[C.IMAGE])
        if not refs or not all(isinstance(r, (str, Path)) for r in refs):
            return None
        parents = {Path(r).resolve().parent for r in refs}
        return parents.pop() if len(parents) == 1 else None

    def design_command(self, out: str = "out") -> tuple[Path, str]:
        """``(folder, command)``: run ``command`` from ``folder`` to design this set as
        tuned (the saved template, and the saved copy when ``design`` takes ``--copy``).

        A template saved in a ``layouts/`` folder is named, and the command runs from that
        folder's parent (a project's root, where ``shotsmith design`` finds it); any
        other is passed by path."""
        if self.saved is None:
            raise ConflictError("design_command: save the template first (save_template).")
        import shlex

        layouts = self.saved.resolve().parent
        if layouts.name == "layouts":
            root, template = layouts.parent, self.saved.stem
        else:
            root, template = Path.cwd().resolve(), str(self.saved.resolve())

        def rel(path: Path) -> str:
            try:
                return path.resolve().relative_to(root).as_posix()
            except ValueError:
                return str(path.resolve())

        source = self.source_folder()
        parts = ["shotsmith", "design", rel(source) if source else "FOLDER"]
        name = str(self.frame[C.PROJECT_NAME].iloc[0])
        if source is None or name != folder_project_name(source):
            parts += ["--project-name", name]
        parts += ["--template", template]
        if self.saved_copy is not None and _design_takes("copy"):
            parts += ["--copy", rel(self.saved_copy)]
        parts += ["--out", out]
        return root, " ".join(shlex.quote(p) for p in parts)

    # --- widgets ---------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets UI (built on first use)."""
        if self._widget is None:
            self._widget = self._build()
            self._refresh_widgets()
        return self._widget

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        t = self._template
        return (
            f"LayoutTuner({self.app_id!r}, {len(self.frame)} screenshots, template "
            f"{t['name']!r}: headline {t['text']['headline_size']}, device width "
            f"{t['device']['width']}, palette {t['palette']['strategy']} "
            f"{t['palette']['rhythm']}, caption {t['text']['align']})"
        )

    def _build(self):
        """The whole UI: the controls and the preview side by side, the headlines below,
        then the set strip."""
        import ipywidgets as W

        c = self.controls
        rows = [*self._template_controls(), *self._save_controls()]
        headline_boxes = self._headline_boxes()
        width = self._preview_widgets()
        self._observe_controls()
        controls = W.VBox(rows, layout=W.Layout(width="480px", flex="0 0 480px"))
        preview = W.VBox(
            [c["preview"], c["status"]],
            layout=W.Layout(
                width=f"{width}px", flex="0 0 auto", margin=f"0 0 0 {PREVIEW_GAP_PX}px"
            ),
        )
        headlines = W.Accordion(children=[W.VBox(headline_boxes)])
        headlines.set_title(0, "headlines (per screenshot)")
        return W.VBox(
            [
                W.HBox([controls, preview], layout=W.Layout(flex_flow="row wrap")),
                headlines,
                c["set_title"],
                c["set_preview"],
            ],
            layout=W.Layout(width="100%"),
        )

    def _readout(self, key: str):
        """The note beside a control saying what it did."""
        import ipywidgets as W

        self.readouts[key] = W.HTML(layout=W.Layout(width="150px", margin="0 0 0 6px"))
        return self.readouts[key]

    def _slider(self, key: str, label: str, value: float, lo: float, hi: float, step: float):
        """A slider with a number box beside it (type a value, or slide) and its readout."""
        import ipywidgets as W

        c = self.controls
        c[key] = W.FloatSlider(
            value=value,
            min=lo,
            max=hi,
            step=step,
            description=label,
            readout=False,  # the number box beside it is the value; the readout what it did
            style=LABEL_STYLE,
            layout=W.Layout(width="236px"),
            continuous_update=True,
        )
        c[f"{key}_number"] = number = W.BoundedFloatText(
            value=value, min=lo, max=hi, step=step, layout=W.Layout(width="72px")
        )
        W.link((c[key], "value"), (number, "value"))
        return W.HBox([c[key], number, self._readout(key)])

    def _checkbox(self, key: str, label: str, value: bool):
        import ipywidgets as W

        self.controls[key] = W.Checkbox(
            value=value, description=label, indent=False, layout=W.Layout(width="auto")
        )
        return W.HBox([self.controls[key], self._readout(key)])

    def _template_controls(self) -> list:
        """The template and palette pickers and the controls of the template's values."""
        import ipywidgets as W

        t, c = self._template, self.controls
        wide = W.Layout(width="392px")
        names = list(dict.fromkeys([*_available(), t["name"]]))
        palette_options = list(palette_presets())
        current = _palette_name(t["palette"])
        if current is None:
            current = f"template ({t['palette']['strategy']}: {', '.join(t['palette']['rhythm'])})"
            palette_options.insert(0, current)
        self._custom_palette = (current, copy.deepcopy(t["palette"]))
        offsets = t["device"]["offsets_x"]
        c["template"] = W.Dropdown(
            options=names, value=t["name"], description="template", style=LABEL_STYLE, layout=wide
        )
        c["palette"] = W.Dropdown(
            options=palette_options,
            value=current,
            description="palette",
            style=LABEL_STYLE,
            layout=wide,
        )
        c["caption_align"] = W.ToggleButtons(
            options=["center", "left"],
            value=t["text"]["align"],
            description="caption",
            style={**LABEL_STYLE, "button_width": "70px"},
        )
        slider = self._slider
        return [
            c["template"],
            c["palette"],
            slider("headline_size", "headline", t["text"]["headline_size"][1], 0.04, 0.14, 0.001),
            c["caption_align"],
            slider("caption_top", "caption area", t["text"]["top"], 0.0, 0.2, 0.002),
            slider("device_width", "device width", t["device"]["width"], 0.4, 1.0, 0.01),
            slider("device_top", "device top", t["device"]["min_top"], 0.12, 0.6, 0.005),
            slider("device_offset_x", "device x", offsets[0], -0.2, 0.2, 0.005),
            self._checkbox(
                "device_alternate",
                "mirror the x offset on every other slide",
                len(offsets) > 1 and offsets[1] == -offsets[0],
            ),
            self._checkbox(
                "device_bleed",
                "let a tall device run off the bottom (else shrink it to fit)",
                bool(t["device"]["bleed"]),
            ),
        ]

    def _save_controls(self) -> list:
        """The screenshot to preview, and saving the tuned template."""
        import ipywidgets as W

        t, c = self._template, self.controls
        c["screenshot"] = W.Dropdown(
            options=[(f"{i + 1}. {s}", i) for i, s in enumerate(self.frame[C.SCREEN])],
            value=self.index,
            description="preview",
            style=LABEL_STYLE,
            layout=W.Layout(width="392px"),
        )
        c["save_name"] = W.Text(
            value=f"{t['name']}-tuned",
            description="save as",
            style=LABEL_STYLE,
            layout=W.Layout(width="252px"),
        )
        c["save"] = W.Button(
            description="Save template",
            icon="save",
            button_style="primary",
            layout=W.Layout(width="136px", margin="0 0 0 4px"),
        )
        c["overwrite"] = W.Checkbox(
            value=False,
            description="replace a template of that name that the tuner did not write",
            indent=False,
            layout=W.Layout(width="auto"),
        )
        c["save_status"] = W.HTML(layout=W.Layout(width="392px"))
        return [
            c["screenshot"],
            W.HBox([c["save_name"], c["save"]]),
            c["overwrite"],
            c["save_status"],
        ]

    def _headline_boxes(self) -> list:
        """One text box per screenshot for its headline."""
        import ipywidgets as W

        boxes = []
        for i, head in enumerate(self.headlines):
            box = W.Text(
                value=head,
                description=f"{i + 1}. {self.frame[C.SCREEN].iloc[i]}",
                continuous_update=False,
                style={"description_width": "140px"},
                layout=W.Layout(width="560px"),
            )
            self.controls[f"headline_{i}"] = box
            box.observe(self._on_headline(i), names="value")
            boxes.append(box)
        return boxes

    def _preview_widgets(self) -> int:
        """The preview, its status line and the set strip; returns the preview's width."""
        import ipywidgets as W

        c = self.controls
        shown = self.preview_image() if self.planned is not None else None
        width, height = shown.size if shown is not None else (330, 717)
        # the preview keeps its own pixel size: never stretched by the column, never
        # squeezed by a long message beside it (the status wraps inside its width)
        c["preview"] = W.Image(
            format="png",
            layout=W.Layout(width=f"{width}px", height=f"{height}px", object_fit="contain"),
        )
        c["status"] = W.HTML(layout=W.Layout(width=f"{width}px"))
        # the set strip at its own pixel width too: a column box stretches an auto-width
        # child to its full width (an upscaled, soft strip); narrower outputs scale it down
        c["set_title"] = W.HTML("<b>the whole set</b>")
        c["set_preview"] = W.Image(
            format="png",
            layout=W.Layout(width="auto", max_width="100%", height="auto", align_self="flex-start"),
        )
        return width

    def _observe_controls(self) -> None:
        c = self.controls
        c["template"].observe(self._on_template, names="value")
        for key in TEMPLATE_CONTROLS:
            c[key].observe(self._on_control, names="value")
        c["screenshot"].observe(self._on_screenshot, names="value")
        c["save"].on_click(lambda _: self._on_save())

    def _sync_controls(self) -> None:
        """Put the template's values into the controls without re-planning for each."""
        t, c = self._template, self.controls
        self._syncing = True
        try:
            c["headline_size"].value = t["text"]["headline_size"][1]
            c["device_width"].value = t["device"]["width"]
            offsets = t["device"]["offsets_x"]
            c["device_offset_x"].value = offsets[0]
            c["device_alternate"].value = len(offsets) > 1 and offsets[1] == -offsets[0]
            c["device_top"].value = t["device"]["min_top"]
            c["device_bleed"].value = bool(t["device"]["bleed"])
            name = _palette_name(t["palette"])
            if name is None:
                name = f"template ({t['palette']['strategy']}: {', '.join(t['palette']['rhythm'])})"
                if name not in c["palette"].options:
                    c["palette"].options = [name, *c["palette"].options]
                self._custom_palette = (name, copy.deepcopy(t["palette"]))
            c["palette"].value = name
            c["caption_align"].value = t["text"]["align"]
            c["caption_top"].value = t["text"]["top"]
        finally:
            self._syncing = False

    def _on_template(self, change: dict) -> None:
        if self._syncing:
            return
        old, name = change["old"], change["new"]
        started = self._started.get(name)  # given by path or dict, or saved here
        self.controls["save_status"].value = ""  # it spoke of the other template
        try:
            loaded = started if started is not None and name not in _available() else None
            self._template = copy.deepcopy(loaded or load_template(name))
        except ShotsmithError as exc:
            self._error = f"template {name!r}: {exc}"
            self._refresh_widgets()
            return
        self.base = name
        save_name = self.controls["save_name"]
        if save_name.value.strip() in ("", f"{old}-tuned"):  # not a name the user typed
            save_name.value = f"{name}-tuned"
        self._sync_controls()
        self.replan()

    def _on_control(self, change: dict) -> None:
        if self._syncing:
            return
        c, t = self.controls, self._template
        key = next(k for k, w in c.items() if w is change["owner"])
        if key == "headline_size":
            hi = float(c["headline_size"].value)
            lo = min(float(t["text"]["headline_size"][0]), hi)
            t["text"]["headline_size"] = [round(lo, 4), round(hi, 4)]
        elif key == "device_width":
            t["device"]["width"] = round(float(c["device_width"].value), 4)
        elif key in ("device_offset_x", "device_alternate"):
            o = round(float(c["device_offset_x"].value), 4)
            t["device"]["offsets_x"] = [o, -o] if c["device_alternate"].value and o else [o]
        elif key == "device_top":
            t["device"]["min_top"] = round(float(c["device_top"].value), 4)
        elif key == "device_bleed":
            t["device"]["bleed"] = bool(c["device_bleed"].value)
        elif key == "palette":
            name = c["palette"].value
            custom_name, custom = self._custom_palette
            spec = custom if name == custom_name else palette_preset(name)
            t["palette"] = _merge_dict(t["palette"], copy.deepcopy(spec))
        elif key == "caption_align":
            t["text"]["align"] = c["caption_align"].value
        elif key == "caption_top":
            t["text"]["top"] = round(float(c["caption_top"].value), 4)
        self._replan_soon()

    def _on_headline(self, index: int):
        def handler(change: dict) -> None:
            if not self._syncing:
                self.set_headline(index, str(change["new"]).strip() or self.headlines[index])

        return handler

    def _on_screenshot(self, change: dict) -> None:
        self.index = int(change["new"])
        self._refresh_widgets(set_too=False)

    def _on_save(self) -> None:
        c = self.controls
        try:
            self.save_template(c["save_name"].value.strip(), overwrite=bool(c["overwrite"].value))
        except ShotsmithError as exc:
            c["save_status"].value = _wrapping(
                f'<span style="color:#b00020">{_breakable(str(exc))}</span>'
            )
        c["overwrite"].value = False  # a replacement is confirmed once, not for good

    def _show_saved(self, name: str) -> None:
        """After a save: the template is in the dropdown (and chosen), and the message says
        what was written and the command that designs the set with it."""
        c = self.controls
        names = list(dict.fromkeys([*_available(), *self._started, name]))
        self._syncing = True
        try:
            c["template"].options = names
            c["template"].value = name
            c["save_name"].value = name
        finally:
            self._syncing = False
        root, command = self.design_command()
        copy_note = (
            f" and the set's copy to <code>{_breakable(self.saved_copy.name)}</code>"
            if self.saved_copy is not None
            else ""
        )
        c["save_status"].value = _wrapping(
            f"Saved <code>{_breakable(str(self.saved))}</code>{copy_note}. "
            f"From <code>{_breakable(str(root))}</code>:<br>"
            f"<code>{_breakable(command)}</code>"
        )

    def _refresh_widgets(self, set_too: bool = True) -> None:
        if self._widget is None and not self.controls:
            return
        c = self.controls
        if self.planned is not None:
            c["preview"].value = _png_bytes(self.preview_image())
            if set_too:
                strip = self.set_preview()
                c["set_preview"].layout.width = f"{strip.width}px"
                c["set_preview"].value = _png_bytes(strip)
                c["set_title"].value = (
                    "<b>the whole strip</b> (one panorama, cut into slides)"
                    if self.is_strip
                    else "<b>the whole set</b>"
                )
            row = self.planned.iloc[self.index]
            info = (
                f"tone {row[C.LAYOUT_VARIANT]} · caption contrast "
                f"{float(row[C.LAYOUT_CONTRAST]):.2f} · preview at "
                f"{self.preview_scale:g}× the {row[C.LAYOUT_SIZE]} canvas"
            )
            self._refresh_readouts()
        else:
            info = ""
        if self.error:
            info += f'<br><span style="color:#b00020">{_breakable(self.error)}</span>'
        c["status"].value = _wrapping(info)
        # nothing to save while the layout does not plan: the saved file would not either
        c["save"].disabled = bool(self.error)
        c["save"].tooltip = "fix the error under the preview first" if self.error else ""

    def _refresh_readouts(self) -> None:
        """Say, beside each control, what it did on the full-size canvas."""
        r, c = self.readouts, self.controls
        if not r:
            return
        m = self.measures()
        grey = '<span style="color:#777">{}</span>'
        head, cap = m["headline_px"], m["headline_max_px"]
        r["headline_size"].value = (
            f"{head} px"
            if head >= cap
            else f"{head} px " + grey.format(f"(max {cap}: fitted to the longest headline)")
        )
        band, ink = m["band_top_px"], m["caption_top_px"]
        lowered = ink - band > 0.6 * head  # centred lower, in the room above the device
        r["caption_top"].value = f"from {band} px" + (
            "<br>" + grey.format(f"centred above the device: text at {ink} px") if lowered else ""
        )
        x, y, width, height = m["device_box"]
        asked = m["device_asked_px"]
        r["device_width"].value = f"{width} px wide" + (
            "<br>" + grey.format(f"(asked {asked}: shrunk to fit)") if width < asked - 1 else ""
        )
        low = m["device_min_top_px"]
        r["device_top"].value = f"at {y} px" + (
            "<br>" + grey.format(f"(at least {low}: below the caption)")
            if y > low + 1
            else "<br>" + grey.format(f"(asked {low}: raised to fit)")
            if y < low - 1
            else ""
        )
        offset = m["offset_px"]
        r["device_offset_x"].value = f"{offset:+d} px" if offset else "centred"
        alternate = c["device_alternate"]
        alternate.disabled = float(c["device_offset_x"].value) == 0
        r["device_alternate"].value = (
            grey.format("(no offset to mirror)") if alternate.disabled else ""
        )
        below = m["below_bottom_px"]
        r["device_bleed"].value = grey.format(
            f"runs {below} px off" if below > 0 else f"ends {-below} px above"
        )


def _wrapping(inner: str) -> str:
    """HTML for a message that wraps inside its widget's width between words; long paths and
    commands break after their separators (:func:`.frames._breakable`), never mid-word."""
    return (
        '<div style="white-space:normal;overflow-wrap:break-word;word-break:normal;'
        f'line-height:1.35">{inner}</div>'
    )


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _merge_dict(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    out.update(over)
    return out


def _available() -> list[str]:
    from ..stages.layout import available_templates

    return available_templates()

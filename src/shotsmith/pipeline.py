"""The pipeline: named stages over a frame, intermediates, timings, fan-out of sets.

``Pipeline.default().run(frame)`` keeps every stage's output frame by name (for
notebooks) and the time each stage took; given any ``concurrent.futures``
executor (a process pool, or a Dask cluster's ``client.get_executor()``) it
runs the sets of a batch in parallel. ``design()`` is the one call the CLI and
the server use.

Which stages run, and with what, is the pipeline's business, not its callers':
``run(frame, until="plan_layout")`` runs the stages before a named one (the layout
tuner needs a frame ready for layout, whatever the frame already has), and
``set_params(extract_features__workers=1)`` / ``get_params()`` read and change a
step's options by name, checked against the stage's signature, in the manner of
scikit-learn's ``Pipeline`` (so ``batch.py`` does not reach into a step's dict).
"""

from __future__ import annotations

import html
import inspect
import json
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from . import columns as C
from .errors import InvalidOptionError
from .io import read_screenshots
from .llm import LLMConfig
from .locales import check_locale
from .progress import advance, bar, listening, wanted
from .settings import one_thread_per_worker
from .stages.copy import read_user_copy, write_copy
from .stages.copy.user import check_copy_language
from .stages.domain import detect_domain
from .stages.features import extract_features
from .stages.layout import plan_layout
from .stages.layout.sizes import StoreSize, parse_sizes
from .stages.render import render

Stage = Callable[..., pd.DataFrame]


@dataclass
class Step:
    name: str
    fn: Stage
    options: dict[str, Any] = field(default_factory=dict)

    def __call__(self, frame: pd.DataFrame) -> pd.DataFrame:
        return self.fn(frame, **self.options)


@dataclass
class PipelineRun:
    """What a run produced: the final frame, every intermediate frame, timings."""

    frames: dict[str, pd.DataFrame]
    timings: dict[str, float]  # seconds per stage (summed over sets)
    wall: float  # seconds for the whole run

    @property
    def output(self) -> pd.DataFrame:
        return next(reversed(self.frames.values()))

    def __getitem__(self, stage_name: str) -> pd.DataFrame:
        return self.frames[stage_name]

    def timings_frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            {"stage": list(self.timings), "seconds": [round(v, 4) for v in self.timings.values()]}
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(k)}</td><td>{v * 1000:.0f} ms</td>"
            f"<td>{len(self.frames[k].columns)} columns</td></tr>"
            for k, v in self.timings.items()
        )
        return (
            f"<b>PipelineRun</b>: {_count(len(self.output), 'screenshot')}, "
            f"{_count(self.output[C.APP_ID].nunique(), 'set')}, {self.wall:.2f} s wall"
            f"<table><tr><th>stage</th><th>time</th><th>frame</th></tr>{rows}</table>"
        )


def _count(n: int, noun: str) -> str:
    """``1 set``, ``2 sets``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


class Pipeline:
    """An ordered list of named stages, in the manner of scikit-learn's Pipeline."""

    def __init__(self, steps: Sequence[Step | tuple[str, Stage] | tuple[str, Stage, dict] | Stage]):
        self.steps: list[Step] = []
        for s in steps:
            if isinstance(s, Step):
                self.steps.append(s)
            elif callable(s):
                contract = getattr(s, "contract", None)
                if contract is None:
                    raise InvalidOptionError(
                        f"Pipeline: {getattr(s, '__name__', s)!r} is not a stage (no contract); "
                        "pass it with a name, as ('name', function), or declare it with stage()."
                    )
                self.steps.append(Step(contract.name, s))
            else:
                self.steps.append(Step(s[0], s[1], dict(s[2]) if len(s) > 2 else {}))
        names = [s.name for s in self.steps]
        if len(set(names)) != len(names):
            raise InvalidOptionError(f"Pipeline: stage names must be unique, got {names}")

    @classmethod
    def default(
        cls,
        *,
        template: str | Path | dict = "default",
        size: str | None = None,
        out_dir: str | Path | None = "out",
        ocr: bool | str = "auto",
        copy_backend: str = "grounded",
        about: str | None = None,
        copy: str | Path | pd.DataFrame | None = None,
    ) -> Pipeline:
        """The whole pipeline. Features are read before the domain is decided, so domain
        detection can use the visible text. ``about`` (the user's description of the app)
        and ``copy`` (the user's own captions, a CSV path or a frame with ``screen,
        headline, subtitle``) go to :func:`write_copy`."""
        copy_options: dict[str, Any] = {"backend": copy_backend}
        if about is not None:
            copy_options["about"] = about
        if copy is not None:
            copy_options["copy"] = copy
        return cls(
            [
                Step("extract_features", extract_features, {"ocr": ocr}),
                Step("detect_domain", detect_domain),
                Step("write_copy", write_copy, copy_options),
                Step("plan_layout", plan_layout, {"template": template, "size": size}),
                Step("render", render, {"out_dir": out_dir}),
            ]
        )

    # --- inspection ------------------------------------------------------------
    @property
    def named_steps(self) -> dict[str, Step]:
        return {s.name: s for s in self.steps}

    def __getitem__(self, key: int | slice | str) -> Pipeline | Step:
        if isinstance(key, slice):
            return Pipeline(self.steps[key])
        if isinstance(key, str):
            return self.named_steps[key]
        return self.steps[key]

    def __len__(self) -> int:
        return len(self.steps)

    def get_params(self) -> dict[str, Any]:
        """Every step's options as ``{"step__option": value}`` (scikit-learn's spelling):
        the options a step was given and the defaults of its stage's other keyword
        options, so what a run will use can be read in one place."""
        params: dict[str, Any] = {}
        for s in self.steps:
            for name, value in {**_stage_defaults(s.fn), **s.options}.items():
                params[f"{s.name}__{name}"] = value
        return params

    def set_params(self, **params: Any) -> Pipeline:
        """Set steps' options by ``step__option=value``; returns the pipeline.

        ``Pipeline.default().set_params(extract_features__workers=1, plan_layout__size="6.9")``.
        An unknown step or an option its stage does not take is an error that names the
        ones it has; nothing is changed unless every name is valid."""
        updates: list[tuple[Step, str, Any]] = []
        for key, value in params.items():
            step_name, sep, option = key.partition("__")
            step = self.named_steps.get(step_name)
            if not sep or not option or step is None:
                raise InvalidOptionError(
                    f"Pipeline.set_params: {key!r} names no step's option; write "
                    f"step__option with a step of {list(self.named_steps)}, e.g. "
                    f"{self.steps[0].name if self.steps else 'render'}__..."
                )
            accepted = _stage_options(step.fn)
            if accepted is not None and option not in accepted:
                raise InvalidOptionError(
                    f"Pipeline.set_params: the {step.name} step has no option {option!r}; "
                    f"its options are {sorted(accepted)}."
                )
            updates.append((step, option, value))
        for step, option, value in updates:
            step.options[option] = value
        return self

    def _steps_until(self, until: str | None) -> list[Step]:
        if until is None:
            return self.steps
        names = [s.name for s in self.steps]
        if until not in names:
            raise InvalidOptionError(
                f"Pipeline.run: until={until!r} is not a stage of this pipeline; "
                f"its stages are {names}."
            )
        return self.steps[: names.index(until)]

    def contracts(self) -> pd.DataFrame:
        """Each stage's contract: the columns it needs and the columns it adds."""
        rows = []
        for s in self.steps:
            contract = getattr(s.fn, "contract", None)
            rows.append(
                {
                    "stage": s.name,
                    "requires": list(contract.requires) if contract else [],
                    "provides": list(contract.provides) if contract else [],
                    "options": s.options,
                }
            )
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{s.name}({', '.join(f'{k}={v!r}' for k, v in s.options.items())})" for s in self.steps
        )
        return f"Pipeline([{inner}])"

    def _repr_html_(self) -> str:
        return "<b>Pipeline</b>" + self.contracts().to_html(index=False)

    # --- running ---------------------------------------------------------------
    def validate(self, frame: pd.DataFrame) -> None:
        """Check up front that every stage will find the columns it needs."""
        have = set(frame.columns)
        for s in self.steps:
            contract = getattr(s.fn, "contract", None)
            if contract is None:
                continue
            if any(c not in have for c in contract.requires):
                contract.check(pd.DataFrame(columns=sorted(have)))  # raises, naming the column
            have.update(contract.provides)

    def run(
        self,
        frame: pd.DataFrame,
        *,
        executor: Executor | None = None,
        keep_intermediates: bool = True,
        progress: bool | None = None,
        until: str | None = None,
        resume: bool = False,
    ) -> PipelineRun:
        """Run every stage; with an executor, sets run in parallel (one task per set).

        ``until`` names a stage to stop before: ``run(frame, until="plan_layout")``
        runs features, domain and copy and leaves the layout and rendering to the caller
        (the layout tuner). ``resume=True`` skips the leading stages whose columns the
        frame already has (a frame that went through ``write_copy`` starts at the next
        stage); the first stage missing a column and every one after it run.

        ``progress`` shows a bar (tqdm.auto: a text bar in a terminal, a widget in
        Jupyter) of the stages as they run, or of the sets with an executor; ``None``
        (the default) shows it when someone is watching: in a notebook kernel, or on a
        terminal (see :mod:`shotsmith.progress`)."""
        steps = self._steps_until(until)
        if resume:
            steps = _not_done(steps, frame)
        Pipeline(steps).validate(frame)
        show = wanted(progress)
        start = time.perf_counter()
        if not steps:
            frames = {"input": frame}
            return PipelineRun(frames, {}, time.perf_counter() - start)
        if executor is None:
            meter = _stage_bar(show, steps, frame)
            try:
                frames, timings = _run_steps(steps, frame, keep_intermediates, meter)
            finally:
                if meter is not None:
                    meter.close()
        else:
            sets = [rows for _, rows in frame.groupby(C.APP_ID, sort=False)]
            futures = [executor.submit(_run_set, steps, rows, keep_intermediates) for rows in sets]
            results = []
            for fut in _progress(futures, show, total=len(futures)):
                results.append(fut.result())
            frames, timings = _merge_results(results)
        return PipelineRun(frames, timings, time.perf_counter() - start)


def _stage_options(fn: Stage) -> set[str] | None:
    """The keyword options a stage takes (None when it takes any: ``**options``)."""
    try:
        params = list(inspect.signature(fn).parameters.values())[1:]  # after the frame
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}


def _stage_defaults(fn: Stage) -> dict[str, Any]:
    try:
        params = list(inspect.signature(fn).parameters.values())[1:]
    except (TypeError, ValueError):
        return {}
    return {
        p.name: p.default
        for p in params
        if p.default is not p.empty and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }


def _not_done(steps: list[Step], frame: pd.DataFrame) -> list[Step]:
    """The steps from the first whose columns the frame does not have yet."""
    have = set(frame.columns)
    for i, s in enumerate(steps):
        contract = getattr(s.fn, "contract", None)
        if contract is None or not contract.provides or not set(contract.provides) <= have:
            return steps[i:]
    return []


def _stage_bar(show: bool, steps: list[Step], frame: pd.DataFrame):
    """A bar over the screenshots of one run in this process, stage after stage (a stage
    that works screenshot by screenshot moves it as each is done), named after the running
    stage."""
    if not show or not steps:
        return None
    sets = frame[C.APP_ID].nunique() if C.APP_ID in frame.columns else 1
    return bar(
        total=len(steps) * len(frame),
        desc=steps[0].name,
        unit="screenshot",
        postfix=f"{_count(len(frame), 'screenshot')}, {_count(sets, 'set')}",
        bar_format=_stage_format(1, len(steps)),
        leave=True,
    )


def _progress(futures: list, show: bool, total: int) -> Iterable:
    if not show:
        return futures
    return bar(iterable=futures, total=total, desc="sets", unit="set")


def _run_set(
    steps: list[Step], frame: pd.DataFrame, keep: bool
) -> tuple[dict[str, pd.DataFrame], dict[str, float]]:
    """One set in an executor's worker: the workers already share the cores, so each
    renders on one thread unless SHOTSMITH_RENDER_THREADS says otherwise."""
    with one_thread_per_worker():
        return _run_steps(steps, frame, keep)


def _run_steps(
    steps: list[Step], frame: pd.DataFrame, keep: bool, meter: Any = None
) -> tuple[dict[str, pd.DataFrame], dict[str, float]]:
    """Run the steps in order. Each step tells :func:`progress.advance` as screenshots are
    done (render per screenshot, others per chunk or at their end): ``meter`` (a bar over
    steps x screenshots) moves, and anyone listening (a batch task) hears it."""
    frames: dict[str, pd.DataFrame] = {"input": frame} if keep else {}
    timings: dict[str, float] = {}
    rows = len(frame)
    for index, step in enumerate(steps):
        end = (index + 1) * rows
        if meter is not None:
            meter.set_description_str(step.name, refresh=False)
            meter.bar_format = _stage_format(index + 1, len(steps))
            meter.refresh()
        advance(0)  # a checkpoint: a listener may stop the run here
        t0 = time.perf_counter()
        with listening(_screenshot_meter(meter, end)):
            if step.fn is render and "on_rendered" not in step.options:
                step = Step(step.name, step.fn, {**step.options, "on_rendered": _rendered})
            frame = step(frame)
        timings[step.name] = time.perf_counter() - t0
        if keep:
            frames[step.name] = frame
        if meter is not None and meter.n < end:
            meter.update(end - meter.n)
    if meter is not None:
        meter.set_description_str("done", refresh=True)
    if not keep:
        frames[steps[-1].name if steps else "input"] = frame
    return frames, timings


def _stage_format(stage: int, stages: int) -> str:
    return (
        f"{{desc:<16}} {{percentage:3.0f}}%|{{bar}}| stage {stage}/{stages} "
        "[{elapsed}<{remaining}{postfix}]"
    )


def _rendered(event: dict[str, Any]) -> None:
    advance(1)


def _screenshot_meter(meter: Any, end: int) -> Callable[[int], None]:
    """A listener moving ``meter`` by each screenshot done, never past the stage's ``end``."""

    def moved(screenshots: int) -> None:
        if meter is not None and screenshots > 0:
            meter.update(max(0, min(screenshots, end - meter.n)))

    return moved


def _merge_results(
    results: list[tuple[dict[str, pd.DataFrame], dict[str, float]]],
) -> tuple[dict[str, pd.DataFrame], dict[str, float]]:
    if not results:
        raise InvalidOptionError("Pipeline.run: the frame has no rows")
    names = list(results[0][0])
    frames = {n: pd.concat([r[0][n] for r in results]) for n in names}
    timings = {n: sum(r[1].get(n, 0.0) for r in results) for n in results[0][1]}
    return frames, timings


REPORT_COLUMNS = [
    C.APP_ID,
    C.POSITION,
    C.PROJECT_NAME,
    C.BUNDLE_ID,
    C.SCREEN,
    C.DEVICE,
    C.LOCALE,
    C.DOMAIN_CATEGORY,
    C.DOMAIN_CONFIDENCE,
    C.DOMAIN_SIGNALS,
    C.DOMAIN_RUNNER_UP,
    C.DOMAIN_CONFIDENT,
    C.FEATURES_KIND,
    C.FEATURES_SUBJECT,
    C.FEATURES_SUBJECT_FROM,
    C.FEATURES_EXAMPLES,
    C.FEATURES_FIELDS,
    C.FEATURES_INTENT,
    C.FEATURES_PHRASE,
    C.FEATURES_KEYWORDS,
    C.FEATURES_TITLE,
    C.FEATURES_HEADINGS,
    C.FEATURES_TABS,
    C.FEATURES_ACTIONS,
    C.FEATURES_LABELS,
    C.FEATURES_NUMBERS,
    C.FEATURES_TEXT,
    C.FEATURES_TEXT_SOURCE,
    C.FEATURES_EVIDENCE,
    C.FEATURES_ACCENT,
    C.FEATURES_DARK_UI,
    C.COPY_TAGLINE,
    C.COPY_HEADLINE,
    C.COPY_SUBTITLE,
    C.COPY_SOURCE,
    C.COPY_EVIDENCE,
    C.COPY_STORE_TEXT,
    C.ABOUT,
    C.LAYOUT_TEMPLATE,
    C.LAYOUT_DEVICE,
    C.LAYOUT_SIZE,
    C.LAYOUT_HEADLINE_SIZE,
    C.LAYOUT_VARIANT,
    C.LAYOUT_BACKGROUND,
    C.LAYOUT_TEXT_COLOR,
    C.LAYOUT_CONTRAST,
    C.LAYOUT_SCENE,
    C.RENDER_PATH,
    C.RENDER_WIDTH,
    C.RENDER_HEIGHT,
    C.RENDER_MS,
    C.VARIANT,
    C.VARIANT_DIFFERS,
]


def report(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Every stage's columns for each row, as JSON-ready records (no pixels, no bytes)."""
    cols = [c for c in REPORT_COLUMNS if c in frame.columns]
    records = []
    for _, row in frame[cols].iterrows():
        rec = {}
        for c in cols:
            v = row[c]
            if hasattr(v, "item"):
                v = v.item()
            elif isinstance(v, tuple):
                v = list(v)
            rec[c] = v
        records.append(rec)
    return records


def write_report(
    frame: pd.DataFrame, out_dir: str | Path, *, folder_name: str | None = None
) -> dict[str, Path]:
    """Write ``design.json`` and ``design.csv`` per set next to its PNGs: in
    ``out_dir/<app_id>/``, or ``out_dir/<folder_name>/`` when named."""
    written = {}
    for app_id, rows in C.set_groups(frame):
        folder = Path(out_dir) / (folder_name or str(app_id))
        folder.mkdir(parents=True, exist_ok=True)
        records = report(rows)
        # UTF-8 as written (a Japanese caption reads as Japanese); a lone surrogate from a
        # hand-made manifest is kept as its JSON escape rather than failing the write
        (folder / "design.json").write_text(
            json.dumps(records, indent=2, default=str, ensure_ascii=False) + "\n",
            encoding="utf-8",
            errors="backslashreplace",
        )
        flat = pd.DataFrame(
            [
                {
                    k: (json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v)
                    for k, v in r.items()
                }
                for r in records
            ]
        )
        flat.to_csv(folder / "design.csv", index=False, errors="backslashreplace")
        written[str(app_id)] = folder / "design.json"
    return written


def design(
    source: str | Path | pd.DataFrame | Sequence[str | Path | bytes] | None = None,
    *,
    project_name: str | None = None,
    bundle_id: str | None = None,
    screens: Sequence[str] | None = None,
    images_base64: Sequence[str] | None = None,
    devices: Sequence[str] | str | None = None,
    template: str | Path | dict = "default",
    size: str | None = None,
    sizes: Sequence[str] | None = None,
    out_dir: str | Path | None = "out",
    ocr: bool | str = "auto",
    copy_backend: str = "grounded",
    about: str | None = None,
    copy: str | Path | pd.DataFrame | None = None,
    locale: str | None = None,
    strict_locale: bool = False,
    executor: Executor | None = None,
    write_table: bool = True,
    progress: bool | Callable[[dict[str, Any]], None] = False,
    variants: int = 1,
) -> pd.DataFrame:
    """From raw screenshots to a designed, store-ready set: the whole pipeline in one call.

    ``source`` is anything :func:`read_screenshots` takes, or a frame already read.
    Returns the final frame (one row per screenshot, every stage's columns,
    ``render_path`` pointing at the PNGs) and, with ``write_table``, writes
    ``design.json``/``design.csv`` beside the PNGs. ``about`` is the user's own
    description of the app, which captions may draw on; ``copy`` the user's own captions
    (a CSV path or frame with ``screen, headline, subtitle``), which are kept verbatim.
    ``locale`` (e.g. ``"ja-JP"``) is the set's language: its copy rows are used, the
    captions and store text are written in it. It must be a language one of the stores
    lists (:func:`shotsmith.locales.check_locale`). Screens of a non-English set that have
    no copy in its language are named in a warning before anything is written;
    ``strict_locale`` makes that an :class:`InvalidOptionError`.

    Each set is designed at its device's store size (iPhone 6.9", iPad 13", Android
    Google Play sizes; :func:`shotsmith.stages.layout.sizes.output_size_for`) into
    ``out_dir/<app_id>/``.
    ``size``/``sizes`` ask for store sizes by name (``sizes=["6.9", "6.5"]``): the
    screens are read and captioned once, and each size is laid out and rendered into
    its own folder, ``out_dir/<size>/<app_id>/``, so no size overwrites another.
    ``progress=True`` shows a bar over the screenshots (tqdm: text in a terminal, a
    widget in Jupyter); a callable gets each event instead (``{"event": "stage",
    "stage"}``, ``{"event": "screenshots", "stage", "done", "screenshots"}`` as a stage
    gets through them, and ``{"event": "rendered", "path", ...}``).
    ``variants`` (1 to 4) designs that many sets of each app for a store experiment,
    each in ``<app_id>/variant-K/``, differing in the lead screen, the palette and the
    template (:mod:`shotsmith.variants`).
    """
    from .variants import check_variants

    variants = check_variants(variants)
    frame = _input_frame(
        source,
        locale=locale,
        about=about,
        project_name=project_name,
        bundle_id=bundle_id,
        screens=screens,
        images_base64=images_base64,
        devices=devices,
    )
    copy = _checked_copy(frame, copy, source, copy_backend=copy_backend, strict=strict_locale)
    asked = parse_sizes([*([size] if size is not None else []), *(sizes or [])])
    pipe = Pipeline.default(
        template=template,
        out_dir=out_dir,
        ocr=ocr,
        copy_backend=copy_backend,
        about=about,
        copy=copy,
    )
    return _run_at_sizes(
        pipe, frame, asked, out_dir, variants, executor, progress=progress, write_table=write_table
    )


def _input_frame(
    source: str | Path | pd.DataFrame | Sequence[str | Path | bytes] | None,
    *,
    locale: str | None,
    about: str | None,
    project_name: str | None,
    bundle_id: str | None,
    screens: Sequence[str] | None,
    images_base64: Sequence[str] | None,
    devices: Sequence[str] | str | None,
) -> pd.DataFrame:
    """The screens read (or the frame given), in the set's locale (checked), with the
    user's ``about`` (recorded in design.json with the copy)."""
    if locale is not None:
        locale = check_locale(locale)
    if isinstance(source, pd.DataFrame):
        frame = source if locale is None else source.assign(**{C.LOCALE: locale})
    else:
        frame = read_screenshots(
            source,
            project_name=project_name,
            bundle_id=bundle_id,
            screens=screens,
            images_base64=images_base64,
            devices=devices,
            locale=locale,
        )
    return frame if about is None else frame.assign(**{C.ABOUT: about})


def _checked_copy(
    frame: pd.DataFrame,
    copy: str | Path | pd.DataFrame | None,
    source: object,
    *,
    copy_backend: str,
    strict: bool,
) -> pd.DataFrame | None:
    """The user's own captions read (a bad file fails before any pixel is read), and the
    set's screens without copy in its language named (an error when ``strict``), unless a
    language model writes the copy."""
    if copy is not None and not isinstance(copy, pd.DataFrame):
        copy = read_user_copy(copy)
    if not (copy_backend in ("llm", "auto") and LLMConfig.from_env() is not None):
        place = source if isinstance(source, str | Path) else "FOLDER"
        check_copy_language(frame, copy, source=str(place), strict=strict)
    return copy


def _run_at_sizes(
    pipe: Pipeline,
    frame: pd.DataFrame,
    asked: Sequence[StoreSize],
    out_dir: str | Path | None,
    variants: int,
    executor: Executor | None,
    *,
    progress: bool | Callable[[dict[str, Any]], None],
    write_table: bool,
) -> pd.DataFrame:
    """Run the pipeline over the frame: in one go for one size and one set that nobody
    follows, else stage by stage at each size, telling ``progress``. ``pipe`` lays out at
    the device's own size into ``out_dir``."""
    report = _reporter(progress, len(frame) * max(1, len(asked)) * variants)
    if len(asked) <= 1 and report is None and variants == 1:
        if asked:
            pipe.set_params(
                plan_layout__size=asked[0].name, render__out_dir=_size_folder(out_dir, asked[0])
            )
        result = pipe.run(frame, executor=executor, keep_intermediates=False).output
        folder = _size_folder(out_dir, asked[0] if asked else None)
        if write_table and folder is not None:
            write_report(result, folder)
        return result
    try:
        results = _run_each_size(
            pipe,
            frame,
            asked,
            out_dir=out_dir,
            variants=variants,
            executor=executor,
            report=report,
            write_table=write_table,
        )
    finally:
        if report is not None:
            report({"event": "close"})
    return pd.concat(results, ignore_index=True) if len(results) > 1 else results[0]


def _run_each_size(
    pipe: Pipeline,
    frame: pd.DataFrame,
    asked: Sequence[StoreSize],
    *,
    out_dir: str | Path | None,
    variants: int,
    executor: Executor | None,
    report: Callable[[dict[str, Any]], None] | None,
    write_table: bool,
) -> list[pd.DataFrame]:
    """Read and caption the screens once, then lay out and render them at each asked size
    (the device's own when none), each variant of each, into its own folder."""
    from .variants import design_variants

    head, (plan, draw) = Pipeline(pipe.steps[:-2]), pipe.steps[-2:]
    frame = _run_reported(head, frame, executor, report)
    results = []
    runs: list[StoreSize | None] = [*asked] if asked else [None]
    for each in runs:
        folder = _size_folder(out_dir, each)
        sized = Step(plan.name, plan.fn, {**plan.options, "size": each and each.name})
        drawn = Step(draw.name, draw.fn, {**draw.options, "out_dir": folder})
        if variants > 1:
            results.append(
                design_variants(
                    frame,
                    sized,
                    drawn,
                    variants,
                    folder=folder,
                    run=lambda steps, rows: _run_reported(Pipeline(steps), rows, executor, report),
                    write=write_report if write_table else None,
                )
            )
            continue
        result = _run_reported(Pipeline([sized, drawn]), frame, executor, report)
        if write_table and folder is not None:
            write_report(result, folder)
        results.append(result)
    return results


def _size_folder(out_dir: str | Path | None, size: Any) -> Path | None:
    """Where one asked-for size goes: ``out_dir/<size>/`` (the device's own size, asked
    for by nobody, goes to ``out_dir`` itself)."""
    if out_dir is None:
        return None
    return Path(out_dir) / size.label if size is not None else Path(out_dir)


def _run_reported(
    pipe: Pipeline,
    frame: pd.DataFrame,
    executor: Executor | None,
    report: Callable[[dict[str, Any]], None] | None,
) -> pd.DataFrame:
    """Run a pipeline; with ``report``, stage by stage, telling it each stage and each
    screenshot rendered (without an executor: in this process, where someone waits)."""
    if report is None or executor is not None:
        return pipe.run(frame, executor=executor, keep_intermediates=False).output
    pipe.validate(frame)
    for step in pipe.steps:
        report({"event": "stage", "stage": step.name, "screenshots": len(frame)})
        if step.fn is render:
            step = Step(step.name, step.fn, {**step.options, "on_rendered": report})
            frame = step(frame)
            continue
        with listening(_step_reporter(report, step.name, len(frame))):
            frame = step(frame)
    return frame


def _step_reporter(
    report: Callable[[dict[str, Any]], None], stage: str, total: int
) -> Callable[[int], None]:
    """A listener telling ``report`` how far a stage is: ``{"event": "screenshots",
    "stage", "done", "screenshots"}`` as each screenshot (or chunk of them) is done."""
    done = 0

    def heard(screenshots: int) -> None:
        nonlocal done
        if screenshots > 0:
            done = min(total, done + screenshots)
            report({"event": "screenshots", "stage": stage, "done": done, "screenshots": total})

    return heard


def _reporter(
    progress: bool | Callable[[dict[str, Any]], None] | None, total: int
) -> Callable[[dict[str, Any]], None] | None:
    """``progress`` as a callable: given, a tqdm bar over ``total`` screenshots, or None."""
    if callable(progress):
        return progress
    if not progress:
        return None
    meter = bar(total=total, unit="screenshot", desc="design")

    def report(event: dict[str, Any]) -> None:
        if event["event"] == "stage":
            meter.set_description_str(event["stage"], refresh=True)
        elif event["event"] == "screenshots":
            meter.set_postfix_str(f"{event['done']}/{event['screenshots']}", refresh=True)
        elif event["event"] == "rendered":
            if meter.postfix:
                meter.set_postfix_str("", refresh=False)
            meter.update(1)
        elif event["event"] == "close":
            meter.set_description_str("done", refresh=False)
            meter.close()

    return report

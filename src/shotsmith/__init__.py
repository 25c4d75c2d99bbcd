"""shotsmith: raw app screenshots in, store-ready marketing screenshots out.

Every stage is a function ``frame -> frame`` over a pandas DataFrame with one row
per screenshot::

    import shotsmith as ss
    shots = ss.read_screenshots("sample_inputs/pocket-budget")
    designed = (shots.pipe(ss.detect_domain).pipe(ss.extract_features).pipe(ss.write_copy)
                     .pipe(ss.plan_layout, template="default").pipe(ss.render, out_dir="out"))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

# Public names and the module each lives in. Importing shotsmith loads none of them:
# a name's module is imported the first time the name is used (PEP 562), so
# ``import shotsmith`` stays cheap and has no side effects (benchmarks/import_time.py).
_EXPORTS: dict[str, str] = {
    "columns": ".columns",
    "STAGES": ".columns",
    "read_manifest": ".batch",
    "run_batch": ".batch",
    "write_manifest": ".batch",
    "InputImageError": ".errors",
    "MissingColumnError": ".errors",
    "ShotsmithError": ".errors",
    "TemplateError": ".errors",
    "open_image": ".io",
    "LLMConfig": ".llm",
    "LocalSite": ".stages.capture.localsite",
    "serve_folder": ".stages.capture.localsite",
    "LayoutTuner": ".notebook",
    "LocalServer": ".server.local",
    "scene_table": ".notebook",
    "show": ".notebook",
    "show_scene": ".notebook",
    "show_set": ".notebook",
    "show_variants": ".notebook",
    "start_server": ".server.local",
    "Pipeline": ".pipeline",
    "PipelineRun": ".pipeline",
    "design": ".pipeline",
    "report": ".pipeline",
    "write_report": ".pipeline",
    "Scene": ".scene",
    "capture": ".stages.capture",
    "capture_report": ".stages.capture",
    "concat_sets": ".stages.read",
    "read_screenshots": ".stages.read",
    "write_copy": ".stages.copy",
    "detect_domain": ".stages.domain",
    "extract_features": ".stages.features",
    "available_templates": ".stages.layout",
    "load_template": ".stages.layout",
    "plan_layout": ".stages.layout",
    "render": ".stages.render",
    "render_scene": ".stages.render",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'shotsmith' has no attribute {name!r}")
    loaded = importlib.import_module(module, __name__)
    from . import accessor  # noqa: F401  (frame.shotsmith, with the first public name used)

    if name == "STAGES":
        from .columns import load_stages

        load_stages()  # every stage's contract, not only the ones imported so far
    value = loaded if name == module.lstrip(".") else getattr(loaded, name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:  # what editors and type checkers see
    from . import columns
    from .batch import read_manifest, run_batch, write_manifest
    from .columns import STAGES
    from .errors import InputImageError, MissingColumnError, ShotsmithError, TemplateError
    from .io import open_image
    from .llm import LLMConfig
    from .notebook import LayoutTuner, scene_table, show, show_scene, show_set, show_variants
    from .pipeline import Pipeline, PipelineRun, design, report, write_report
    from .scene import Scene
    from .server.local import LocalServer, start_server
    from .stages.capture import capture, capture_report
    from .stages.capture.localsite import LocalSite, serve_folder
    from .stages.copy import write_copy
    from .stages.domain import detect_domain
    from .stages.features import extract_features
    from .stages.layout import available_templates, load_template, plan_layout
    from .stages.read import concat_sets, read_screenshots
    from .stages.render import render, render_scene

__all__ = [
    "STAGES",
    "__version__",
    "InputImageError",
    "LLMConfig",
    "LayoutTuner",
    "LocalSite",
    "LocalServer",
    "MissingColumnError",
    "Pipeline",
    "PipelineRun",
    "Scene",
    "ShotsmithError",
    "TemplateError",
    "available_templates",
    "capture",
    "capture_report",
    "columns",
    "concat_sets",
    "design",
    "detect_domain",
    "extract_features",
    "load_template",
    "open_image",
    "plan_layout",
    "read_manifest",
    "read_screenshots",
    "render",
    "render_scene",
    "report",
    "run_batch",
    "scene_table",
    "serve_folder",
    "show",
    "show_scene",
    "show_set",
    "show_variants",
    "start_server",
    "write_copy",
    "write_manifest",
    "write_report",
]

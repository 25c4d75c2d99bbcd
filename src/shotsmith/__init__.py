"""shotsmith: raw app screenshots in, store-ready marketing screenshots out.

Every stage is a function ``frame -> frame`` over a pandas DataFrame with one row
per screenshot::

    import shotsmith as ss
    shots = ss.read_screenshots("sample_inputs/pocket-budget")
    designed = (shots.pipe(ss.detect_domain).pipe(ss.extract_features).pipe(ss.write_copy)
                     .pipe(ss.plan_layout, template="default").pipe(ss.render, out_dir="out"))
"""

from . import columns
from .batch import read_manifest, run_batch, write_manifest
from .columns import STAGES
from .errors import InputImageError, MissingColumnError, ShotsmithError, TemplateError
from .io import concat_sets, open_image, read_screenshots
from .llm import LLMConfig
from .localsite import LocalSite, serve_folder
from .notebook import (
    LayoutTuner,
    LocalServer,
    scene_table,
    show,
    show_scene,
    show_set,
    start_server,
)
from .pipeline import Pipeline, PipelineRun, design, report, write_report
from .scene import Scene
from .stages.capture import capture, capture_report
from .stages.copywriting import write_copy
from .stages.domain import detect_domain
from .stages.features import extract_features
from .stages.layout import available_templates, load_template, plan_layout
from .stages.render import render, render_scene

__version__ = "0.1.0"

__all__ = [
    "STAGES",
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
    "start_server",
    "write_copy",
    "write_manifest",
    "write_report",
]

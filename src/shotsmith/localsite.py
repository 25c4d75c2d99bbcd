"""Moved to :mod:`shotsmith.stages.capture.localsite`; this name keeps old imports working."""

from .stages.capture.localsite import LocalSite, serve_folder

__all__ = ["LocalSite", "serve_folder"]

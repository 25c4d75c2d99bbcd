"""Hand-off to the stores: fastlane folders, and a check against the stores' rules."""

from __future__ import annotations

from .fastlane import Exported, export_fastlane
from .rules import Problem
from .validate import validate

__all__ = ["Exported", "Problem", "export_fastlane", "validate"]

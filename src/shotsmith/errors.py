"""One error base class for everything shotsmith raises on purpose."""

from __future__ import annotations


class ShotsmithError(Exception):
    """Base class: the message says what was wrong and what to do about it."""


class InputImageError(ShotsmithError):
    """A raw screenshot could not be read (not a PNG, truncated, too large...)."""


class MissingColumnError(ShotsmithError):
    """A stage was given a frame without a column it needs."""


class TemplateError(ShotsmithError):
    """A layout template is missing or malformed."""

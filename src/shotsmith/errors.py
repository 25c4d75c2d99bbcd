"""Every exception shotsmith raises on purpose, in one place.

Each class has shotsmith's base (catch ``ShotsmithError`` for "anything shotsmith refused")
and the builtin a caller would expect (``except ValueError`` still catches a bad option, as
in pandas' ``pandas.errors`` and scikit-learn's ``InvalidParameterError``). Messages say
what was wrong and what to do next. The server maps these classes to HTTP statuses once
(``server/errors.py``); the CLI prints the message and exits non-zero.
"""

from __future__ import annotations


class ShotsmithError(Exception):
    """Base class: the message says what was wrong and what to do about it."""


class InvalidOptionError(ShotsmithError, ValueError):
    """An argument or option has a value shotsmith cannot use (a size, a locale, a count)."""


class InputImageError(ShotsmithError, ValueError):
    """A raw screenshot could not be read (not a PNG, truncated, too large...)."""


class InputFileError(ShotsmithError, ValueError):
    """A file the user gave is unreadable or malformed (a manifest, a copy CSV, a strings file)."""


class MissingColumnError(ShotsmithError, KeyError):
    """A stage was given a frame without a column it needs."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class DomainOptionError(InvalidOptionError):
    """An option of detect_domain is out of range."""


class DomainModelError(ShotsmithError, RuntimeError):
    """The shipped domain model is missing, damaged or does not match its featuriser."""


class TemplateError(ShotsmithError, ValueError):
    """A layout template is missing or malformed."""


class CopyError(ShotsmithError, RuntimeError):
    """Captions could not be written within the rules (too few distinct lines for a set)."""


class DeviceError(ShotsmithError, LookupError):
    """A device id or store size that shotsmith does not know."""


class CaptureError(ShotsmithError, RuntimeError):
    """A web app could not be captured (unreachable, a sign-in wall, no browser)."""


class ToolMissingError(ShotsmithError, RuntimeError):
    """A program or package shotsmith needs is not installed (Chromium, Tesseract, extras)."""


class OCRUnavailableError(ToolMissingError):
    """OCR was required but the tesseract program is not installed."""


class StoreRuleError(ShotsmithError, ValueError):
    """A set breaks an App Store or Google Play rule (size, count, alpha)."""


class StorageError(ShotsmithError, OSError):
    """The server's data folder or database cannot be used."""


class ConflictError(ShotsmithError, RuntimeError):
    """The request clashes with what exists (a project id taken, work still running)."""


class NotFoundError(ShotsmithError, LookupError):
    """A job, collection, project or file that does not exist."""


class RemoteError(ShotsmithError, RuntimeError):
    """A shotsmith server or an LLM endpoint answered something unusable."""


class LLMError(RemoteError):
    """The LLM could not be used; ``short`` is a one-line reason for a status column."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.short = " ".join(str(reason).split())[:120]


class LLMRejected(LLMError):
    """The LLM answered, but its copy broke a rule or claimed something not on the screens."""


class ApiError(RemoteError):
    """An error response (or no response) from a shotsmith server, as
    :class:`shotsmith.client.Client` reports it: the HTTP ``status`` (0: no answer), the
    server's error ``code`` and ``message``, and ``retry_after`` seconds when it said."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None):
        super().__init__(f"{message} (HTTP {status}, {code})" if status else message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class JobTimeout(ShotsmithError, TimeoutError):
    """``Client.wait`` (or ``wait_collection``) gave up before the job finished."""

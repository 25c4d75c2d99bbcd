"""Pydantic models of the /v1 bodies, for the OpenAPI document.

Requests are validated by hand in :mod:`.validation` (so limits are checked in a
sensible order, before any image is decoded, and every message says what to fix);
these models describe the same rules for /openapi.json and /docs. Both read the limits
and patterns from :mod:`.limits`, and the validation takes the field names from here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..stages.capture import CAPTURE_DEVICES
from .limits import (
    BASE64_PATTERN,
    BUNDLE_ID_PATTERN,
    DEVICE_SIZE_PATTERN,
    DEVICES,
    LOCALE_PATTERN,
    MAX_DEVICE_SIZES,
    MAX_IMAGES,
    MAX_NAME,
    MAX_SCREEN,
    MAX_URL,
    TEMPLATES,
    TEXT_PATTERN,
    WEBHOOK_URL_PATTERN,
)

#: A 6x13 PNG, so that the documented example is a request the server accepts.
EXAMPLE_PNG_BASE64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAYAAAANCAIAAAAFaYjcAAAAFUlEQVR42mPUiFrAgAqYGDD"
    "AsBMCACKjATzxRv4qAAAAAElFTkSuQmCC"
)

Device = Literal[DEVICES]  # type: ignore[valid-type]
Template = Literal[TEMPLATES]  # type: ignore[valid-type]


class DesignImage(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DesignImage")

    data: str = Field(
        min_length=1,
        pattern=BASE64_PATTERN,
        description="The PNG file's bytes, standard base64 (a `data:image/png;"
        "base64,` prefix and line breaks are accepted). At most 10 MiB "
        "decoded; any PNG colour type and bit depth.",
        examples=[EXAMPLE_PNG_BASE64],
    )
    screen: str = Field(
        min_length=1,
        max_length=MAX_SCREEN,
        pattern=TEXT_PATTERN,
        description="Screen name, e.g. `home` or `settings` (not blank, no control characters).",
        examples=["home"],
    )
    device: Device | None = Field(
        None,
        description="Device of the raw screenshot; v1 supports only `iphone-16-pro` (default).",
    )


class DesignJobCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        title="DesignJobCreate",
        json_schema_extra={
            "examples": [
                {
                    "images": [{"data": EXAMPLE_PNG_BASE64, "screen": "home"}],
                    "project_name": "Pocket Budget",
                    "bundle_id": "com.example.pocketbudget",
                }
            ]
        },
    )

    images: list[DesignImage] = Field(
        min_length=1, max_length=MAX_IMAGES, description="Raw screenshots in store order, 1 to 10."
    )
    project_name: str = Field(
        min_length=1,
        max_length=MAX_NAME,
        pattern=TEXT_PATTERN,
        description="The app's name; drives the tagline and design (not blank, no control "
        "characters).",
    )
    bundle_id: str | None = Field(
        None,
        max_length=155,
        pattern=BUNDLE_ID_PATTERN,
        description="Reverse-domain bundle id, e.g. `com.example.app`; leave it out (or null) "
        "when the app has none.",
    )
    template: Template | None = Field(
        None, description="Design template; v1 supports only `default` (the default)."
    )
    webhook_url: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_URL,
        pattern=WEBHOOK_URL_PATTERN,
        json_schema_extra={"format": "uri"},
        description="Absolute http(s) URL that receives one POST when the job completes or "
        "fails. It must reach a public internet address: loopback, private, link-local, "
        "multicast and reserved addresses (in any spelling, or a name resolving to one at "
        "delivery) and this server itself are refused (422 `invalid_webhook_url`).",
    )


class DesignJobCreated(BaseModel):
    model_config = ConfigDict(title="DesignJobCreated")

    job_id: str
    status: Literal["queued"]
    poll_url: str = Field(description="Absolute URL of GET /v1/design/{job_id}.")


class DesignJobPending(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DesignJobPending")

    job_id: str
    status: Literal["queued", "processing"]
    created_at: str = Field(description="ISO 8601 UTC, e.g. `2025-01-31T12:00:00.000Z`.")
    project_name: str
    input_count: int


class DesignJobCompleted(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DesignJobCompleted")

    job_id: str
    status: Literal["completed"]
    created_at: str
    completed_at: str
    project_name: str
    input_count: int
    output_urls: list[str] = Field(
        description="Absolute capability URLs of the PNGs, in "
        "store order; fetchable without the API key."
    )


class DesignJobFailed(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DesignJobFailed")

    job_id: str
    status: Literal["failed"]
    created_at: str
    project_name: str
    input_count: int
    error: str = Field(description="What went wrong, as text.")


DesignJob = Annotated[
    DesignJobPending | DesignJobCompleted | DesignJobFailed, Field(discriminator="status")
]


class Health(BaseModel):
    status: Literal["ok"]


# --- screenshot collections ------------------------------------------------------------------

Platform = Literal["ios", "android"]
CollectionStatus = Literal["capturing", "processing", "completed", "failed"]
#: Every device size the collection endpoint takes, plain ("6.9") or qualified ("ios:6.9").
DEVICE_SIZES = tuple(
    dict.fromkeys(
        [size for table in CAPTURE_DEVICES.values() for size in table]
        + [f"{platform}:{size}" for platform, table in CAPTURE_DEVICES.items() for size in table]
    )
)
DeviceSize = Annotated[
    Literal[DEVICE_SIZES],  # type: ignore[valid-type]
    Field(pattern=DEVICE_SIZE_PATTERN, examples=["6.9"]),
]


class CollectionCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        title="CollectionCreate",
        json_schema_extra={
            "examples": [{"platforms": ["ios"], "device_sizes": ["6.9"], "locale": "en-US"}]
        },
    )

    platforms: list[Platform] | None = Field(
        None, min_length=1, max_length=2, description="Target platforms (default: the project's)."
    )
    device_sizes: list[DeviceSize] | None = Field(
        None,
        min_length=1,
        max_length=MAX_DEVICE_SIZES,
        description="Display classes in inches as text: iOS 6.9, 6.5, 6.3, 6.1, 5.5, 13, 11; "
        'Android 6.3, 6.7, 6.8. Qualify as "android:6.3" when platforms differ. '
        "Default: the required sizes (iOS 6.9, Android 6.3); for a project whose "
        "source is a folder, the sizes its screenshots have.",
    )
    locale: str | None = Field(
        None,
        pattern=LOCALE_PATTERN,
        examples=["en-US"],
        description="BCP 47 locale (default: the project's).",
    )


class CollectionCreated(BaseModel):
    model_config = ConfigDict(title="CollectionCreated")

    collectionId: str  # the API's (camelCase) field names
    status: Literal["capturing"]


class CollectionSummary(BaseModel):
    model_config = ConfigDict(extra="forbid", title="CollectionSummary")

    collectionId: str
    status: CollectionStatus
    createdAt: str
    screenshotCount: int = Field(
        description="Screenshots captured so far (once completed, "
        "the styled ones: the same number)."
    )
    platforms: list[Platform]
    locale: str


class CollectionList(BaseModel):
    model_config = ConfigDict(extra="forbid", title="CollectionList")

    collections: list[CollectionSummary]


class RawScreenshot(BaseModel):
    model_config = ConfigDict(extra="forbid", title="RawScreenshot")

    id: str
    device: str = Field(description="Device id, e.g. `iphone-16-pro-max`.")
    url: str = Field(description="Absolute capability URL of the PNG (no API key needed).")
    step: int = Field(description="1-based position in store order, per device.")
    locale: str


class StyledScreenshot(RawScreenshot):
    model_config = ConfigDict(extra="forbid", title="StyledScreenshot")

    headline: str
    subtitle: str


class CollectionBody(BaseModel):
    model_config = ConfigDict(extra="forbid", title="CollectionBody")

    id: str
    name: str
    status: CollectionStatus
    devices: list[str]
    totalScreenshots: int
    createdAt: str
    completedAt: str | None = Field(None, description="Present when completed.")
    screenshots: list[RawScreenshot]
    generatedScreenshots: list[StyledScreenshot]
    error: str | None = Field(None, description="Present when failed: what went wrong, as text.")


class CollectionDetail(BaseModel):
    model_config = ConfigDict(extra="forbid", title="CollectionDetail")

    collection: CollectionBody

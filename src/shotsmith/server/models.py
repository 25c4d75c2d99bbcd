"""Pydantic models of the /v1 bodies, for the OpenAPI document.

Requests are validated by hand in :mod:`.validation` (so limits are checked in a
sensible order, before any image is decoded, and every message says what to fix);
these models describe the same rules for /openapi.json and /docs.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .validation import (
    BUNDLE_ID_PATTERN,
    DEVICES,
    MAX_IMAGES,
    MAX_NAME,
    MAX_SCREEN,
    MAX_URL,
    TEMPLATES,
)

#: A 6x13 PNG, so that the documented example is a request the server accepts.
EXAMPLE_PNG_BASE64 = ("iVBORw0KGgoAAAANSUhEUgAAAAYAAAANCAIAAAAFaYjcAAAAFUlEQVR42mPUiFrAgAqYGDD"
                      "AsBMCACKjATzxRv4qAAAAAElFTkSuQmCC")

Device = Literal[DEVICES]  # type: ignore[valid-type]
Template = Literal[TEMPLATES]  # type: ignore[valid-type]


class DesignImage(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DesignImage")

    data: str = Field(description="The PNG file's bytes, standard base64 (a `data:image/png;"
                                  "base64,` prefix and line breaks are accepted). At most 10 MiB "
                                  "decoded.", examples=[EXAMPLE_PNG_BASE64])
    screen: str = Field(min_length=1, max_length=MAX_SCREEN,
                        description="Screen name, e.g. `home` or `settings`.", examples=["home"])
    device: Device | None = Field(None, description="Device of the raw screenshot; "
                                                    "v1 supports only `iphone-16-pro` (default).")


class DesignJobCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid", title="DesignJobCreate",
        json_schema_extra={"examples": [{
            "images": [{"data": EXAMPLE_PNG_BASE64, "screen": "home"}],
            "project_name": "Pocket Budget", "bundle_id": "com.example.pocketbudget"}]})

    images: list[DesignImage] = Field(min_length=1, max_length=MAX_IMAGES,
                                      description="Raw screenshots in store order, 1 to 10.")
    project_name: str = Field(min_length=1, max_length=MAX_NAME,
                              description="The app's name; drives the tagline and design.")
    bundle_id: str | None = Field(None, max_length=155, pattern=BUNDLE_ID_PATTERN,
                                  description="Reverse-domain bundle id, "
                                              "e.g. `com.example.app`.")
    template: Template | None = Field(None, description="Design template; v1 supports only "
                                                        "`default` (the default).")
    webhook_url: str | None = Field(None, max_length=MAX_URL,
                                    json_schema_extra={"format": "uri"},
                                    description="Absolute http(s) URL that receives one POST "
                                                "when the job completes or fails.")


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
    output_urls: list[str] = Field(description="Absolute capability URLs of the PNGs, in "
                                               "store order; fetchable without the API key.")


class DesignJobFailed(BaseModel):
    model_config = ConfigDict(extra="forbid", title="DesignJobFailed")

    job_id: str
    status: Literal["failed"]
    created_at: str
    project_name: str
    input_count: int
    error: str = Field(description="What went wrong, as text.")


DesignJob = Annotated[DesignJobPending | DesignJobCompleted | DesignJobFailed,
                      Field(discriminator="status")]


class Health(BaseModel):
    status: Literal["ok"]

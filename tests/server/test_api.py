"""The /v1 design-job API in process (TestClient): happy path, fields per state, auth,
404s, every validation refusal, body limits, rate limits, the OpenAPI document."""

from __future__ import annotations

import base64
import io
import os
import re
import struct
import time
import zlib

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from shotsmith.server.app import create_app
from shotsmith.server.limits import MAX_BODY_BYTES

from .conftest import (
    KEY_A,
    KEY_B,
    auth,
    b64,
    check_store_png,
    design_body,
    output_name,
    real_screens,
    small_png,
    wait_finished,
)

ISO_Z = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$"


def test_happy_path_real_pngs(client):
    body = design_body(3, small=False, bundle_id="com.example.pocketbudget")
    r = client.post("/v1/design", json=body, headers=auth())
    assert r.status_code == 202, r.text
    created = r.json()
    assert set(created) == {"job_id", "status", "poll_url"}
    assert created["status"] == "queued"
    assert created["poll_url"] == f"http://testserver/v1/design/{created['job_id']}"
    assert r.headers["location"] == created["poll_url"]

    first = client.get(created["poll_url"], headers=auth()).json()
    assert first["status"] in ("queued", "processing", "completed")
    if first["status"] != "completed":
        assert list(first) == ["job_id", "status", "created_at", "project_name", "input_count"]

    job = wait_finished(client.get, created["job_id"])
    assert job["status"] == "completed", job
    assert list(job) == [
        "job_id",
        "status",
        "created_at",
        "completed_at",
        "project_name",
        "input_count",
        "output_urls",
    ]
    assert job["project_name"] == "Pocket Budget" and job["input_count"] == 3
    assert re.match(ISO_Z, job["created_at"]) and re.match(ISO_Z, job["completed_at"])
    assert job["completed_at"] >= job["created_at"]
    assert len(job["output_urls"]) == 3
    names = [u.rsplit("/", 1)[-1] for u in job["output_urls"]]
    assert names == [
        output_name(i, n) for i, (n, _) in enumerate(real_screens(3), start=1)
    ]  # store order
    for url in job["output_urls"]:
        assert url.startswith("http://testserver/v1/files/")
        assert created["job_id"] not in url  # not guessable from the job id
        r = client.get(url)  # no API key: capability URL
        assert r.status_code == 200 and r.headers["content-type"] == "image/png"
        check_store_png(r.content)


def test_data_url_prefix_and_line_breaks_are_accepted(client):
    data = b64(small_png())
    wrapped = "\n".join(data[i : i + 76] for i in range(0, len(data), 76))
    body = {
        "project_name": "Wrapped",
        "images": [
            {"data": "data:image/png;base64," + data, "screen": "home", "device": "iphone-16-pro"},
            {"data": wrapped, "screen": "search"},
        ],
        "template": "default",
        "bundle_id": None,
        "webhook_url": None,
    }
    r = client.post("/v1/design", json=body, headers=auth())
    assert r.status_code == 202, r.text
    assert wait_finished(client.get, r.json()["job_id"])["status"] == "completed"


# --- auth and 404 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer wrong-key-0123456789"},
        {"Authorization": f"Basic {KEY_A}"},
        {"Authorization": "Bearer "},
        {"Authorization": KEY_A},
    ],
)
def test_401_without_a_valid_key(client, store, headers):
    before = store.count_jobs()
    for method, path in (("POST", "/v1/design"), ("GET", "/v1/design/job_x")):
        r = client.request(method, path, headers=headers, json=design_body())
        assert r.status_code == 401
        assert r.headers["www-authenticate"] == "Bearer"
        assert r.json()["error"]["code"] == "unauthorized"
        assert "Bearer" in r.json()["error"]["message"]
    assert store.count_jobs() == before


def test_healthz_needs_no_key(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_404_unknown_job_and_another_keys_job(client):
    r = client.get("/v1/design/job_doesnotexist", headers=auth())
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "job_not_found"
    created = client.post("/v1/design", json=design_body(), headers=auth(KEY_A)).json()
    r = client.get(f"/v1/design/{created['job_id']}", headers=auth(KEY_B))
    assert r.status_code == 404 and r.json()["error"]["code"] == "job_not_found"
    assert client.get(f"/v1/design/{created['job_id']}", headers=auth(KEY_A)).status_code == 200


def test_404s_for_files_and_routes(client):
    r = client.get("/v1/files/" + "x" * 32 + "/01_home.png")
    assert r.status_code == 404 and r.json()["error"]["code"] == "file_not_found"
    job = wait_finished(
        client.get, client.post("/v1/design", json=design_body(), headers=auth()).json()["job_id"]
    )
    url = job["output_urls"][0]
    assert client.get(url.rsplit("/", 1)[0] + "/02_other.png").status_code == 404
    assert client.get(url.rsplit("/", 1)[0] + "/..%2F..%2Fshotsmith.db").status_code == 404
    r = client.get("/v1/nothing-here", headers=auth())
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = client.put("/v1/design", headers=auth())
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


# --- validation ------------------------------------------------------------------------------


def _png_with_ihdr(width: int, height: int) -> bytes:
    good = small_png()
    ihdr = struct.pack(">II", width, height) + good[24:29]
    crc = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    return good[:16] + ihdr + crc + good[33:]


def _corrupt_png() -> bytes:
    data = bytearray(small_png())
    idat = data.index(b"IDAT")
    for i in range(idat + 8, min(idat + 40, len(data) - 12)):
        data[i] ^= 0x5A
    return bytes(data)


def _jpeg() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 80), (200, 10, 10)).save(buf, "JPEG")
    return buf.getvalue()


def _img(data, screen="home", **extra):
    return {"data": data, "screen": screen, **extra}


def cases():
    good = b64(small_png())
    ok = {"project_name": "App", "images": [_img(good)]}
    return [
        # (id, body or raw bytes, status, code, text the message must contain)
        ("not-json", b"{not json", 400, "invalid_json", "not valid JSON"),
        ("empty-body", b"", 400, "invalid_json", "empty"),
        ("json-array", b"[1, 2]", 400, "invalid_body", "JSON object"),
        ("json-string", b'"hello"', 400, "invalid_body", "JSON object"),
        ("bad-utf8", b'{"project_name": "\xff"}', 400, "invalid_json", "JSON"),
        ("deep-nesting", b"[" * 100_000 + b"]" * 100_000, 400, "invalid_json", "JSON"),
        ("no-images", {"project_name": "App"}, 422, "missing_field", "images is required"),
        ("empty-images", {**ok, "images": []}, 422, "no_images", "1 to 10"),
        (
            "eleven-images",
            {**ok, "images": [_img(good)] * 11},
            422,
            "too_many_images",
            "at most 10",
        ),
        ("images-not-array", {**ok, "images": "abc"}, 422, "invalid_type", "array"),
        ("image-not-object", {**ok, "images": ["abc"]}, 422, "invalid_type", "images[0]"),
        (
            "missing-screen",
            {**ok, "images": [{"data": good}]},
            422,
            "missing_field",
            "images[0].screen",
        ),
        (
            "empty-screen",
            {**ok, "images": [_img(good, "  ")]},
            422,
            "missing_field",
            "images[0].screen",
        ),
        (
            "screen-number",
            {**ok, "images": [_img(good, 7)]},
            422,
            "invalid_type",
            "images[0].screen must be a string",
        ),
        (
            "missing-data",
            {**ok, "images": [{"screen": "home"}]},
            422,
            "missing_field",
            "images[0].data",
        ),
        ("data-number", {**ok, "images": [_img(12345)]}, 422, "invalid_type", "images[0].data"),
        ("missing-project", {"images": [_img(good)]}, 422, "missing_field", "project_name"),
        (
            "project-number",
            {**ok, "project_name": 42},
            422,
            "invalid_type",
            "project_name must be a string",
        ),
        ("project-null", {**ok, "project_name": None}, 422, "invalid_type", "project_name"),
        (
            "project-too-long",
            {**ok, "project_name": "x" * 500},
            422,
            "value_too_long",
            "project_name",
        ),
        (
            "bad-base64",
            {**ok, "images": [_img("not base64 at all!!")]},
            422,
            "invalid_base64",
            "base64",
        ),
        ("not-png", {**ok, "images": [_img(b64(_jpeg()))]}, 422, "invalid_image", "JPEG"),
        (
            "text-not-png",
            {**ok, "images": [_img(b64(b"hello world"))]},
            422,
            "invalid_image",
            "not a PNG",
        ),
        ("empty-image", {**ok, "images": [_img("")]}, 422, "invalid_image", "empty"),
        (
            "truncated-png",
            {**ok, "images": [_img(b64(small_png()[:60]))]},
            422,
            "invalid_image",
            "truncated",
        ),
        (
            "corrupt-png",
            {**ok, "images": [_img(b64(_corrupt_png()))]},
            422,
            "invalid_image",
            "images[0].data",
        ),
        (
            "absurd-dimensions",
            {**ok, "images": [_img(b64(_png_with_ihdr(100_000, 100_000)))]},
            422,
            "invalid_image",
            "100000x100000",
        ),
        (
            "second-image-bad",
            {**ok, "images": [_img(good), _img(b64(b"GIF89a...."), "x")]},
            422,
            "invalid_image",
            "images[1].data",
        ),
        (
            "device",
            {**ok, "images": [_img(good, device="pixel-9")]},
            422,
            "unsupported_device",
            "iphone-16-pro",
        ),
        (
            "device-number",
            {**ok, "images": [_img(good, device=3)]},
            422,
            "invalid_type",
            "images[0].device",
        ),
        ("template", {**ok, "template": "spotlight"}, 422, "unsupported_template", "default"),
        ("template-list", {**ok, "template": ["default"]}, 422, "invalid_type", "template"),
        (
            "webhook-ftp",
            {**ok, "webhook_url": "ftp://example.com/x"},
            422,
            "invalid_webhook_url",
            "http",
        ),
        (
            "webhook-relative",
            {**ok, "webhook_url": "/hooks/x"},
            422,
            "invalid_webhook_url",
            "webhook_url",
        ),
        ("webhook-no-host", {**ok, "webhook_url": "http://"}, 422, "invalid_webhook_url", "host"),
        (
            "webhook-bad-port",
            {**ok, "webhook_url": "http://example.com:99999/"},
            422,
            "invalid_webhook_url",
            "webhook_url",
        ),
        ("webhook-empty", {**ok, "webhook_url": ""}, 422, "invalid_webhook_url", "webhook_url"),
        ("webhook-number", {**ok, "webhook_url": 5}, 422, "invalid_type", "webhook_url"),
        (
            "bundle-id",
            {**ok, "bundle_id": "not a bundle id"},
            422,
            "invalid_bundle_id",
            "reverse-domain",
        ),
        ("unknown-field", {**ok, "projectName": "App"}, 422, "unknown_field", "projectName"),
        (
            "unknown-image-field",
            {**ok, "images": [_img(good, locale="en")]},
            422,
            "unknown_field",
            "images[0]",
        ),
        (
            "image-over-10mb",
            {**ok, "images": [_img(b64(os.urandom(10 * 2**20 + 1000)))]},
            413,
            "image_too_large",
            "10 MiB",
        ),
    ]


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_invalid_requests_are_refused_with_the_error_body(client, store, case):
    _, body, status, code, text = case
    before = store.count_jobs()
    if isinstance(body, bytes):
        r = client.post(
            "/v1/design", content=body, headers={**auth(), "Content-Type": "application/json"}
        )
    else:
        r = client.post("/v1/design", json=body, headers=auth())
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    payload = r.json()
    assert set(payload) == {"error"} and set(payload["error"]) == {"code", "message"}
    assert payload["error"]["code"] == code
    assert text in payload["error"]["message"]
    assert store.count_jobs() == before  # a refused request creates no job


def test_image_decoding_over_10_mib_is_413_even_if_the_base64_looks_small(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A], max_image_bytes=1000)
    client = TestClient(app)  # no lifespan: nothing renders, nothing needed
    r = client.post(
        "/v1/design",
        json={"project_name": "A", "images": [_img(b64(os.urandom(990)))]},
        headers=auth(),
    )
    assert r.status_code == 422  # 990 bytes: fine in size, but not a PNG
    r = client.post(
        "/v1/design",
        json={"project_name": "A", "images": [_img(b64(os.urandom(1200)))]},
        headers=auth(),
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "image_too_large"


def test_oversized_bodies_are_refused_before_reading(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A], max_body_bytes=50_000)
    client = TestClient(app)
    r = client.post(
        "/v1/design", content=b"x" * 60_000, headers={**auth(), "Content-Type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"

    read = []

    def chunks():  # chunked upload (no Content-Length): reading stops past the limit
        for _ in range(1000):
            read.append(1)
            yield b"x" * 10_000

    r = client.post(
        "/v1/design", content=chunks(), headers={**auth(), "Content-Type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    assert app.state.server.store.count_jobs() == 0
    assert MAX_BODY_BYTES > 10 * 4 * (10 * 2**20) // 3  # the default fits 10 maximal images


# --- rate limit ---------------------------------------------------------------------------------


def test_rate_limit_default_is_10_per_minute_per_key(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A, KEY_B])  # the real defaults
    client = TestClient(app)  # no lifespan: jobs stay queued, nothing renders
    assert client.post("/v1/design", json=design_body(), headers=auth()).status_code == 202
    for _ in range(9):  # invalid attempts count too
        assert client.post("/v1/design", json={}, headers=auth()).status_code == 422
    r = client.post("/v1/design", json=design_body(), headers=auth())
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "rate_limited"
    assert "10 design jobs per 60 s" in r.json()["error"]["message"]
    assert 1 <= int(r.headers["retry-after"]) <= 60
    # another key is not affected; polling is not counted
    assert client.post("/v1/design", json=design_body(), headers=auth(KEY_B)).status_code == 202
    assert client.get("/v1/design/job_x", headers=auth()).status_code == 404
    assert app.state.server.store.count_jobs() == 2


@pytest.mark.slow
def test_rate_limit_recovers_after_the_window(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A], rate_limit=2, rate_window=1.0)
    client = TestClient(app)
    for _ in range(2):
        assert client.post("/v1/design", json=design_body(), headers=auth()).status_code == 202
    r = client.post("/v1/design", json=design_body(), headers=auth())
    assert r.status_code == 429 and r.headers["retry-after"] == "1"
    time.sleep(float(r.headers["retry-after"]) + 0.05)
    assert client.post("/v1/design", json=design_body(), headers=auth()).status_code == 202


# --- OpenAPI --------------------------------------------------------------------------------------


def test_openapi_documents_routes_bodies_and_errors(client):
    doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    assert set(paths) == {
        "/healthz",
        "/v1/design",
        "/v1/design/{job_id}",
        "/v1/files/{token}/{name}",
        "/v1/projects/{project_id}/screenshots",
        "/v1/projects/{project_id}/screenshots/{collection_id}",
    }
    post = paths["/v1/design"]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/DesignJobCreate"
    )
    assert {"202", "400", "401", "413", "422", "429"} <= set(post["responses"])
    assert "Retry-After" in post["responses"]["429"]["headers"]
    get = paths["/v1/design/{job_id}"]["get"]
    assert {"200", "401", "404"} <= set(get["responses"])
    assert "422" not in get["responses"]
    assert get["security"] == [{"ApiKey": []}]
    assert "security" not in paths["/v1/files/{token}/{name}"]["get"]
    collections = paths["/v1/projects/{project_id}/screenshots"]
    assert collections["post"]["requestBody"]["required"] is False
    assert {"202", "401", "404", "422", "429"} <= set(collections["post"]["responses"])
    assert (
        "422"
        not in paths["/v1/projects/{project_id}/screenshots/{collection_id}"]["get"]["responses"]
    )
    schemas = doc["components"]["schemas"]
    assert "ErrorBody" in schemas and "HTTPValidationError" not in schemas
    assert schemas["DesignJobCreate"]["properties"]["images"]["maxItems"] == 10
    for path in paths.values():
        for op in path.values():
            for status, response in op["responses"].items():
                if status.startswith("4"):
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorBody")
    # the documented example is a request the server accepts
    example = schemas["DesignJobCreate"]["examples"][0]
    r = client.post("/v1/design", json=example, headers=auth())
    assert r.status_code == 202, r.text
    assert base64.b64decode(example["images"][0]["data"]).startswith(b"\x89PNG")

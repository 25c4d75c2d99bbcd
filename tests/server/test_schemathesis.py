"""Property-based tests from /openapi.json (schemathesis): whatever a client sends, the
server never answers 5xx, and its answers match what the document declares."""

from __future__ import annotations

import copy
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from shotsmith.server.app import create_app
from shotsmith.server.store import hash_key

from .conftest import KEY_A, auth

pytestmark = pytest.mark.slow

DATA_DIR = Path(tempfile.mkdtemp(prefix="shotsmith-schemathesis-"))
APP = create_app(
    DATA_DIR,
    api_keys=[KEY_A],
    workers=1,
    rate_limit=100_000,
    design_options={"ocr": False},
    max_active_collections=3,
)
# A project, so that collection requests get past the 404 and exercise validation. Its
# folder has no screenshots: collections created here fail at once (no Chromium, no
# rendering), which keeps the run bounded.
PROJECT = "schemathesis"
(DATA_DIR / "empty-source").mkdir()
APP.state.server.store.add_project(
    project_id=PROJECT,
    name="Schemathesis",
    platforms=["ios"],
    locale="en-US",
    source_url=None,
    source_dir=str(DATA_DIR / "empty-source"),
)


def _document() -> dict:
    """The app's document, with the project as the example of every project_id."""
    document = copy.deepcopy(APP.openapi())
    for path_item in document["paths"].values():
        for operation in path_item.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "project_id":
                    parameter["schema"]["examples"] = [PROJECT]
    return document


# The document is taken from the app object (no request), so collecting this module
# starts nothing; the first generated call starts the app's lifespan.
schema = schemathesis.openapi.from_dict(_document())
schema.app = APP


@pytest.fixture(scope="module", autouse=True)
def _end_app():
    yield
    try:  # schemathesis keeps the app's lifespan open until exit; end it (and its workers) now
        from schemathesis.python.asgi import shutdown_lifespans

        shutdown_lifespans()
    except Exception:  # pragma: no cover - an internal of schemathesis; exit cleans up too
        pass
    shutil.rmtree(DATA_DIR, ignore_errors=True)


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors_and_declared_responses(case):
    case.call_and_validate(
        headers=auth(),
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )


def test_the_collection_routes_were_exercised_on_a_real_project():
    """Guards the examples above: generated requests reached the project, not only 404s."""
    created = APP.state.server.store.list_collections(PROJECT, hash_key(KEY_A), limit=100)
    assert created, "no collection was created: the project_id example is not used"

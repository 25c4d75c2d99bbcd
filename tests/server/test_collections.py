"""Screenshot collections (spec 4.1-4.3): projects CLI, capture -> processing -> completed
against a real web app in a real ``shotsmith serve``, restart after kill -9 mid-capture,
every refusal, folder sources, failures, paging, and the client's parsing of both
documented response shapes."""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from shotsmith.client import ApiError, Client, parse_collection, parse_collection_summary
from shotsmith.errors import ShotsmithError
from shotsmith.server.app import create_app
from shotsmith.server.collections import CollectionRunner
from shotsmith.server.store import Store, hash_key
from shotsmith.stages.capture import serve_folder

from .conftest import (
    KEY_A,
    KEY_B,
    SAMPLES,
    LiveServer,
    auth,
    closed_port_url,
    run_cli,
)

pytestmark = pytest.mark.live_server

ISO_Z = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$"
DETAIL_KEYS = [
    "id",
    "name",
    "status",
    "devices",
    "totalScreenshots",
    "createdAt",
    "screenshots",
    "generatedScreenshots",
]
SUMMARY_KEYS = ["collectionId", "status", "createdAt", "screenshotCount", "platforms", "locale"]


# --- helpers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def webapp():
    """``sample_inputs/webapps/pocket-budget`` on a free local port; counts its requests."""
    with serve_folder(SAMPLES / "webapps" / "pocket-budget") as site:
        yield site


def png_info(data: bytes) -> tuple[str, tuple[int, int], str]:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.format, im.size, im.mode


def poll(
    get, path: str, key: str = KEY_A, timeout: float = 120.0, until=("completed", "failed")
) -> tuple[dict, list[str]]:
    """Poll a collection; (its last ``collection`` body, the statuses seen in order)."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = get(path, headers=auth(key))
        assert r.status_code == 200, r.text
        body = r.json()["collection"]
        if not seen or seen[-1] != body["status"]:
            seen.append(body["status"])
        if body["status"] in until:
            return body, seen
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {until} in {timeout} s (seen {seen})")


def db_row(data_dir: Path, collection_id: str) -> sqlite3.Row:
    with sqlite3.connect(f"file:{data_dir / 'shotsmith.db'}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(
            "SELECT * FROM collections WHERE collection_id = ?", (collection_id,)
        ).fetchone()


def add_project(data_dir: Path, project_id: str, *args: str) -> None:
    done = run_cli("projects", "add", "--data-dir", str(data_dir), "--id", project_id, *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == project_id


def error_of(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert list(body) == ["error"] and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code, body
    return body["error"]["message"]


# --- a real server, a real web app -----------------------------------------------------------


def test_live_collection_of_a_web_app(tmp_path, webapp, live_servers):
    data_dir = tmp_path / "data"
    add_project(
        data_dir,
        "pocket-budget",
        "--name",
        "Pocket Budget",
        "--platform",
        "ios",
        "--locale",
        "en-US",
        "--url",
        webapp.url,
        "--allow-private",
        "--bundle-id",
        "com.example.pb",
    )
    server = LiveServer(data_dir, keys=f"{KEY_A},{KEY_B}", workers=1)
    live_servers.append(server)
    http = server.http
    base = "/v1/projects/pocket-budget/screenshots"

    r = http.post(base, json={"device_sizes": ["6.9"]}, headers=auth())
    assert r.status_code == 202, r.text
    created = r.json()
    assert list(created) == ["collectionId", "status"] and created["status"] == "capturing"
    path = f"{base}/{created['collectionId']}"
    assert r.headers["location"] == server.url + path

    body, seen = poll(http.get, path)
    assert body["status"] == "completed", body
    assert seen[0] == "capturing" and seen[-1] == "completed"
    assert "processing" in seen and seen == sorted(
        seen, key=["capturing", "processing", "completed"].index
    )
    assert list(body) == DETAIL_KEYS[:6] + ["completedAt"] + DETAIL_KEYS[6:]
    assert body["id"] == created["collectionId"]
    assert body["name"] == "Pocket Budget (ios, en-US)"
    assert body["devices"] == ["iphone-16-pro-max"]
    assert re.match(ISO_Z, body["createdAt"]) and body["completedAt"] >= body["createdAt"]
    raws, styled = body["screenshots"], body["generatedScreenshots"]
    assert 4 <= len(raws) <= 6 and len(styled) == len(raws) == body["totalScreenshots"]
    assert [s["step"] for s in raws] == list(range(1, len(raws) + 1))
    for shot in raws:
        assert list(shot) == ["id", "device", "url", "step", "locale"]
        assert shot["url"].startswith(f"{server.url}/v1/files/") and shot["locale"] == "en-US"
        png = httpx.get(shot["url"], timeout=30)  # capability URL: no API key
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png_info(png.content) == ("PNG", (1320, 2868), "RGB")
    for shot in styled:
        assert list(shot) == ["id", "device", "url", "step", "locale", "headline", "subtitle"]
        # a subtitle nothing on its screen supports is left empty, never filler
        assert shot["headline"].strip() and isinstance(shot["subtitle"], str)
        assert png_info(httpx.get(shot["url"], timeout=30).content) == ("PNG", (1320, 2868), "RGB")
    assert len({s["url"] for s in raws + styled}) == 2 * len(raws)

    # the client: the same response, normalised; the list; another key sees nothing
    with Client(server.url, KEY_A) as api:
        got = api.get_collection("pocket-budget", created["collectionId"])
        assert got.status == "completed" and got.id == created["collectionId"]
        assert got.completed_at == body["completedAt"] and got.error is None
        assert [s.url for s in got.generated_screenshots] == [s["url"] for s in styled]
        assert {s.device_size for s in got.generated_screenshots} == {"6.9"}
        assert got.generated_screenshots[0].headline == styled[0]["headline"]
        assert len(got.screenshots) == len(raws)
        listed = api.list_collections("pocket-budget")
        assert [c.id for c in listed] == [got.id] and listed[0].screenshot_count == len(raws)
        assert listed[0].platforms == ["ios"] and listed[0].locale == "en-US"
        paths = api.download_collection(got, tmp_path / "styled")
        assert len(paths) == len(styled) and all(p.stat().st_size > 0 for p in paths)
    with Client(server.url, KEY_B) as other:
        assert other.list_collections("pocket-budget") == []
        with pytest.raises(ApiError) as err:
            other.get_collection("pocket-budget", created["collectionId"])
        assert err.value.status == 404 and err.value.code == "collection_not_found"


def test_live_restart_after_kill_9_mid_capture(tmp_path, live_servers):
    web = serve_folder(SAMPLES / "webapps" / "pocket-budget")
    try:
        data_dir = tmp_path / "data"
        add_project(data_dir, "pb", "--name", "Pocket Budget", "--url", web.url, "--allow-private")
        a = LiveServer(data_dir, workers=1, extra=("--no-ocr",))
        live_servers.append(a)
        created = a.http.post("/v1/projects/pb/screenshots", headers=auth()).json()
        collection_id = created["collectionId"]
        deadline = time.monotonic() + 60
        while web.requests == 0 and time.monotonic() < deadline:  # Chromium is on the site
            time.sleep(0.05)
        assert web.requests > 0, "capture never reached the web app"
        workers = a.worker_pids()
        a.kill()  # kill -9 mid-capture: no shutdown code runs
        row = db_row(data_dir, collection_id)
        assert row["status"] == "capturing" and row["claim"] is not None
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(p) for p in workers), "orphaned workers exit by themselves"
        while _browsers() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _browsers(), "the capture's Chromium ends with its worker"

        b = LiveServer(data_dir, workers=1, extra=("--no-ocr",))
        live_servers.append(b)
        body, _ = poll(b.http.get, f"/v1/projects/pb/screenshots/{collection_id}")
        assert body["status"] == "completed", body
        assert db_row(data_dir, collection_id)["attempts"] == 2
        assert len(body["generatedScreenshots"]) >= 4
        assert all(s["url"].startswith(b.url) for s in body["generatedScreenshots"])
        assert png_info(httpx.get(body["screenshots"][0]["url"]).content)[1] == (1320, 2868)
        assert "taken up again after a restart" in b.output()
    finally:
        web.close()


def _browsers() -> list[int]:
    """Chromium processes of a shotsmith capture (they carry a marker switch)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"--shotsmith-capture=" in (entry / "cmdline").read_bytes() and _alive(
                    int(entry.name)
                ):
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


# --- in process: refusals, folders, failures, paging ------------------------------------------


@pytest.fixture(scope="module")
def app_client(tmp_path_factory, webapp):
    tmp = tmp_path_factory.mktemp("collections")
    shutil.copytree(SAMPLES / "tasklane", tmp / "tasklane")
    (tmp / "empty").mkdir()
    app = create_app(
        tmp / "data",
        api_keys=[KEY_A, KEY_B],
        workers=1,
        design_options={"ocr": False},
        capture_timeout=30,
    )
    store = app.state.server.store
    store.add_project(
        project_id="tasklane",
        name="Tasklane",
        platforms=["ios"],
        locale="en-US",
        source_url=None,
        source_dir=str(tmp / "tasklane"),
    )
    store.add_project(
        project_id="web",
        name="Pocket Budget",
        platforms=["ios", "android"],
        locale="de-DE",
        source_url=webapp.url,
        source_dir=None,
    )
    store.add_project(
        project_id="closed",
        name="Gone",
        platforms=["ios"],
        locale="en-US",
        source_url=closed_port_url(),
        source_dir=None,
    )
    for project_id in ("empty", "paging"):  # folders with no screenshots: fail at once
        store.add_project(
            project_id=project_id,
            name="Empty",
            platforms=["ios"],
            locale="en-US",
            source_url=None,
            source_dir=str(tmp / "empty"),
        )
    with TestClient(app) as client:
        yield app, client


def test_folder_project_completes_at_the_folders_device_size(app_client):
    app, client = app_client
    r = client.post("/v1/projects/tasklane/screenshots", headers=auth())  # no body at all
    assert r.status_code == 202, r.text
    path = f"/v1/projects/tasklane/screenshots/{r.json()['collectionId']}"
    body, _ = poll(client.get, path)
    assert body["status"] == "completed", body
    assert body["devices"] == ["iphone-16-pro"] and body["totalScreenshots"] == 5
    assert [s["step"] for s in body["generatedScreenshots"]] == [1, 2, 3, 4, 5]
    # OCR off: the screen names are all there is, so every slide has a headline and a
    # subtitle that would only say the headline again is left empty (a string, not null)
    assert all(s["headline"] for s in body["generatedScreenshots"])
    assert all(isinstance(s["subtitle"], str) for s in body["generatedScreenshots"])
    for shot in body["generatedScreenshots"][:2]:
        assert shot["headline"] and isinstance(shot["subtitle"], str)
        assert png_info(client.get(shot["url"]).content) == ("PNG", (1206, 2622), "RGB")
    raw = client.get(body["screenshots"][0]["url"]).content  # the folder's own PNG, copied
    assert raw == (SAMPLES / "tasklane" / "01_inbox.png").read_bytes()

    # a size the folder does not have: failed, with a readable error and no server paths
    r = client.post(
        "/v1/projects/tasklane/screenshots", json={"device_sizes": ["6.9"]}, headers=auth()
    )
    body, _ = poll(client.get, f"/v1/projects/tasklane/screenshots/{r.json()['collectionId']}")
    assert body["status"] == "failed"
    assert "does not match the requested device size" in body["error"]
    assert "1320x2868" in body["error"] and "/" not in body["error"].split(":")[0]
    assert body["screenshots"] == [] and body["generatedScreenshots"] == []
    assert "completedAt" not in body and list(body)[-1] == "error"


def test_unreachable_web_app_fails_readably(app_client):
    _, client = app_client
    r = client.post("/v1/projects/closed/screenshots", json={}, headers=auth())
    assert r.status_code == 202
    body, seen = poll(
        client.get, f"/v1/projects/closed/screenshots/{r.json()['collectionId']}", timeout=60
    )
    assert body["status"] == "failed" and "processing" not in seen
    assert body["error"].startswith("could not capture http://127.0.0.1:")
    assert "start page could not be loaded" in body["error"]
    assert body["totalScreenshots"] == 0


def test_list_newest_first_with_paging(app_client):
    _, client = app_client
    base = "/v1/projects/paging/screenshots"
    ids = []
    for _ in range(3):
        r = client.post(base, json={"locale": "fr_FR"}, headers=auth())
        assert r.status_code == 202, r.text
        ids.append(r.json()["collectionId"])
    listed = client.get(base, headers=auth()).json()
    assert list(listed) == ["collections"]
    assert [c["collectionId"] for c in listed["collections"]] == ids[::-1]
    first = listed["collections"][0]
    assert list(first) == SUMMARY_KEYS
    assert first["platforms"] == ["ios"] and first["locale"] == "fr-FR"
    assert first["status"] in ("capturing", "failed") and first["screenshotCount"] == 0
    page = client.get(base, params={"limit": 2}, headers=auth()).json()["collections"]
    assert [c["collectionId"] for c in page] == ids[:0:-1]
    rest = client.get(
        base, params={"limit": 2, "before": page[-1]["collectionId"]}, headers=auth()
    ).json()["collections"]
    assert [c["collectionId"] for c in rest] == [ids[0]]
    assert client.get(base, headers=auth(KEY_B)).json() == {"collections": []}
    # an empty folder fails at once, readably
    body, _ = poll(client.get, f"{base}/{ids[0]}", timeout=60)
    assert body["status"] == "failed" and "no screenshots found" in body["error"]
    assert str(Path.cwd()) not in body["error"] and "the project's folder" in body["error"]


@pytest.mark.parametrize(
    "body, status, code, says",
    [
        (
            {"platforms": ["windows"]},
            422,
            "unsupported_platform",
            "allowed platforms: ios, android",
        ),
        ({"platforms": "ios"}, 422, "invalid_type", "platforms must be an array"),
        ({"platforms": []}, 422, "invalid_platform", "platforms is empty"),
        ({"platforms": [7]}, 422, "invalid_type", "platforms[0] must be a string"),
        ({"device_sizes": ["7.7"]}, 422, "unsupported_device_size", "ios: 6.9, 6.5, 6.3"),
        ({"device_sizes": ["6.9"]}, 422, "unsupported_device_size", "no size for android"),
        (
            {"platforms": ["ios"], "device_sizes": ["huge"]},
            422,
            "unsupported_device_size",
            "is not a device size",
        ),
        (
            {"platforms": ["ios"], "device_sizes": ["android:6.3"]},
            422,
            "unsupported_device_size",
            "not among the platforms",
        ),
        ({"device_sizes": "6.9"}, 422, "invalid_type", "device_sizes must be an array"),
        ({"device_sizes": [6.9]}, 422, "invalid_type", "device_sizes[0] must be a string"),
        ({"device_sizes": []}, 422, "invalid_device_size", "device_sizes is empty"),
        ({"device_sizes": ["6.9"] * 11}, 422, "invalid_device_size", "at most 10"),
        ({"locale": 5}, 422, "invalid_type", "locale must be a string"),
        ({"locale": "english please"}, 422, "invalid_locale", "BCP 47"),
        ({"locale": "en-US", "name": "x"}, 422, "unknown_field", "unknown field 'name'"),
        ([1, 2], 400, "invalid_body", "must be a JSON object"),
        ("{", 400, "invalid_json", "not valid JSON"),
        ("x" * 70_000, 413, "body_too_large", "64 KiB"),
    ],
)
def test_every_refusal_says_what_is_allowed(app_client, body, status, code, says):
    app, client = app_client
    before = app.state.server.store.collection_ids()
    content = body if isinstance(body, str) else json.dumps(body)
    r = client.post(
        "/v1/projects/web/screenshots",
        content=content,
        headers={**auth(), "Content-Type": "application/json"},
    )
    assert says in error_of(r, status, code)
    assert app.state.server.store.collection_ids() == before  # nothing was created


def test_not_found_and_unauthorized(app_client):
    _, client = app_client
    created = client.post("/v1/projects/empty/screenshots", headers=auth()).json()
    mine = f"/v1/projects/empty/screenshots/{created['collectionId']}"
    assert client.get(mine, headers=auth()).status_code == 200
    assert "shotsmith projects add" in error_of(
        client.get("/v1/projects/nope/screenshots", headers=auth()), 404, "project_not_found"
    )
    error_of(
        client.post("/v1/projects/nope/screenshots", json={}, headers=auth()),
        404,
        "project_not_found",
    )
    error_of(
        client.get(f"/v1/projects/nope/screenshots/{created['collectionId']}", headers=auth()),
        404,
        "project_not_found",
    )
    error_of(
        client.get("/v1/projects/empty/screenshots/col_0000", headers=auth()),
        404,
        "collection_not_found",
    )
    error_of(client.get(mine, headers=auth(KEY_B)), 404, "collection_not_found")  # other key
    error_of(
        client.get(f"/v1/projects/tasklane/screenshots/{created['collectionId']}", headers=auth()),
        404,
        "collection_not_found",
    )  # other project
    for method, path in (
        ("GET", "/v1/projects/empty/screenshots"),
        ("POST", "/v1/projects/empty/screenshots"),
        ("GET", mine),
    ):
        for headers in ({}, auth("not-a-key-0123456789")):
            r = client.request(method, path, headers=headers)
            error_of(r, 401, "unauthorized")
            assert r.headers["www-authenticate"] == "Bearer"
    for params in ({"limit": 0}, {"limit": 101}, {"limit": "ten"}):
        error_of(
            client.get("/v1/projects/empty/screenshots", params=params, headers=auth()),
            422,
            "invalid_request",
        )
    assert "last collectionId" in error_of(
        client.get("/v1/projects/empty/screenshots", params={"before": "col_x"}, headers=auth()),
        422,
        "invalid_cursor",
    )
    assert client.get("/v1/files/nothing-here/raw-x.png").status_code == 404


def test_active_collections_per_key_are_capped(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A, KEY_B], workers=1, max_active_collections=1)
    app.state.server.store.add_project(
        project_id="p",
        name="P",
        platforms=["ios"],
        locale="en-US",
        source_url="http://127.0.0.1:9/",
        source_dir=None,
    )
    client = TestClient(app)  # no lifespan: nothing runs, so the first stays capturing
    assert client.post("/v1/projects/p/screenshots", headers=auth()).status_code == 202
    r = client.post("/v1/projects/p/screenshots", headers=auth())
    assert "wait until one finishes" in error_of(r, 429, "too_many_collections")
    assert r.headers["retry-after"] == "30"
    assert client.post("/v1/projects/p/screenshots", headers=auth(KEY_B)).status_code == 202


# --- restart rules at the store level ----------------------------------------------------------


def _captured_collection(tmp_path: Path, owner: str = "o") -> tuple[Store, str]:
    """A collection whose capture finished (raws on disk) when its server died."""
    source = tmp_path / "source"
    shutil.copytree(SAMPLES / "tasklane", source)
    store = Store(tmp_path / "data")
    store.add_project(
        project_id="t",
        name="Tasklane",
        platforms=["ios"],
        locale="en-US",
        source_url=None,
        source_dir=str(source),
    )
    from shotsmith.server.collections import collection_params, run_capture

    project = store.get_project("t")
    collection = store.insert_collection(
        project_id="t",
        owner=owner,
        name="n",
        base_url="http://x",
        params=collection_params(project, ["ios"], None, "en-US"),
    )
    claimed = store.claim_next_collection()
    kind, raws = run_capture(str(store.collection_dir(claimed.collection_id)), claimed.params, 30)
    assert kind == "ok", raws
    raws = [
        {**r, "id": f"r{i}", "name": f"r{i}.png", "path": store.relative(r["path"])}
        for i, r in enumerate(raws)
    ]
    assert store.collection_captured(claimed, raws).status == "processing"
    shutil.rmtree(source)  # from now on a second capture would fail
    return store, collection.collection_id


def test_a_captured_collection_resumes_at_design_after_a_crash(tmp_path):
    store, collection_id = _captured_collection(tmp_path, owner=hash_key(KEY_A))
    store.close()
    app = create_app(tmp_path / "data", api_keys=[KEY_A], workers=1, design_options={"ocr": False})
    with TestClient(app) as client:
        body, seen = poll(client.get, f"/v1/projects/t/screenshots/{collection_id}")
    assert body["status"] == "completed", body
    assert seen[0] in ("processing", "completed") and len(body["generatedScreenshots"]) == 5


def test_interrupted_too_often_fails_and_remove_is_refused_while_active(tmp_path):
    store, collection_id = _captured_collection(tmp_path)
    with pytest.raises(ShotsmithError, match="still capturing or processing"):
        store.remove_project("t")
    conn = store._conn()
    conn.execute("UPDATE collections SET attempts = 3")
    runner = CollectionRunner(store, max_attempts=3)
    runner._recover()  # what start() does first
    failed = store.get_collection(collection_id)
    assert failed.status == "failed" and failed.claim is None
    assert failed.error.startswith("the collection was interrupted 3 times")
    assert store.remove_project("t") == 1
    assert store.get_project("t") is None and store.get_collection(collection_id) is None
    assert not store.collection_dir(collection_id).exists()
    assert store.remove_project("t") is None


# --- the projects command -------------------------------------------------------------------------


def test_projects_cli(tmp_path, capsys):
    """In process (``shotsmith.cli.main``); the live tests run the real command."""
    from shotsmith.cli import main

    def cli(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse refusals
            code = exc.code
        out = capsys.readouterr()
        return code, out.out, out.err

    data_dir = tmp_path / "data"
    shutil.copytree(SAMPLES / "tasklane", tmp_path / "tl")
    (tmp_path / "nothing").mkdir()
    common = ("projects", "add", "--data-dir", str(data_dir))
    assert cli(*common, "--id", "tl", "--name", "Tasklane", "--source-dir", str(tmp_path / "tl"))[
        :2
    ] == (0, "tl\n")
    assert (
        cli(
            *common,
            "--id",
            "web.app-2",
            "--name",
            "Web",
            "--platform",
            "ios",
            "--platform",
            "android",
            "--locale",
            "de_DE",
            "--url",
            "https://example.com/app",
        )[0]
        == 0
    )
    code, out, _ = cli("projects", "list", "--data-dir", str(data_dir))
    assert code == 0
    assert out.splitlines() == [
        f"tl\tTasklane\tios\ten-US\t{(tmp_path / 'tl').resolve()}",
        "web.app-2\tWeb\tios,android\tde-DE\thttps://example.com/app",
    ]
    for args, says in (
        (("--id", "tl", "--name", "X", "--url", "http://x"), "already exists"),
        (("--id", "bad id", "--name", "X", "--url", "http://x"), "--id 'bad id'"),
        (("--id", "u", "--name", "X", "--url", "ftp://x"), "not an absolute http(s) URL"),
        (("--id", "d", "--name", "X", "--source-dir", str(tmp_path / "none")), "no such folder"),
        (("--id", "e", "--name", "X", "--source-dir", str(tmp_path / "nothing")), "no screenshots"),
        (("--id", "l", "--name", "X", "--url", "http://x", "--locale", "!!"), "BCP 47"),
    ):
        code, _, err = cli(*common, *args)
        assert code == 2 and says in err, (args, err)
    code, _, err = cli(
        *common, "--id", "b", "--name", "B", "--url", "http://x", "--source-dir", str(tmp_path)
    )
    assert code == 2 and "not allowed with argument" in err
    code, _, err = cli("projects", "remove", "--data-dir", str(data_dir), "--id", "tl")
    assert code == 0 and "removed, with 0 collection(s)" in err
    code, _, err = cli("projects", "remove", "--data-dir", str(data_dir), "--id", "tl")
    assert code == 2 and "no project 'tl'" in err


# --- the client's parser: both documented shapes ------------------------------------------------

SHAPE_A = json.loads("""{
  "collection": {
    "id": "col_a1", "name": "Pocket Budget (ios, en-US)", "status": "completed",
    "devices": ["iphone-16-pro-max"], "totalScreenshots": 2,
    "createdAt": "2025-01-31T12:00:00.000Z", "completedAt": "2025-01-31T12:01:30.000Z",
    "screenshots": [
      {"id": "raw-1", "device": "iphone-16-pro-max", "url": "https://s.example/r/1.png",
       "step": 1, "locale": "en-US"},
      {"id": "raw-2", "device": "iphone-16-pro-max", "url": "https://s.example/r/2.png",
       "step": 2, "locale": "en-US"}],
    "generatedScreenshots": [
      {"id": "gen-1", "device": "iphone-16-pro-max", "url": "https://s.example/g/1.png",
       "step": 1, "locale": "en-US", "headline": "Your money, made clear",
       "subtitle": "Budgets in one calm view."},
      {"id": "gen-2", "device": "iphone-16-pro-max", "url": "https://s.example/g/2.png",
       "step": 2, "locale": "en-US", "headline": "Save toward what matters",
       "subtitle": "Goals that grow."}]
  }
}""")

SHAPE_B = json.loads("""{
  "collectionId": "col_b2", "status": "completed", "createdAt": "2025-01-31T12:00:00Z",
  "screenshots": [
    {"url": "https://s.example/b/home-69.png", "deviceSize": "6.9", "screenName": "home",
     "locale": "en-US"},
    {"url": "https://s.example/b/home-65.png", "deviceSize": "6.5\\"", "screenName": "home",
     "locale": "en-US"},
    {"url": "https://s.example/b/settings.png", "deviceSize": "6.9", "screenName": "settings",
     "locale": "en-US"}]
}""")


def test_parse_shape_a():
    c = parse_collection(SHAPE_A)
    assert (c.id, c.status, c.name) == ("col_a1", "completed", "Pocket Budget (ios, en-US)")
    assert c.created_at == "2025-01-31T12:00:00.000Z"
    assert c.completed_at == "2025-01-31T12:01:30.000Z" and c.error is None and c.finished
    assert c.devices == ["iphone-16-pro-max"] and c.total_screenshots == 2
    assert [s.url for s in c.screenshots] == [
        "https://s.example/r/1.png",
        "https://s.example/r/2.png",
    ]
    g = c.generated_screenshots[1]
    assert (g.id, g.device, g.device_size, g.step, g.locale) == (
        "gen-2",
        "iphone-16-pro-max",
        "6.9",
        2,
        "en-US",
    )
    assert (g.headline, g.subtitle, g.screen) == (
        "Save toward what matters",
        "Goals that grow.",
        None,
    )
    assert c.data == SHAPE_A


def test_parse_shape_b():
    c = parse_collection(SHAPE_B)
    assert (c.id, c.status, c.created_at, c.completed_at) == (
        "col_b2",
        "completed",
        "2025-01-31T12:00:00Z",
        None,
    )
    assert c.screenshots == [] and c.total_screenshots == 3 and c.devices == []
    shots = c.generated_screenshots
    assert [(s.device_size, s.screen, s.locale) for s in shots] == [
        ("6.9", "home", "en-US"),
        ("6.5", "home", "en-US"),
        ("6.9", "settings", "en-US"),
    ]
    assert shots[0].url == "https://s.example/b/home-69.png"
    assert shots[0].headline is None and shots[0].device is None and shots[0].step is None


def test_parse_in_progress_failed_and_odd_responses():
    assert parse_collection({"collectionId": "col_1", "status": "capturing"}).finished is False
    failed_a = parse_collection(
        {
            "collection": {
                **SHAPE_A["collection"],
                "status": "failed",
                "generatedScreenshots": [],
                "error": "could not capture",
            }
        }
    )
    assert failed_a.error == "could not capture" and failed_a.generated_screenshots == []
    failed_b = parse_collection(
        {"collectionId": "c", "status": "failed", "error": {"code": "x", "message": "site down"}}
    )
    assert failed_b.error == "site down" and failed_b.generated_screenshots == []
    extra = parse_collection(
        {
            **SHAPE_B,
            "somethingNew": 1,
            "screenshots": [{"url": "u", "deviceSize": 6.7, "screenName": "a", "locale": "de-DE"}],
        }
    )
    assert extra.generated_screenshots[0].device_size == "6.7"
    with pytest.raises(ShotsmithError, match="no collection identifier"):
        parse_collection({"status": "completed"})
    with pytest.raises(ShotsmithError, match="expected a JSON object"):
        parse_collection([SHAPE_B])  # type: ignore[arg-type]
    s = parse_collection_summary(
        {
            "collectionId": "c",
            "status": "processing",
            "createdAt": "t",
            "screenshotCount": 4,
            "platforms": ["ios", "android"],
            "locale": "en-US",
        }
    )
    assert (s.id, s.status, s.screenshot_count, s.platforms) == (
        "c",
        "processing",
        4,
        ["ios", "android"],
    )

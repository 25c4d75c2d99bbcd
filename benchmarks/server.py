"""The /v1 server under load: job wall time, polling latency while jobs render, memory.

Starts a real ``shotsmith serve`` (uvicorn + worker processes) on a free local port
over a temporary data dir, then measures:

1. a 10-image design job, from POST to every output PNG fetched: median of 3 runs
   (target <= 4 s);
2. GET /v1/design/:id latency (median, p95) while 20 jobs from two API keys render;
3. peak RSS of the server process tree (server + workers) during a 10-image job;
4. a screenshot collection end to end: POST /v1/projects/:id/screenshots for a project
   whose URL is ``sample_inputs/webapps/pocket-budget`` on a local static server, at 6.9",
   until completed and every styled PNG is fetched: median of 3 (and how long the
   capture phase took, as the polls saw it);
5. uploads: the peak RSS growth of the server process (the one that receives bodies) for
   one maximum request (10 PNGs of ~9.5 MB, ~127 MB of JSON), median of ``--rounds``, as
   a multiple of the body size (target <= 1.5 x); for four such requests in parallel
   (target <= 600 MiB over idle) and what stays afterwards; GET /v1/design/:id latency
   meanwhile against idle polling in the same run (target p95 <= 50 ms);
6. a soak (default 2 minutes): 20 pollers, a 3-image job every 3 s from three keys in
   turn, each with a webhook to a receiver on 127.0.0.1: errors, poll p95, webhooks
   received, the server's RSS at start and end and its trend over the second half.

Inputs: ``sample_inputs/<app>/*.png`` when present, else generated 1206x2622 screens.

    .venv/bin/python benchmarks/server.py [--workers 2] [--no-ocr] [--rounds 3]
        [--collection-rounds 3] [--only timing,upload,soak] [--soak-seconds 120]
        [--pythonpath OLD/src]   # the same measurements of another source tree's server
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import httpx
from PIL import Image, ImageDraw, ImageFont

from shotsmith.server.local import LocalServer
from shotsmith.stages.capture import serve_folder

ROOT = Path(__file__).resolve().parents[1]
KEYS = ["bench-key-timing-0123456789", "bench-key-load-a-0123456789", "bench-key-load-b-0123456789"]
SCREENS = [
    "overview",
    "budgets",
    "transactions",
    "reports",
    "goals",
    "settings",
    "search",
    "profile",
    "cards",
    "alerts",
]


# --- inputs ------------------------------------------------------------------------------


def _generated(name: str, accent: tuple[int, int, int]) -> bytes:
    w, h = 1206, 2622
    im = Image.new("RGB", (w, h), (245, 246, 248))
    d = ImageDraw.Draw(im)
    try:
        font = ImageFont.truetype("/usr/share/fonts/opentype/inter/Inter-Bold.otf", 96)
    except OSError:
        font = ImageFont.load_default(96)
    d.text((60, 230), name.title(), font=font, fill=(20, 20, 24))
    d.rounded_rectangle((60, 400, 1146, 700), radius=40, fill=accent)
    for i in range(8):
        d.rounded_rectangle(
            (60, 760 + i * 200, 1146, 930 + i * 200), radius=30, fill=(255, 255, 255)
        )
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def inputs(count: int = 10) -> tuple[list[dict], str]:
    samples = ROOT / "sample_inputs"
    found = []
    if samples.is_dir():
        for app in sorted(p for p in samples.iterdir() if p.is_dir() and p.name != "webapps"):
            found += [(p.stem.split("_", 1)[-1], p.read_bytes()) for p in sorted(app.glob("*.png"))]
    source = "sample_inputs"
    if len(found) < count:
        accents = [(20, 150, 120), (90, 60, 200), (230, 110, 40), (30, 120, 220)]
        found = [(n, _generated(n, accents[i % 4])) for i, n in enumerate(SCREENS)]
        source = "generated 1206x2622 screens"
    images = [
        {"data": base64.b64encode(data).decode(), "screen": name} for name, data in found[:count]
    ]
    return images, source


# --- the server --------------------------------------------------------------------------


def start_server(
    data_dir: Path, workers: int | None, no_ocr: bool, pythonpath: str | None = None
) -> LocalServer:
    env = {"SHOTSMITH_API_KEYS": ",".join(KEYS)}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    flags = ["--no-ocr"] if no_ocr else []
    # the soak's webhooks go to a receiver on 127.0.0.1, refused unless private addresses
    # are allowed (a server from before that rule has no such flag)
    help_text = subprocess.run(
        [sys.executable, "-m", "shotsmith.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    ).stdout
    if "--webhook-allow-private" in help_text:
        flags.append("--webhook-allow-private")
    server = LocalServer(
        data_dir=data_dir,
        workers=workers,
        api_key=KEYS[0],
        env=env,
        args=flags,
    ).start()
    time.sleep(3)  # let the worker processes finish importing the pipeline
    return server


def tree_rss(pid: int) -> int:
    """RSS in bytes of a process and all its descendants (psutil, else /proc)."""
    try:
        import psutil

        parent = psutil.Process(pid)
        total = 0
        for p in [parent, *parent.children(recursive=True)]:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total
    except ImportError:
        pass
    except Exception:
        return 0
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except OSError:
                pass
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


# --- measurements ----------------------------------------------------------------------------


def _seconds(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def one_job(http: httpx.Client, key: str, images: list[dict]) -> tuple[float, float, float]:
    """(wall, POST->202, created_at->completed_at) in seconds."""
    headers = {"Authorization": f"Bearer {key}"}
    start = time.perf_counter()
    r = http.post(
        "/v1/design", json={"project_name": "Pocket Budget", "images": images}, headers=headers
    )
    r.raise_for_status()
    accepted = time.perf_counter() - start
    job_id = r.json()["job_id"]
    while True:
        job = http.get(f"/v1/design/{job_id}", headers=headers).json()
        if job["status"] == "completed":
            break
        if job["status"] == "failed":
            raise SystemExit(f"job failed: {job['error']}")
        time.sleep(0.05)
    for url in job["output_urls"]:
        png = http.get(url)
        png.raise_for_status()
        assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
    return (
        time.perf_counter() - start,
        accepted,
        _seconds(job["completed_at"]) - _seconds(job["created_at"]),
    )


def _allow_private() -> list[str]:
    """The app under capture runs on 127.0.0.1: allowed when the CLI has the switch (a
    server from before the capture address rule has none)."""
    done = subprocess.run(
        [sys.executable, "-m", "shotsmith.cli", "projects", "add", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return ["--allow-private"] if "--allow-private" in done.stdout else []


def add_project(data_dir: Path, project_id: str, url: str) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "shotsmith.cli",
            "projects",
            "add",
            "--data-dir",
            str(data_dir),
            "--id",
            project_id,
            "--name",
            "Pocket Budget",
            "--url",
            url,
            *_allow_private(),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )


def one_collection(http: httpx.Client, key: str, project_id: str) -> tuple[float, float, int]:
    """(wall POST -> all styled PNGs fetched, seconds until processing was seen, count)."""
    headers = {"Authorization": f"Bearer {key}"}
    start = time.perf_counter()
    r = http.post(
        f"/v1/projects/{project_id}/screenshots", json={"device_sizes": ["6.9"]}, headers=headers
    )
    r.raise_for_status()
    path = f"/v1/projects/{project_id}/screenshots/{r.json()['collectionId']}"
    captured = None
    while True:
        body = http.get(path, headers=headers).json()["collection"]
        if body["status"] != "capturing" and captured is None:
            captured = time.perf_counter() - start
        if body["status"] == "completed":
            break
        if body["status"] == "failed":
            raise SystemExit(f"collection failed: {body['error']}")
        time.sleep(0.05)
    for shot in body["generatedScreenshots"]:
        png = http.get(shot["url"])
        png.raise_for_status()
    return time.perf_counter() - start, captured or 0.0, len(body["generatedScreenshots"])


def timing_section(
    server: LocalServer, http: httpx.Client, args: argparse.Namespace, images: list[dict]
) -> None:
    """Sections (1)-(4) of the module docstring."""
    proc = server.process
    # (1) + (3): 10-image jobs end to end, sampling the tree's RSS meanwhile
    peak, sampling = [0], threading.Event()

    def sample():
        while not sampling.is_set():
            peak[0] = max(peak[0], tree_rss(proc.pid))
            time.sleep(0.05)

    idle_rss = tree_rss(proc.pid)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    runs = [one_job(http, KEYS[0], images) for _ in range(args.rounds)]
    sampling.set()
    sampler.join()
    walls = [w for w, _, _ in runs]
    print(
        f"  (1) 10-image job, POST to all PNGs fetched: median "
        f"{statistics.median(walls):.2f} s of {args.rounds} "
        f"({', '.join(f'{w:.2f}' for w in walls)})   (target <= 4 s)"
    )
    print(
        f"      of which POST -> 202 (validate, persist) median "
        f"{statistics.median(a for _, a, _ in runs):.2f} s; created -> completed "
        f"median {statistics.median(d for _, _, d in runs):.2f} s"
    )
    print(
        f"  (3) peak RSS of server + workers during the jobs: "
        f"{peak[0] / 2**20:.0f} MiB (idle {idle_rss / 2**20:.0f} MiB)"
    )

    # (2) polling latency while 20 jobs from two keys render
    job_ids = []
    for i in range(20):
        key = KEYS[1 + i % 2]
        r = http.post(
            "/v1/design",
            json={"project_name": f"Load {i}", "images": images[: 3 + i % 4]},
            headers={"Authorization": f"Bearer {key}"},
        )
        r.raise_for_status()
        job_ids.append((key, r.json()["job_id"]))
    latencies, pending = [], set(range(len(job_ids)))
    start = time.perf_counter()
    while pending:
        for i in list(pending):
            key, job_id = job_ids[i]
            t0 = time.perf_counter()
            job = http.get(
                f"/v1/design/{job_id}", headers={"Authorization": f"Bearer {key}"}
            ).json()
            latencies.append((time.perf_counter() - t0) * 1000)
            if job["status"] in ("completed", "failed"):
                pending.discard(i)
        time.sleep(0.02)
    drained = time.perf_counter() - start
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"  (2) GET /v1/design/:id while 20 jobs render: median "
        f"{statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms over "
        f"{len(latencies)} polls ({drained:.1f} s to drain the queue)"
    )

    # (4) screenshot collections end to end (the first one starts the capture pool)
    if args.collection_rounds > 0:
        runs = [
            one_collection(http, KEYS[0], "pocket-budget") for _ in range(args.collection_rounds)
        ]
        walls = [w for w, _, _ in runs]
        print(
            f'  (4) collection (6.9", {runs[0][2]} screens), POST to all styled PNGs '
            f"fetched: median {statistics.median(walls):.2f} s of {len(runs)} "
            f"({', '.join(f'{w:.2f}' for w in walls)}); of which capturing median "
            f"{statistics.median(c for _, c, _ in runs):.2f} s"
        )


# --- (5) one maximum request, four in parallel, polling meanwhile ---------------------------


def process_rss(pid: int) -> int:
    """RSS in bytes of one process (the server's, which receives the uploads)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def noise_png(seed: int, size: tuple[int, int] = (1206, 2622)) -> bytes:
    """A valid PNG of random pixels: 1206x2622 RGB does not compress, ~9.5 MB."""
    import numpy as np

    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def maximum_body(seed: int) -> bytes:
    """The largest valid request: 10 images of ~9.5 MB, as JSON bytes (~127 MB)."""
    parts = [b'{"project_name": "Noise", "images": [']
    for i in range(10):
        data = base64.b64encode(noise_png(seed * 10 + i))
        parts += [
            b"," if i else b"",
            b'{"screen": "screen ',
            str(i).encode(),
            b'", "data": "',
            data,
            b'"}',
        ]
    parts.append(b"]}")
    return b"".join(parts)


class Sampler:
    """Samples a process's RSS every 20 ms in a thread: peak, and the series."""

    def __init__(self, pid: int):
        self.pid, self.peak, self.series = pid, 0, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            rss = process_rss(self.pid)
            self.peak = max(self.peak, rss)
            self.series.append((time.monotonic(), rss))
            time.sleep(0.02)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


class Poller:
    """GET /v1/design/:id every 50 ms in a thread; latencies in ms."""

    def __init__(self, url: str, key: str, job_id: str):
        self.latencies: list[float] = []
        self.errors = 0
        self._stop = threading.Event()
        self._args = (url, key, job_id)
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        url, key, job_id = self._args
        with httpx.Client(base_url=url, timeout=30) as http:
            while not self._stop.is_set():
                t0 = time.perf_counter()
                try:
                    r = http.get(f"/v1/design/{job_id}", headers={"Authorization": f"Bearer {key}"})
                    ok = r.status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.latencies.append((time.perf_counter() - t0) * 1000)
                self.errors += not ok
                time.sleep(0.05)

    def __enter__(self) -> Poller:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else float("nan")


def post_body(url: str, key: str, body: bytes) -> tuple[int, float]:
    """POST one design body on a connection of its own: (status, seconds)."""
    t0 = time.perf_counter()
    with httpx.Client(base_url=url, timeout=600) as http:
        try:
            r = http.post(
                "/v1/design",
                content=body,
                headers={
                    "Authorization": f"Bearer {key}",
                    "Content-Type": "application/json",
                    "Idempotency-Key": str(uuid.uuid4()),  # as the client library sends
                },
            )
            status = r.status_code
        except httpx.HTTPError:
            status = 0
    return status, time.perf_counter() - t0


def post_in_processes(url: str, key: str, paths: list[Path]) -> list[tuple[int, float]]:
    """POST each body file from a process of its own, all at once (a sender thread in this
    process would hold the GIL and slow down the poller that measures latency)."""
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--post", url, key, str(path)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for path in paths
    ]
    results = []
    for proc in procs:
        out, _ = proc.communicate()
        status, seconds = out.split()
        results.append((int(status), float(seconds)))
    return results


def idle_rss(pid: int, seconds: float = 1.0) -> int:
    samples = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        samples.append(process_rss(pid))
        time.sleep(0.05)
    return int(statistics.median(samples))


def upload_section(server: LocalServer, http: httpx.Client, rounds: int) -> None:
    """(5): peak server RSS growth for one maximum request (median of ``rounds``), for
    four in parallel, and GET latency meanwhile, against the idle baseline of this run."""
    pid = server.process.pid
    key, poll_key = KEYS[1], KEYS[2]
    small = http.post(
        "/v1/design",
        json={"project_name": "Poll", "images": inputs(1)[0]},
        headers={"Authorization": f"Bearer {poll_key}"},
    )
    small.raise_for_status()
    poll_job = small.json()["job_id"]
    print("  (5) building maximum request bodies (10 noise PNGs of ~9.5 MB each) ...", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="shotsmith-bodies-"))
    bodies = []
    for seed in range(max(rounds, 4)):
        bodies.append(folder / f"body-{seed}.json")
        bodies[-1].write_bytes(maximum_body(seed))
    size = bodies[0].stat().st_size
    with Poller(server.url, poll_key, poll_job) as idle_poll:
        time.sleep(5)
    base_p95 = percentile(idle_poll.latencies, 0.95)

    growth, single_p95, statuses = [], [], []
    for body in bodies[:rounds]:
        time.sleep(2)
        before = idle_rss(pid)
        with Sampler(pid) as sampler, Poller(server.url, poll_key, poll_job) as poll:
            ((status, _),) = post_in_processes(server.url, key, [body])
        statuses.append(status)
        growth.append(sampler.peak - before)
        single_p95.append(percentile(poll.latencies, 0.95))
    mib = 2**20
    print(
        f"      idle polling p95 {base_p95:.1f} ms (baseline of this run); body "
        f"{size / mib:.0f} MiB; statuses {statuses}"
    )
    print(
        f"      one maximum request: peak server RSS growth median "
        f"{statistics.median(growth) / mib:.0f} MiB = "
        f"{statistics.median(growth) / size:.2f} x the body "
        f"({', '.join(f'{g / mib:.0f}' for g in growth)} MiB)   (target <= 1.5 x); "
        f"polling p95 median {statistics.median(single_p95):.1f} ms"
    )

    time.sleep(2)
    before = idle_rss(pid)
    with Sampler(pid) as sampler, Poller(server.url, poll_key, poll_job) as poll:
        results = post_in_processes(server.url, key, bodies[:4])
    time.sleep(5)
    after = idle_rss(pid)
    p95 = percentile(poll.latencies, 0.95)
    print(
        f"      four in parallel: statuses {sorted(s for s, _ in results)}, peak server RSS "
        f"{(sampler.peak - before) / mib:.0f} MiB over idle ({before / mib:.0f} MiB)   "
        f"(target <= 600 MiB); kept 5 s later {(after - before) / mib:.0f} MiB"
    )
    print(
        f"      polling meanwhile: median {statistics.median(poll.latencies):.1f} ms, p95 "
        f"{p95:.1f} ms = {p95 / base_p95:.1f} x idle   (target p95 <= 50 ms); "
        f"{poll.errors} errors"
    )
    shutil.rmtree(folder, ignore_errors=True)


# --- (6) soak ---------------------------------------------------------------------------------


class Receiver:
    """A local webhook receiver: counts POSTs."""

    def __init__(self) -> None:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.count = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.count += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def soak_section(server: LocalServer, seconds: float, interval: float) -> None:
    """(6): ``seconds`` of 20 pollers, a small job every ``interval`` s (keys in turn, under
    the rate limit) with a webhook to a local receiver: errors, poll p95, server RSS trend."""
    pid = server.process.pid
    images = inputs(3)[0]
    receiver = Receiver()
    job_ids: list[tuple[str, str]] = []
    errors: list[str] = []
    latencies: list[float] = []
    stop = threading.Event()
    lock = threading.Lock()

    def create() -> None:
        n = 0
        with httpx.Client(base_url=server.url, timeout=60) as http:
            while not stop.is_set():
                key = KEYS[n % 3]
                try:
                    r = http.post(
                        "/v1/design",
                        headers={"Authorization": f"Bearer {key}"},
                        json={
                            "project_name": f"Soak {n}",
                            "images": images,
                            "webhook_url": receiver.url,
                        },
                    )
                    if r.status_code == 202:
                        with lock:
                            job_ids.append((key, r.json()["job_id"]))
                    else:
                        errors.append(f"POST {r.status_code} {r.text[:100]}")
                except httpx.HTTPError as exc:
                    errors.append(f"POST {type(exc).__name__}")
                n += 1
                stop.wait(interval)

    def poll(index: int) -> None:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            while not stop.is_set():
                with lock:
                    mine = job_ids[-1 - index % max(1, len(job_ids))] if job_ids else None
                if mine is None:
                    stop.wait(0.2)
                    continue
                key, job_id = mine
                t0 = time.perf_counter()
                try:
                    r = http.get(f"/v1/design/{job_id}", headers={"Authorization": f"Bearer {key}"})
                    if r.status_code != 200:
                        errors.append(f"GET {r.status_code}")
                except httpx.HTTPError as exc:
                    errors.append(f"GET {type(exc).__name__}")
                latencies.append((time.perf_counter() - t0) * 1000)
                stop.wait(0.25)

    rss: list[tuple[float, int]] = []
    threads = [threading.Thread(target=create)] + [
        threading.Thread(target=poll, args=(i,)) for i in range(20)
    ]
    start = time.monotonic()
    for t in threads:
        t.start()
    while time.monotonic() - start < seconds:
        rss.append((time.monotonic() - start, process_rss(pid)))
        time.sleep(1.0)
    stop.set()
    for t in threads:
        t.join()
    finished = 0
    deadline = time.monotonic() + 120
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for key, job_id in job_ids:
            while time.monotonic() < deadline:
                job = http.get(
                    f"/v1/design/{job_id}", headers={"Authorization": f"Bearer {key}"}
                ).json()
                if job["status"] in ("completed", "failed"):
                    finished += job["status"] == "completed"
                    break
                time.sleep(0.5)
    time.sleep(3)  # the last webhooks
    receiver.close()
    mib = 2**20
    first = statistics.median(r for t, r in rss if t < 10)
    last = statistics.median(r for t, r in rss if t > seconds - 10)
    half = [(t, r) for t, r in rss if t > seconds / 2]
    slope = _slope(half) * 60 / mib if len(half) > 2 else float("nan")
    print(
        f"  (6) soak {seconds:.0f} s: {len(job_ids)} jobs ({finished} completed), "
        f"{receiver.count} webhooks received, {len(latencies)} polls by 20 pollers"
    )
    print(
        f"      errors {len(errors)}{': ' + ', '.join(sorted(set(errors))[:5]) if errors else ''}"
        f"; poll median {statistics.median(latencies):.1f} ms, p95 "
        f"{percentile(latencies, 0.95):.1f} ms"
    )
    print(
        f"      server RSS start {first / mib:.0f} MiB -> end {last / mib:.0f} MiB "
        f"(max {max(r for _, r in rss) / mib:.0f}); trend over the second half "
        f"{slope:+.1f} MiB/min"
    )


def _slope(points: list[tuple[float, int]]) -> float:
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_r = sum(r for _, r in points) / n
    num = sum((t - mean_t) * (r - mean_r) for t, r in points)
    den = sum((t - mean_t) ** 2 for t, _ in points) or 1.0
    return num / den


def main() -> int:
    if sys.argv[1:2] == ["--post"]:  # a sender process of post_in_processes
        url, key, path = sys.argv[2:5]
        status, seconds = post_body(url, key, Path(path).read_bytes())
        print(status, seconds)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=None, help="server --workers")
    parser.add_argument("--no-ocr", action="store_true", help="server --no-ocr")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--collection-rounds", type=int, default=3, help="collections to time in (4); 0 skips it"
    )
    parser.add_argument(
        "--only",
        default="timing,upload,soak",
        help="sections to run: timing (1-4), upload (5), soak (6)",
    )
    parser.add_argument("--soak-seconds", type=float, default=120.0)
    parser.add_argument(
        "--soak-interval", type=float, default=3.0, help="seconds between the soak's jobs"
    )
    parser.add_argument(
        "--pythonpath",
        default=None,
        help="run the server from another source tree (e.g. a checkout of an "
        "older commit's src/), to compare",
    )
    args = parser.parse_args()
    sections = {s.strip() for s in args.only.split(",") if s.strip()}

    images, source = inputs(10)
    print(
        f"server benchmark: {os.cpu_count()} CPUs, inputs: {source}, OCR "
        f"{'off' if args.no_ocr else 'auto'}, workers {args.workers or 'default'}"
        + (f", server from {args.pythonpath}" if args.pythonpath else "")
        + "; a fresh server and data dir per section"
    )
    webapp = serve_folder(ROOT / "sample_inputs" / "webapps" / "pocket-budget")
    try:
        for name in ("timing", "upload", "soak"):
            if name not in sections:
                continue
            with tempfile.TemporaryDirectory(prefix="shotsmith-bench-") as tmp:
                add_project(Path(tmp) / "data", "pocket-budget", webapp.url)
                server = start_server(
                    Path(tmp) / "data", args.workers, args.no_ocr, args.pythonpath
                )
                try:
                    http = httpx.Client(base_url=server.url, timeout=120)
                    if name == "timing":
                        timing_section(server, http, args, images)
                    elif name == "upload":
                        upload_section(server, http, args.rounds)
                    else:
                        soak_section(server, args.soak_seconds, args.soak_interval)
                finally:
                    server.stop(30)
    finally:
        webapp.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
   capture phase took, as the polls saw it).

Inputs: ``sample_inputs/<app>/*.png`` when present, else generated 1206x2622 screens.

    .venv/bin/python benchmarks/server.py [--workers 2] [--no-ocr] [--rounds 3]
                                          [--collection-rounds 3]
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from PIL import Image, ImageDraw, ImageFont

from shotsmith.localsite import serve_folder
from shotsmith.notebook import LocalServer

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


def start_server(data_dir: Path, workers: int | None, no_ocr: bool) -> LocalServer:
    server = LocalServer(
        data_dir=data_dir,
        workers=workers,
        api_key=KEYS[0],
        env={"SHOTSMITH_API_KEYS": ",".join(KEYS)},
        args=["--no-ocr"] if no_ocr else [],
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=None, help="server --workers")
    parser.add_argument("--no-ocr", action="store_true", help="server --no-ocr")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--collection-rounds", type=int, default=3, help="collections to time in (4); 0 skips it"
    )
    args = parser.parse_args()

    images, source = inputs(10)
    webapp = serve_folder(ROOT / "sample_inputs" / "webapps" / "pocket-budget")
    webapp_url = webapp.url
    with tempfile.TemporaryDirectory(prefix="shotsmith-bench-") as tmp:
        add_project(Path(tmp) / "data", "pocket-budget", webapp_url)
        server = start_server(Path(tmp) / "data", args.workers, args.no_ocr)
        proc, url = server.process, server.url
        try:
            http = httpx.Client(base_url=url, timeout=120)
            print(
                f"server benchmark: {url}, {os.cpu_count()} CPUs, inputs: {source}, "
                f"OCR {'off' if args.no_ocr else 'auto'}, workers "
                f"{args.workers or 'default'}"
            )

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
                    one_collection(http, KEYS[0], "pocket-budget")
                    for _ in range(args.collection_rounds)
                ]
                walls = [w for w, _, _ in runs]
                print(
                    f'  (4) collection (6.9", {runs[0][2]} screens), POST to all styled PNGs '
                    f"fetched: median {statistics.median(walls):.2f} s of {len(runs)} "
                    f"({', '.join(f'{w:.2f}' for w in walls)}); of which capturing median "
                    f"{statistics.median(c for _, c, _ in runs):.2f} s"
                )
        finally:
            server.stop(30)
            webapp.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

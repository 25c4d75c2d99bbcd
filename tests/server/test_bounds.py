"""What the server and its capture agent may reach, and how much one request may cost
(issue 21): capture URLs under the address policy, bounded PNG decompression, fair and
bounded uploads."""

from __future__ import annotations

import pytest

from shotsmith.addresses import host_refusal


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    from shotsmith.cli import main

    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse refusals
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


# --- item 1: a project's capture URL follows the address policy ----------------------------------

PRIVATE_URLS = [
    "http://169.254.169.254/latest/meta-data/",
    "http://127.0.0.1:8000/",
    "http://localhost:3000/",
    "http://app.localhost/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://0/",
    "http://10.0.0.5/",
    "http://192.168.1.1./",
    "http://[::1]:8000/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[fe80::1%25eth0]/",
]


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_projects_add_refuses_private_capture_urls(tmp_path, capsys, monkeypatch, url):
    monkeypatch.delenv("SHOTSMITH_CAPTURE_ALLOW_PRIVATE", raising=False)
    common = ("projects", "add", "--data-dir", str(tmp_path / "data"), "--id", "p")
    code, out, err = _cli(capsys, *common, "--name", "P", "--url", url)
    assert code == 2, err
    assert "may not point at" in err and "--allow-private" in err, err
    assert "is a" in err or "localhost is this machine" in err
    code, out, _ = _cli(capsys, "projects", "list", "--data-dir", str(tmp_path / "data"))
    assert "\tP\t" not in out  # nothing was stored


def test_projects_add_allows_private_urls_when_asked(tmp_path, capsys, monkeypatch):
    data = str(tmp_path / "data")
    common = ("projects", "add", "--data-dir", data, "--name", "P")
    code, out, err = _cli(
        capsys, *common, "--id", "a", "--url", "http://127.0.0.1:8000/", "--allow-private"
    )
    assert code == 0 and out.strip() == "a", err
    monkeypatch.setenv("SHOTSMITH_CAPTURE_ALLOW_PRIVATE", "1")
    code, out, err = _cli(capsys, *common, "--id", "b", "--url", "http://169.254.169.254/")
    assert code == 0 and out.strip() == "b", err
    monkeypatch.delenv("SHOTSMITH_CAPTURE_ALLOW_PRIVATE")
    code, out, err = _cli(capsys, *common, "--id", "c", "--url", "https://example.com/app")
    assert code == 0 and out.strip() == "c", err  # public names need no switch


def test_host_refusal_judges_without_dns():
    assert host_refusal("example.com") is None and host_refusal("93.184.216.34") is None
    assert "link-local" in (host_refusal("169.254.169.254") or "")
    assert "loopback" in (host_refusal("LOCALHOST.") or "")

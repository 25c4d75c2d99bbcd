"""How true the captions are: grounding of write_copy on real apps and on the samples.

    python benchmarks/copy_quality.py [--baseline REF] [--verbose] [FOLDER ...]

For every set (each folder of raw screenshots: ``tests/data/realapps/<app>/`` when that
corpus is there, and the bundled ``sample_inputs/<app>/``), the captions are written by
the installed shotsmith (extract_features -> detect_domain -> write_copy) and measured
against what the screenshots really show:

(a) the share of the content words of headlines and subtitles that appear on the set's
    screens, in the app's name or in the user's description (``about`` in the set's
    manifest.json, when it has one);
(b) the share of lines (headlines and subtitles) that name something visible on their
    own screen.

"Visible" is measured independently of the evidence the writer used: Tesseract reads
each *whole* screenshot at full resolution (page segmentation 11, sparse text; dark
screens inverted), and the DOM text recorded in manifest.json is added when present. A
content word is any word outside the neutral vocabulary of
``src/shotsmith/data/copy_vocabulary.json`` (printed below); words match
case-insensitively with light inflection (shotsmith.grounding.word_forms).

``--baseline REF`` also writes the captions with the code of a git ref (e.g. ``main``,
exported to a temporary folder and run in a subprocess) and prints both side by side,
measured the same way. ``--verbose`` prints every line with the words it was not able
to find.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps, ImageStat

from shotsmith.grounding import content_words, is_unspaced, vocabulary, word_forms, words_of

ROOT = Path(__file__).resolve().parents[1]
CORPORA = {"realapps": ROOT / "tests/data/realapps", "samples": ROOT / "sample_inputs"}

# Runs in a subprocess with the shotsmith under test on sys.path: captions as JSON.
WRITE_CAPTIONS = r"""
import json, sys
import shotsmith as ss
folder, about = sys.argv[1], sys.argv[2]
frame = ss.read_screenshots(folder)
pipe = ss.Pipeline.default(out_dir=None)
steps = []
for step in pipe.steps:
    steps.append(step)
    if step.name == "write_copy":
        break
if about:
    steps[-1].options["about"] = about
out = ss.Pipeline(steps).run(frame).output.sort_values("position")
print(json.dumps({
    "project": str(out["project_name"].iloc[0]),
    "headlines": [str(h) for h in out["copy_headline"]],
    "subtitles": [str(s) for s in out["copy_subtitle"]],
    "images": [str(i) if isinstance(i, str) else "" for i in out["image"]],
    "screens": [str(s) for s in out["screen"]],
}))
"""


@dataclass
class Lines:
    project: str
    headlines: list[str]
    subtitles: list[str]
    images: list[str]
    screens: list[str]


def write_captions(folder: Path, about: str, src: Path | None = None) -> Lines:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", WRITE_CAPTIONS, str(folder), about],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"writing captions for {folder} failed:\n{done.stderr[-2000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return Lines(**data)


def export_ref(ref: str, into: Path) -> Path:
    """The ``src`` folder of a git ref, exported (no checkout, no worktree)."""
    archive = into / "src.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], stdout=fh, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def full_ocr(path: Path) -> str:
    """Everything Tesseract reads on the whole screenshot, at full resolution."""
    with Image.open(path) as im:
        gray = im.convert("L")
    if ImageStat.Stat(gray.resize((64, 64))).mean[0] < 110:  # light text on dark
        gray = ImageOps.invert(gray)
    with tempfile.TemporaryDirectory(prefix="copy-quality-") as tmp:
        png = Path(tmp) / "screen.png"
        gray.save(png)
        done = subprocess.run(
            ["tesseract", str(png), "stdout", "--psm", "11", "-l", "eng"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},
        )
    return done.stdout


def manifest_of(folder: Path) -> dict:
    path = folder / "manifest.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def dom_text(entry: dict) -> str:
    """The text a manifest records for one screen (its text and its elements' text)."""
    parts = [entry.get("text") or ""]
    for el in entry.get("elements") or []:
        if isinstance(el, dict):
            parts.append(str(el.get("text") or ""))
    return "\n".join(p for p in parts if isinstance(p, str))


def forms_of(text: str) -> set[str]:
    return {f for w in words_of(text) for f in word_forms(w.replace(",", ""))}


def found(word: str, forms: set[str], raw: str) -> bool:
    if is_unspaced(word):
        return word.casefold() in raw.casefold()
    return bool(word_forms(word.replace(",", "")) & forms)


@dataclass
class Score:
    words: int = 0
    grounded: int = 0
    lines: int = 0
    naming: int = 0

    def add(self, other: Score) -> None:
        self.words += other.words
        self.grounded += other.grounded
        self.lines += other.lines
        self.naming += other.naming

    def figures(self) -> str:
        a = self.grounded / self.words if self.words else float("nan")
        b = self.naming / self.lines if self.lines else float("nan")
        return (
            f"(a) {a:6.1%} of {self.words:3d} content words   (b) {b:6.1%} of {self.lines:3d} lines"
        )


def measure(lines: Lines, visible: list[str], about: str, verbose: bool) -> Score:
    score = Score()
    set_text = "\n".join([*visible, lines.project, about])
    set_forms = forms_of(set_text)
    for i, (head, sub) in enumerate(zip(lines.headlines, lines.subtitles)):
        own = visible[i] if i < len(visible) else ""
        own_forms = forms_of(own)
        for line in (head, sub):
            words = content_words(line)
            missing = [w for w in words if not found(w, set_forms, set_text)]
            on_own = [w for w in words if found(w, own_forms, own)]
            score.words += len(words)
            score.grounded += len(words) - len(missing)
            score.lines += 1
            score.naming += bool(on_own)
            if verbose:
                flag = "  " if on_own else "! "
                extra = f"   not on the screens: {', '.join(missing)}" if missing else ""
                print(f"      {flag}{lines.screens[i][:16]:16} {line}{extra}")
    return score


def sets() -> list[tuple[str, Path]]:
    out = []
    for corpus, base in CORPORA.items():
        if not base.is_dir():
            continue
        for folder in sorted(p for p in base.iterdir() if p.is_dir()):
            if any(folder.glob("*.png")):
                out.append((corpus, folder))
    return out


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    baseline = None
    if "--baseline" in argv:
        at = argv.index("--baseline")
        baseline = argv[at + 1]
        argv = argv[:at] + argv[at + 2 :]
    folders = [Path(a) for a in argv if not a.startswith("--")]
    todo = [("given", f) for f in folders] if folders else sets()
    if shutil.which("tesseract") is None:
        raise SystemExit("tesseract is not installed: apt-get install tesseract-ocr")

    voc = vocabulary()
    neutral = sorted(voc.neutral)
    print(f"neutral vocabulary, not counted as content words ({len(neutral)} words):")
    for start in range(0, len(neutral), 16):
        print("   " + " ".join(neutral[start : start + 16]))
    print()

    tmp = Path(tempfile.mkdtemp(prefix="copy-quality-"))
    try:
        base_src = export_ref(baseline, tmp) if baseline else None
        totals: dict[tuple[str, str], Score] = {}
        for corpus, folder in todo:
            manifest = manifest_of(folder)
            about = str(manifest.get("about") or "")
            entries = [e for e in manifest.get("screens") or [] if isinstance(e, dict)]
            by_file = {str(e.get("file")): e for e in entries}
            runs = [("after", None)] + ([(f"before ({baseline})", base_src)] if baseline else [])
            visible: list[str] | None = None
            print(f"{corpus}/{folder.name}")
            for label, src in runs:
                lines = write_captions(folder, about, src)
                if visible is None:
                    visible = []
                    for image in lines.images:
                        path = Path(image)
                        text = full_ocr(path) if path.is_file() else ""
                        text += "\n" + dom_text(by_file.get(path.name, {}))
                        visible.append(text)
                if verbose:
                    print(f"   {label}:")
                score = measure(lines, visible, about, verbose)
                print(f"   {label:18} {score.figures()}")
                totals.setdefault((corpus, label), Score()).add(score)
        print()
        print("overall (pooled over every line of every set):")
        for (corpus, label), score in totals.items():
            print(f"   {corpus:9} {label:18} {score.figures()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""How good the captions are: purpose, clean, informative and grounded, on real apps and samples.

    python benchmarks/copy_quality.py [--baseline REF] [--ocr-only] [--verbose] [FOLDER ...]

For every set (each folder of raw screenshots: ``tests/data/realapps/<app>/`` when that
corpus is there, and the bundled ``sample_inputs/<app>/``), the captions are written by
the installed shotsmith (extract_features -> detect_domain -> write_copy) and measured
against what the screenshots really show:

(a) the share of the content words of headlines and subtitles that appear on the set's
    screens, in the app's name or in the user's description (``about`` in the set's
    manifest.json, when it has one);
(b) the share of lines (headlines and subtitles) that name something visible on their
    own screen;
(purpose) the share of screens whose caption (headline and subtitle) contains one of the
    phrases a person wrote down, before any caption was generated, for what that screen
    is for (``tests/data/copy_purposes/<app>.json``; every content word of the phrase
    in the caption, light inflection forgiven); screens with no such file are not counted;
(clean) the share of lines with none of these defects: a word no dictionary knows
    written in lower case (a fragment: "pric", "ipyker"), a doubled word, dangling
    punctuation (",." or a comma at the end), a line ending on a joining word ("and",
    "in", "the"), true/false/null as words, a filler subtitle (no content word) or a bare
    list of three or more items with no verb around them. These checks are written here
    on their own, not imported from the writer's critic;
(left) how many lines were left empty for the user to write (the writer's answer when
    nothing on a screen supports a line; counted as neither clean nor informative above);
(informative) the share of subtitles with a content word that is neither generic (a
    section name such as "overview" or "home") nor a word of the app's name.

``--ocr-only`` writes the captions from the PNGs alone (copied to a temporary folder
without manifest.json, the project name passed as ``--project-name`` would): what
``shotsmith design`` does on a folder of screenshots someone else took.

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
import re
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
PURPOSES = ROOT / "tests/data/copy_purposes"

# Runs in a subprocess with the shotsmith under test on sys.path: captions as JSON.
WRITE_CAPTIONS = r"""
import json, shutil, sys, tempfile
from pathlib import Path
import shotsmith as ss
folder, about, project = sys.argv[1], sys.argv[2], sys.argv[3]
if project:  # the PNGs alone, named as given, with the project name
    bare = Path(tempfile.mkdtemp(prefix="copy-quality-ocr-")) / Path(folder).name
    bare.mkdir()
    for png in sorted(Path(folder).glob("*.png")):
        shutil.copy(png, bare / png.name)
    frame = ss.read_screenshots(str(bare), project_name=project)
else:
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
    "files": [Path(str(i)).stem if isinstance(i, str) else "" for i in out["image"]],
}))
"""


@dataclass
class Lines:
    project: str
    headlines: list[str]
    subtitles: list[str]
    images: list[str]
    screens: list[str]
    files: list[str]


def write_captions(folder: Path, about: str, src: Path | None = None, project: str = "") -> Lines:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", WRITE_CAPTIONS, str(folder), about, project],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"writing captions for {folder} failed:\n{done.stderr[-2000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    data.setdefault("files", [Path(i).stem for i in data["images"]])
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
    screens_judged: int = 0  # screens with purpose phrases written for them
    purposeful: int = 0
    clean: int = 0
    subtitles: int = 0
    informative: int = 0
    left: int = 0  # lines left empty for the user to write (no filler in their place)

    def add(self, other: Score) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def figures(self) -> str:
        def share(a: int, b: int) -> str:
            return f"{a / b:6.1%}" if b else "   n/a"

        return (
            f"purpose {share(self.purposeful, self.screens_judged)} of {self.screens_judged:3d}"
            f"   clean {share(self.clean, self.lines)}"
            f"   informative {share(self.informative, self.subtitles)}"
            f"   (a) {share(self.grounded, self.words)} of {self.words:3d} words"
            f"   (b) {share(self.naming, self.lines)} of {self.lines:3d} lines"
            f"   left {self.left:3d}"
        )


_ENDS = frozenset("and or in of the a an to with for at by from on".split())
_DATA = frozenset("true false null none nan undefined".split())


def defects(line: str, kind: str, project: str, shown: set[str] = frozenset()) -> list[str]:
    """What a careful reader would strike out of a line (independent of the writer).

    A fragment is a lower-case word that is rare in written English (wordfreq's largest
    list, Zipf < 2: "pric", "ipyker") and not a whole word on the screens ("readme" and
    "href" are the app's own words)."""
    from wordfreq import zipf_frequency

    out = []
    words = words_of(line)
    for w in words:
        if w.isalpha() and w.isascii() and w.islower() and len(w) >= 3:
            rare = zipf_frequency(w, "en", wordlist="large") < 2.0
            if rare and w not in vocabulary().neutral and w.casefold() not in shown:
                out.append(f"fragment {w!r}")
    if re.search(r"\b(\w+)\s+\1\b", line, re.I):
        out.append("doubled word")
    if re.search(r"[,;:]\s*[.!?]$|\s[,;:.]|,\s*,|[,;:]$", line.strip()):
        out.append("dangling punctuation")
    bare = words_of(line.rstrip(".!?"))
    if bare and bare[-1].casefold() in _ENDS:
        out.append(f"ends on {bare[-1]!r}")
    if any(w.casefold() in _DATA for w in words):
        out.append("data as words")
    name = {w.casefold() for w in words_of(project)}
    own = [w for w in content_words(line) if w.casefold() not in name]
    if kind == "subtitle" and not own:
        out.append("filler")
    parts = [p.strip() for p in re.split(r",|\band\b", line.rstrip(".")) if p.strip()]
    if len(parts) >= 3 and not any(
        w.casefold() in vocabulary().generic_verbs or w.casefold() in vocabulary().benefit_words
        for w in words
    ):
        out.append("bare list")
    return out


def informative(subtitle: str, project: str) -> bool:
    voc = vocabulary()
    name = {f for w in words_of(project) for f in word_forms(w)}
    generic = voc.generic_sections | voc.weak_titles
    return any(
        not (word_forms(w) & name) and w.casefold() not in generic
        for w in content_words(subtitle)
        if not any(c.isdigit() for c in w)
    )


def has_purpose(caption: str, phrases: list[str]) -> bool:
    forms = forms_of(caption)
    for phrase in phrases:
        words = content_words(phrase) or words_of(phrase)
        if words and all(word_forms(w) & forms for w in words):
            return True
    return False


def purposes_of(folder: Path, where: Path = PURPOSES) -> dict[str, list[str]]:
    """file stem -> purpose phrases, from tests/data/copy_purposes/<app>.json."""
    for candidate in where.glob("*.json"):
        try:
            data = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if Path(str(data.get("folder", ""))).name == folder.name:
            screens = data.get("screens") or {}
            return {k: list(v.get("purpose") or []) for k, v in screens.items()}
    return {}


def measure(
    lines: Lines, visible: list[str], about: str, verbose: bool, purposes: dict[str, list[str]]
) -> Score:
    score = Score()
    # what the user wrote counts as evidence too: the app's name, the description and the
    # screens' file names ("03_checking-transactions.png")
    names = [
        re.sub(r"^\d+[_\-. ]*", "", f).replace("-", " ").replace("_", " ") for f in lines.files
    ]
    set_text = "\n".join([*visible, lines.project, about, *names])
    set_forms = forms_of(set_text)
    shown = {w.casefold() for w in words_of(set_text)}
    for i, (head, sub) in enumerate(zip(lines.headlines, lines.subtitles)):
        own = (visible[i] if i < len(visible) else "") + "\n" + (names[i] if i < len(names) else "")
        own_forms = forms_of(own)
        stem = lines.files[i] if i < len(lines.files) else ""
        phrases = purposes.get(stem)
        if phrases:
            score.screens_judged += 1
            hit = has_purpose(f"{head} {sub}", phrases)
            score.purposeful += hit
            if verbose and not hit:
                print(f"      ? {stem}: no purpose phrase ({'; '.join(phrases)})")
        score.subtitles += 1
        score.informative += informative(sub, lines.project)
        for kind, line in (("headline", head), ("subtitle", sub)):
            words = content_words(line)
            missing = [w for w in words if not found(w, set_forms, set_text)]
            on_own = [w for w in words if found(w, own_forms, own)]
            faults = defects(line, kind, lines.project, shown)
            score.words += len(words)
            score.grounded += len(words) - len(missing)
            score.lines += 1
            score.naming += bool(on_own)
            score.clean += not faults
            score.left += not line.strip()
            if verbose:
                flag = "  " if on_own else "! "
                extra = f"   not on the screens: {', '.join(missing)}" if missing else ""
                extra += f"   defects: {', '.join(faults)}" if faults else ""
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
    ocr_only = "--ocr-only" in argv
    purposes_dir = PURPOSES
    if "--purposes" in argv:
        at = argv.index("--purposes")
        purposes_dir = Path(argv[at + 1])
        argv = argv[:at] + argv[at + 2 :]
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
            project = str(manifest.get("project_name") or "") if ocr_only else ""
            if ocr_only and not project:
                project = folder.name.replace("-", " ").title()
            purposes = purposes_of(folder, purposes_dir)
            for label, src in runs:
                lines = write_captions(folder, about, src, project)
                if visible is None:
                    visible = []
                    for image in lines.images:
                        path = Path(image)
                        text = full_ocr(path) if path.is_file() else ""
                        text += "\n" + dom_text(by_file.get(path.name, {}))
                        visible.append(text)
                if verbose:
                    print(f"   {label}:")
                score = measure(lines, visible, about, verbose, purposes)
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

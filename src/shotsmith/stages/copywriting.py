"""write_copy: a tagline per set, a headline and subtitle per screenshot.

The default writer is offline and deterministic: phrase banks
(``shotsmith/data/phrasebank.json``) hold headline + subtitle pairs per App Store
category and screen intent, plus generic banks per intent and a fallback pool. For
each set the stage picks, seeded by ``app_id`` + ``seed``, the first candidate that
obeys the copy rules (:func:`headline_problems`, :func:`subtitle_problems`) and keeps
the set varied (:func:`set_problems`): no repeated headline or subtitle, no two
headlines starting with the same word. Slide 1 carries the set's tagline.

An optional LLM backend (any OpenAI-compatible chat-completions endpoint, see
:mod:`shotsmith.llm`) writes the copy instead; its answer is held to the same rules
and on any failure the phrase banks write the set and ``copy_source`` says why.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import pandas as pd

from .. import llm as llm_mod
from ..columns import (
    APP_ID,
    COPY_HEADLINE,
    COPY_SOURCE,
    COPY_SUBTITLE,
    COPY_TAGLINE,
    DOMAIN_CATEGORY,
    FEATURES_INTENT,
    FEATURES_KEYWORDS,
    FEATURES_PHRASE,
    LOCALE,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    stage,
)
from ..errors import ShotsmithError
from .features import screen_subject, singular

# --------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------

HEADLINE_MAX_CHARS = 30
HEADLINE_WORDS = (2, 6)
SUBTITLE_MAX_CHARS = 60

#: Claims the stores reject (App Store review / Google Play metadata policy).
FORBIDDEN = (
    "best",
    "#1",
    "number one",
    "top",
    "free",
    "sale",
    "download now",
    "discount",
    "award",
    "ranked",
    "cheapest",
)
_FORBIDDEN_RE = re.compile(
    r"(?<![\w#])(?:best|top|free|sale|discounts?|awards?|ranked|cheapest|number\s+one"
    r"|download\s+now)(?![\w])|(?<![\w#])#\s?1(?!\d)",
    re.IGNORECASE,
)

#: Upper-case words and capitalised terms that are fine mid-sentence.
ACRONYMS = frozenset(
    [
        "AI",
        "API",
        "AR",
        "CSV",
        "DIY",
        "ETA",
        "EU",
        "GIF",
        "GPS",
        "HD",
        "HIIT",
        "ID",
        "ISO",
        "JPG",
        "MP3",
        "OK",
        "PDF",
        "PIN",
        "PNG",
        "QR",
        "RSS",
        "SMS",
        "SOS",
        "SSH",
        "SVG",
        "TV",
        "UK",
        "UPI",
        "URL",
        "US",
        "USB",
        "UV",
        "VPN",
        "4K",
        "2FA",
    ]
)
PROPER_TERMS = (
    "Face ID",
    "Touch ID",
    "Apple Pay",
    "Apple Watch",
    "iPhone",
    "iPad",
    "Mac",
    "Siri",
    "VoiceOver",
    "iCloud",
    "Google",
    "Android",
    "Git",
    "HealthKit",
    "CarPlay",
    "Wi-Fi",
    "Bluetooth",
)


def forbidden_words(text: str) -> list[str]:
    """Store-forbidden claims in ``text`` (case-insensitive, whole words)."""
    return [m.group(0) for m in _FORBIDDEN_RE.finditer(text or "")]


def _is_emoji(ch: str) -> bool:
    cp = ord(ch)
    if ch in "°·•–—’‘“”…€£¥₹©®":  # typography and currency are fine
        return ch in "©®"
    return (
        0x1F000 <= cp <= 0x1FAFF
        or 0x2600 <= cp <= 0x27BF
        or 0x2B00 <= cp <= 0x2BFF
        or cp in (0x200D, 0xFE0F, 0x20E3)
        or unicodedata.category(ch) in ("So", "Cs", "Co")
    )


def _words(text: str) -> list[str]:
    return text.split()


def _allowed_caps(text: str, proper: Iterable[str]) -> set[int]:
    """Character offsets of words that may be capitalised mid-sentence."""
    spans: set[int] = set()
    for term in (*PROPER_TERMS, *proper):
        if not term:
            continue
        for m in re.finditer(r"(?<!\w)" + re.escape(term) + r"(?!\w)", text):
            spans.update(range(m.start(), m.end()))
    return spans


def _case_problems(text: str, proper: Sequence[str], strict: bool) -> list[str]:
    problems = []
    letters = [c for c in text if c.isalpha()]
    if len(letters) >= 4 and all(c.isupper() for c in letters):
        return ["ALL CAPS"]
    allowed = _allowed_caps(text, proper)
    words = list(re.finditer(r"[A-Za-z][A-Za-z0-9'’-]*", text))
    if not words:
        return ["no words"]
    first = words[0].group(0)
    if not first[0].isupper() and first not in PROPER_TERMS and first not in proper:
        problems.append("does not start with a capital")
    caps = []
    for m in words[1:]:
        w = m.group(0)
        if m.start() in allowed:
            continue
        core = re.sub(r"['’].*$", "", w)
        if core[-1:] == "s" and core[:-1].isupper() and core[:-1] in ACRONYMS:
            continue  # "PDFs"
        if len(core) >= 2 and core.isupper() and core.upper() not in ACRONYMS and core != "I":
            problems.append(f"word in capitals: {w!r}")
        elif w[0].isupper() and w != "I" and core.upper() not in ACRONYMS:
            before = text[: m.start()].rstrip()
            if before.endswith(("?", ":", "!")):  # "Stuck? Get a hint"
                continue
            caps.append(w)
    if caps:
        if strict:
            problems.append(f"not sentence case: {', '.join(caps)}")
        elif len(words) >= 3 and len(caps) >= len(words) - 1:
            problems.append("Title Case, not sentence case")
    return problems


def headline_problems(
    headline: str, *, proper: Sequence[str] = (), strict: bool = True
) -> list[str]:
    """What is wrong with a headline (empty list: it is fine).

    Rules: 2-6 words, at most 30 characters, no trailing full stop or exclamation
    mark, no emoji, no ALL CAPS, sentence case (``strict``: every word after the first
    lower case unless a proper noun in ``proper`` or a known term; otherwise only Title
    Case is rejected), no store-forbidden claims.
    """
    problems = []
    if not isinstance(headline, str) or not headline.strip():
        return ["empty headline"]
    h = headline.strip()
    n = len(_words(h))
    if not HEADLINE_WORDS[0] <= n <= HEADLINE_WORDS[1]:
        problems.append(f"{n} words (needs {HEADLINE_WORDS[0]}-{HEADLINE_WORDS[1]})")
    if len(h) > HEADLINE_MAX_CHARS:
        problems.append(f"{len(h)} characters (max {HEADLINE_MAX_CHARS})")
    if h.endswith((".", "!")):
        problems.append("ends with punctuation")
    if "\n" in h:
        problems.append("line break")
    if any(_is_emoji(c) for c in h):
        problems.append("emoji")
    bad = forbidden_words(h)
    if bad:
        problems.append(f"forbidden word {bad[0]!r}")
    problems += _case_problems(h, proper, strict)
    return problems


def subtitle_problems(
    subtitle: str, *, proper: Sequence[str] = (), strict: bool = True
) -> list[str]:
    """What is wrong with a subtitle: one sentence ending in a full stop, ≤ 60 characters."""
    problems = []
    if not isinstance(subtitle, str) or not subtitle.strip():
        return ["empty subtitle"]
    s = subtitle.strip()
    if len(s) > SUBTITLE_MAX_CHARS:
        problems.append(f"{len(s)} characters (max {SUBTITLE_MAX_CHARS})")
    if not s.endswith("."):
        problems.append("does not end with a full stop")
    if re.search(r"[.!?]\s+\S", s[:-1]) or "\n" in s:
        problems.append("more than one sentence")
    if len(_words(s)) < 2:
        problems.append("too short")
    if any(_is_emoji(c) for c in s):
        problems.append("emoji")
    bad = forbidden_words(s)
    if bad:
        problems.append(f"forbidden word {bad[0]!r}")
    if strict:
        problems += _case_problems(s, proper, strict=True)
    else:
        problems += [p for p in _case_problems(s, proper, strict=False) if "Title" not in p]
    return problems


def first_word(headline: str) -> str:
    """The normalised first word of a headline ("Money," -> "money")."""
    words = _words(headline.strip().lower())
    if not words:
        return ""
    w = re.sub(r"['’]s$", "", words[0])
    return re.sub(r"[^\w'’-]", "", w)


def _norm(text: str) -> str:
    return re.sub(r"[^\w ]", "", " ".join(text.lower().split()))


def set_problems(
    headlines: Sequence[str], subtitles: Sequence[str], tagline: str = ""
) -> list[str]:
    """What is wrong with a set: repeated headlines/subtitles, shared first words,
    forbidden words in the tagline."""
    problems = []
    seen_h: dict[str, int] = {}
    seen_f: dict[str, int] = {}
    seen_s: dict[str, int] = {}
    for i, (h, s) in enumerate(zip(headlines, subtitles)):
        key = _norm(h)
        if key in seen_h:
            problems.append(f"headline {i + 1} repeats headline {seen_h[key] + 1}")
        seen_h.setdefault(key, i)
        fw = first_word(h)
        if fw in seen_f:
            problems.append(f"headlines {seen_f[fw] + 1} and {i + 1} both start with {fw!r}")
        seen_f.setdefault(fw, i)
        skey = _norm(s)
        if skey in seen_s:
            problems.append(f"subtitle {i + 1} repeats subtitle {seen_s[skey] + 1}")
        seen_s.setdefault(skey, i)
    if tagline and forbidden_words(tagline):
        problems.append(f"tagline has forbidden word {forbidden_words(tagline)[0]!r}")
    return problems


def copy_problems(
    headline: str, subtitle: str, *, proper: Sequence[str] = (), strict: bool = True
) -> list[str]:
    return [f"headline: {p}" for p in headline_problems(headline, proper=proper, strict=strict)] + [
        f"subtitle: {p}" for p in subtitle_problems(subtitle, proper=proper, strict=strict)
    ]


# --------------------------------------------------------------------------------------
# Phrase banks
# --------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def phrasebank() -> dict:
    """The phrase banks (parsed once)."""
    text = resources.files("shotsmith").joinpath("data/phrasebank.json").read_text("utf-8")
    return json.loads(text)


def _pairs(entries: Iterable[str]) -> list[tuple[str, str]]:
    out = []
    for entry in entries:
        head, _, sub = entry.partition("|")
        out.append((head.strip(), sub.strip()))
    return out


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_KEYWORD_INTENTS = frozenset(
    {"overview", "list", "stats", "planning", "library", "history", "shop", "detail", "feature"}
)
_NOT_NOUNS = frozenset(
    [
        "spent",
        "remaining",
        "available",
        "upcoming",
        "recent",
        "latest",
        "total",
        "balance",
        "amount",
        "start",
        "stop",
        "pause",
        "play",
        "open",
        "close",
        "create",
        "update",
        "updated",
        "delete",
        "share",
        "sync",
        "synced",
        "free",
        "best",
        "top",
        "sale",
        "daily",
        "weekly",
        "monthly",
        "yearly",
        "good",
        "great",
        "nice",
        "easy",
        "quick",
        "fast",
        "slow",
        "high",
        "low",
        "full",
        "empty",
        "other",
        "another",
        "each",
        "every",
        "next",
        "last",
        "first",
        "second",
        "third",
        "your",
        "mine",
        "ours",
        "their",
        "hello",
        "thanks",
        "thank",
        "please",
        "sorry",
    ]
)


@dataclass
class _Context:
    project: str
    things: str
    subject: str  # "" when the screen name has no usable subject
    keywords: list[str]

    def fill(self, template: str) -> str | None:
        values = {"project": self.project, "things": self.things}
        if self.subject:
            values["subject"] = self.subject
            values["Subject"] = self.subject[:1].upper() + self.subject[1:]
        for i, kw in enumerate(self.keywords[:3], start=1):
            values[f"kw{i}"] = kw
            values[f"Kw{i}"] = kw[:1].upper() + kw[1:]
        missing = [k for k in _PLACEHOLDER.findall(template) if not values.get(k)]
        if missing:
            return None
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def _usable_subject(screen: str, domain: str | None) -> str:
    subject = screen_subject(screen, domain)
    words = subject.split()
    if not (1 <= len(words) <= 2) or len(subject) > 16:
        return ""
    if not all(w.isalpha() for w in words) or forbidden_words(subject):
        return ""
    last = words[-1]
    if not (last.endswith("s") and not last.endswith(("ss", "us", "is"))):
        return ""  # templates read "Find {subject} fast": a plural noun fits, others may not
    return subject


def _usable_keywords(keywords: object, exclude: set[str]) -> list[str]:
    out = []
    if not isinstance(keywords, (list, tuple)):
        try:
            keywords = list(keywords)  # numpy arrays, pandas objects
        except TypeError:
            return []
    for kw in keywords:
        if not isinstance(kw, str):
            continue
        k = kw.strip().lower()
        if (
            not k.isalpha()
            or not 4 <= len(k) <= 12
            or k in exclude
            or k in _NOT_NOUNS
            or k.endswith(("ly", "ed"))
            or forbidden_words(k)
        ):
            continue
        if k not in out:
            out.append(k)
    return out


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return random.Random(int(digest[:16], 16))


def _shuffled(items: list, rng: random.Random) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


def _domain_bank(domain: str | None) -> dict:
    return phrasebank()["domains"].get(domain or "", {})


def _screen_words(screen: str) -> list[str]:
    raw = re.findall(r"[a-z0-9]+", (screen or "").lower())
    return list(dict.fromkeys([*raw, *(singular(w) for w in raw)]))


def _candidates(
    intent: str, domain: str | None, rng: random.Random, screen: str = ""
) -> list[tuple[str, str]]:
    """Captions to try for one screen, most specific first.

    Order: this category's entries for the intent *and* a word of the screen name
    ("wellness/sleep"), the generic ones for that, the category's entries for the
    intent, the generic ones (and keyword templates), then the category's and the
    generic "feature" entries, the category's other promises and the fallback pool.
    """
    bank = phrasebank()
    dom = _domain_bank(domain)
    generic = bank["generic"]
    out: list[tuple[str, str]] = []
    for word in _screen_words(screen):
        out += _shuffled(_pairs(dom.get(f"{intent}/{word}", [])), rng)
        out += _shuffled(_pairs(generic.get(f"{intent}/{word}", [])), rng)
    out += _shuffled(_pairs(dom.get(intent, [])), rng)
    general = _pairs(generic.get(intent, []))
    if intent in _KEYWORD_INTENTS:
        general += _pairs(generic.get("keywords", []))
    out += _shuffled(general, rng)
    if intent != "feature":
        out += _shuffled(_pairs(dom.get("feature", [])), rng)
        out += _shuffled(_pairs(generic.get("feature", [])), rng)
    out += _shuffled(_pairs(dom.get("promise", [])), rng)  # unused promises as filler
    fallback = _pairs(bank["fallback"])
    k = rng.randrange(len(fallback)) if fallback else 0
    return list(dict.fromkeys(out + fallback[k:] + fallback[:k]))


@dataclass
class SetCopy:
    tagline: str
    headlines: list[str]
    subtitles: list[str]


class _Picker:
    """Greedy choice under the set rules: first candidate that breaks nothing."""

    def __init__(self, proper: Sequence[str]):
        self.proper = proper
        self.headlines: set[str] = set()
        self.first_words: set[str] = set()
        self.subtitles: set[str] = set()

    def ok(self, head: str, sub: str, *, relax: int = 0) -> bool:
        if copy_problems(head, sub, proper=self.proper):
            return False
        if _norm(head) in self.headlines or _norm(sub) in self.subtitles:
            return False
        return not (relax < 1 and first_word(head) in self.first_words)

    def take(self, head: str, sub: str) -> None:
        self.headlines.add(_norm(head))
        self.first_words.add(first_word(head))
        self.subtitles.add(_norm(sub))

    def pick(self, candidates: list[tuple[str, str]], ctx: _Context) -> tuple[str, str]:
        for relax in (0, 1):  # relax the first-word rule only past ~30 screens in one set
            for head_t, sub_t in candidates:
                head, sub = ctx.fill(head_t), ctx.fill(sub_t)
                if head and sub and self.ok(head, sub, relax=relax):
                    self.take(head, sub)
                    return head, sub
        raise ShotsmithError(
            "write_copy: ran out of distinct captions for one set "
            f"({len(self.headlines)} written); split the set."
        )


def phrasebank_copy(
    app_id: str, project: str, domain: str | None, rows: Sequence[dict], *, seed: int = 0
) -> SetCopy:
    """Tagline + one headline/subtitle per row (dicts with intent, screen, keywords)."""
    dom = _domain_bank(domain)
    things = dom.get("things") or "everyday life"
    proper = _proper_words(project)
    picker = _Picker(proper)
    n = len(rows)
    heads: list[str] = [""] * n
    subs: list[str] = [""] * n
    base = _Context(project=project, things=things, subject="", keywords=[])

    # slide 1: the promise; its headline is the set's tagline
    promises = _shuffled(_pairs(dom.get("promise", [])), _rng(app_id, project, seed, "promise"))
    promises += _pairs(phrasebank()["domains"]["Productivity"]["promise"]) if not promises else []
    tagline = ""
    order = sorted(range(n), key=lambda i: (rows[i]["intent"] == "feature", i))
    if n:
        first = order.pop(order.index(0)) if 0 in order else order.pop(0)
        ctx0 = _context(rows[first], base, domain)
        cands = promises + _candidates(
            rows[first]["intent"],
            domain,
            _rng(app_id, seed, first, rows[first]["intent"]),
            rows[first]["screen"],
        )
        heads[first], subs[first] = picker.pick(cands, ctx0)
        tagline = heads[first]
    else:
        for head_t, _ in promises:
            head = base.fill(head_t)
            if head and not headline_problems(head, proper=proper):
                tagline = head
                break
    for i in order:
        ctx = _context(rows[i], base, domain)
        cands = _candidates(
            rows[i]["intent"], domain, _rng(app_id, seed, i, rows[i]["intent"]), rows[i]["screen"]
        )
        heads[i], subs[i] = picker.pick(cands, ctx)
    return SetCopy(tagline, heads, subs)


def _context(row: dict, base: _Context, domain: str | None) -> _Context:
    screen = str(row.get("screen") or "")
    subject = _usable_subject(screen, domain)
    exclude = set(re.findall(r"[a-z]+", screen.lower())) | set(subject.split())
    exclude |= {w.lower() for w in _proper_words(base.project)}
    return _Context(
        base.project, base.things, subject, _usable_keywords(row.get("keywords"), exclude)
    )


def _proper_words(project: str) -> list[str]:
    project = (project or "").strip()
    return [project, *project.split()] if project else []


# --------------------------------------------------------------------------------------
# LLM copy (validated like the phrase banks, leniently on proper nouns)
# --------------------------------------------------------------------------------------


def _clean_llm_line(text: object, *, headline: bool) -> str:
    if not isinstance(text, str):
        return ""
    t = " ".join(text.split()).strip().strip('"“”')
    if headline:
        t = t.rstrip(".").rstrip()
    elif t and t[-1] not in ".!?":
        t += "."
    return t


def llm_copy(
    config: llm_mod.LLMConfig,
    app_id: str,
    project: str,
    domain: str | None,
    locale: str,
    rows: Sequence[dict],
) -> SetCopy:
    """Ask the LLM for one set's copy; raise LLMError with a short reason when unusable."""
    brief = {
        "app_name": project,
        "category": domain or "unknown",
        "locale": locale,
        "screens": [
            {
                "position": i + 1,
                "screen": r.get("screen", ""),
                "intent": r["intent"],
                "offers": r.get("phrase", ""),
                "keywords": list(r.get("keywords") or [])[:8],
            }
            for i, r in enumerate(rows)
        ],
    }
    answer = llm_mod.request_copy(config, brief)
    screens = answer.get("screens")
    if not isinstance(screens, list) or len(screens) != len(rows):
        got = len(screens) if isinstance(screens, list) else type(screens).__name__
        raise llm_mod.LLMError(f"expected {len(rows)} screens, got {got}")
    heads, subs = [], []
    for s in screens:
        if not isinstance(s, dict):
            raise llm_mod.LLMError("a screen entry is not an object")
        heads.append(_clean_llm_line(s.get("headline"), headline=True))
        subs.append(_clean_llm_line(s.get("subtitle"), headline=False))
    tagline = _clean_llm_line(answer.get("tagline"), headline=True) or (heads[0] if heads else "")
    proper = _proper_words(project)
    for i, (h, s) in enumerate(zip(heads, subs), start=1):
        problems = copy_problems(h, s, proper=proper, strict=False)
        if problems:
            raise llm_mod.LLMError(f"screen {i} {problems[0]}")
    problems = [f"tagline: {p}" for p in headline_problems(tagline, proper=proper, strict=False)]
    problems += set_problems(heads, subs, tagline)
    if problems:
        raise llm_mod.LLMError(problems[0])
    return SetCopy(tagline, heads, subs)


# --------------------------------------------------------------------------------------
# The stage
# --------------------------------------------------------------------------------------

BACKENDS = ("phrasebank", "llm", "auto")


def _is_english(locale: str) -> bool:
    return not locale or locale.lower().split("-")[0].split("_")[0] == "en"


@stage(
    "write_copy",
    requires=(
        APP_ID,
        POSITION,
        PROJECT_NAME,
        DOMAIN_CATEGORY,
        FEATURES_INTENT,
        FEATURES_PHRASE,
        FEATURES_KEYWORDS,
    ),
    provides=(COPY_TAGLINE, COPY_HEADLINE, COPY_SUBTITLE, COPY_SOURCE),
    optional=(LOCALE, SCREEN),
)
def write_copy(
    frame: pd.DataFrame,
    *,
    backend: str = "phrasebank",
    llm: llm_mod.LLMConfig | None = None,
    seed: int = 0,
) -> pd.DataFrame:
    """Tagline per set, headline + subtitle per screenshot, from phrase banks or an LLM.

    ``backend``: ``"phrasebank"`` (default, offline, deterministic), ``"llm"`` (the
    ``llm`` config, else ``LLMConfig.from_env()``; falls back to the phrase banks on any
    failure and says why in ``copy_source``), ``"auto"`` (llm when configured, else
    phrase banks). ``seed`` picks other, equally valid phrase-bank copy.
    """
    if backend not in BACKENDS:
        raise ShotsmithError(f"write_copy: backend={backend!r} is not one of {BACKENDS}.")
    config = llm
    if backend in ("llm", "auto") and config is None:
        config = llm_mod.LLMConfig.from_env()
    use_llm = backend == "llm" or (backend == "auto" and config is not None)

    n = len(frame)
    tagline_col: list[str] = [""] * n
    head_col: list[str] = [""] * n
    sub_col: list[str] = [""] * n
    source_col: list[str] = [""] * n

    groups: dict[object, list[int]] = {}
    for k, app in enumerate(frame[APP_ID].tolist()):
        groups.setdefault(app, []).append(k)
    pos_values = frame[POSITION].tolist()
    col = {
        c: frame[c].tolist()
        for c in (
            PROJECT_NAME,
            DOMAIN_CATEGORY,
            FEATURES_INTENT,
            FEATURES_PHRASE,
            FEATURES_KEYWORDS,
        )
    }
    screens = frame[SCREEN].tolist() if SCREEN in frame.columns else [""] * n
    locales = frame[LOCALE].tolist() if LOCALE in frame.columns else ["en-US"] * n

    for app_id, members in groups.items():
        members = sorted(members, key=lambda k: (pos_values[k], k))
        first = members[0]
        project = str(col[PROJECT_NAME][first] or "").strip()
        domain = col[DOMAIN_CATEGORY][first]
        domain = domain if isinstance(domain, str) else None
        locale = str(locales[first] or "en-US")
        rows = [
            {
                "intent": str(col[FEATURES_INTENT][k] or "feature"),
                "phrase": str(col[FEATURES_PHRASE][k] or ""),
                "keywords": col[FEATURES_KEYWORDS][k],
                "screen": str(screens[k] or ""),
            }
            for k in members
        ]
        result: SetCopy | None = None
        notes: list[str] = []
        source = "phrasebank"
        if use_llm:
            if config is None:
                notes.append(
                    "llm failed: not configured (set SHOTSMITH_LLM_BASE_URL and "
                    "SHOTSMITH_LLM_MODEL)"
                )
            else:
                try:
                    result = llm_copy(config, str(app_id), project, domain, locale, rows)
                    source = f"llm:{config.model}"
                except llm_mod.LLMError as exc:
                    notes.append(f"llm failed: {exc.short}")
        if result is None:
            result = phrasebank_copy(str(app_id), project, domain, rows, seed=seed)
            if not _is_english(locale):
                notes.append(f"en only; locale {locale}")
            if notes:
                source = f"phrasebank ({'; '.join(notes)})"
        for k, h, s in zip(members, result.headlines, result.subtitles):
            tagline_col[k], head_col[k], sub_col[k], source_col[k] = result.tagline, h, s, source

    frame[COPY_TAGLINE] = tagline_col
    frame[COPY_HEADLINE] = head_col
    frame[COPY_SUBTITLE] = sub_col
    frame[COPY_SOURCE] = source_col
    return frame

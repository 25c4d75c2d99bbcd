"""Screen intent, subject, phrase and keywords: what kind of screen this is, in words.

The intent comes from the screen's name first, then its title and visible text (with
the App Store category as context when it is known); the phrase says what such a screen
offers using only the screen's own subject (never a category's stock phrase); keywords
are the salient words of the name and the text. The words themselves are data
(``data/features.json``, read by :mod:`.vocabulary`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection
from functools import lru_cache

from .vocabulary import vocabulary

#: A word of any script: letters (Unicode word characters without digits or "_"), with
#: inner apostrophes and hyphens ("don't", "check-in", "Straße", "東京").
_LETTER = r"[^\W\d_]"
_TOKEN = re.compile(rf"{_LETTER}(?:(?:{_LETTER}|['’-])*{_LETTER})?")
_WORDS = re.compile(rf"{_LETTER}+")
#: Letters and digits of any script: the parts of a screen name.
_NAME_TOKEN = re.compile(r"[^\W_]+")
_VOWEL = re.compile(r"[aeiouy]")
_HAS_DIGIT_OR_MONEY = re.compile(r"[\d$€£¥%#@]")


def singular(word: str) -> str:
    """Crude English singular, good enough for matching screen names ("budgets" -> "budget")."""
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 5 and w.endswith("zzes"):
        return w[:-3]
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is", "news", "ics")):
        return w[:-1]
    return w


def _name_tokens(screen: str) -> list[str]:
    words = _NAME_TOKEN.findall(str(screen or "").lower().replace("-", " "))
    return [singular(w) if not w.isdigit() else w for w in words]


def plausible_word(token: str) -> bool:
    """Keep real-looking words; drop OCR noise like 'sSyol', 'lll' or 'e@'."""
    core = token.strip("'’-")
    if not core.isascii():  # another script (or accents): no English vowel rules apply
        return _plausible_other_script(core)
    if len(core) < 3 or len(core) > 18:
        return False
    if not (core.islower() or core.istitle() or core.isupper()):
        return False
    low = core.lower()
    if not _VOWEL.search(low) or re.search(r"(.)\1\1", low):
        return False
    return not re.search(r"[bcdfghjklmnpqrstvwxz]{6,}", low)  # no 6 consonants in a row


def _plausible_other_script(core: str) -> bool:
    """A word with letters beyond ASCII. Accented Latin ("café", "Straße") keeps the rules
    of :func:`plausible_word` on its letters without accents; other cased scripts
    (Cyrillic, Greek) keep the length and case rules; scripts without case (CJK, Arabic,
    Devanagari) need only be letters, not one repeated three times."""
    if len(core) > 30 or not all(ch.isalpha() or ch in "'’-" for ch in core):
        return False
    bare = unicodedata.normalize("NFKD", core).encode("ascii", "ignore").decode()
    if bare and len(bare) >= len(core) - 1 and bare.isalpha():  # Latin with accents
        return plausible_word(bare)
    if core.lower() == core.upper():  # a script without case
        return not re.search(r"(.)\1\1", core)
    return 3 <= len(core) and (core.islower() or core.istitle() or core.isupper())


def keywords_of(screen: str, text: str, *, limit: int = 8, project: str = "") -> list[str]:
    """Salient words: the screen name's first, then the visible text's by frequency.

    Stop words, interface chrome, numbers, prices and OCR noise are dropped; singular
    and plural forms count once; the app's own name is left out.
    """
    project_words = {w.lower() for w in _WORDS.findall(project or "")}
    seen: set[str] = set()
    out: list[str] = []

    def consider(word: str) -> None:
        low = word.lower().strip("'’-").replace("’", "'")
        low = low.removesuffix("'s")
        key = singular(low)
        if (
            key in seen
            or low in vocabulary().stop_words
            or low in vocabulary().ui_words
            or key in vocabulary().ui_words
            or low in project_words
            or (len(low) < 3 and low.upper() != low)  # "東京" is a word, "ok" is not
        ):
            return
        seen.add(key)
        out.append(low)

    for word in _WORDS.findall(str(screen or "")):
        if not re.fullmatch(r"screen|image|shot|screenshot", word.lower()):
            consider(word)
    counts: Counter[str] = Counter()
    first_at: dict[str, int] = {}
    display: dict[str, str] = {}
    for line_no, line in enumerate((text or "").splitlines()):
        for raw in line.split():
            if _HAS_DIGIT_OR_MONEY.search(raw):
                continue
            for tok in _TOKEN.findall(raw):
                if not plausible_word(tok):
                    continue
                low = tok.lower()
                key = singular(low.strip("'’-"))
                counts[key] += 1
                first_at.setdefault(key, line_no)
                display.setdefault(key, low)
    for key in sorted(counts, key=lambda k: (-counts[k], first_at[k])):
        if len(out) >= limit:
            break
        consider(display[key])
    return out[:limit]


# --------------------------------------------------------------------------------------
# Intent
# --------------------------------------------------------------------------------------


def _match_name(
    tokens: list[str], domain: str | None, raw: list[str] | None = None
) -> tuple[str | None, set[int]]:
    """Best intent named by these tokens, and which token positions said it.

    ``tokens`` are singular forms; ``raw`` the words as written (a plural can mean
    something else: "products" is a shop, "product" a detail page).
    """
    raw = raw if raw is not None and len(raw) == len(tokens) else tokens
    candidates: list[tuple[int, int, str, set[int]]] = []  # (weight, -position, intent, span)
    for n in (3, 2, 1):
        for i in range(len(tokens) - n + 1):
            span = set(range(i, i + n))
            for gram in dict.fromkeys((" ".join(raw[i : i + n]), " ".join(tokens[i : i + n]))):
                override = vocabulary().domain_overrides.get((gram, domain or ""))
                if override:
                    candidates.append((3 + n, -i, override, span))
                    break
                hits = [
                    (intent, words[gram])
                    for intent, words in vocabulary().intents.items()
                    if words.get(gram)
                ]
                for intent, w in hits:
                    candidates.append((w + (n - 1) * 2, -i, intent, span))
                if hits:
                    break
    if not candidates:
        return None, set()
    candidates.sort(key=lambda c: (c[0], c[1]), reverse=True)
    winner = candidates[0][2]
    used: set[int] = set()
    for c in candidates:  # every token that pointed at the winning intent
        if c[2] == winner:
            used |= c[3]
    return winner, used


def _raw_tokens(screen: str) -> list[str]:
    return _NAME_TOKEN.findall(str(screen or "").lower().replace("-", " "))


@lru_cache(maxsize=1)
def _cue_patterns() -> dict[str, tuple[re.Pattern[str], ...]]:
    """Each intent's text cues as patterns, built once from ``text_cues`` (whole words)."""
    return {
        intent: tuple(re.compile(rf"(?<!{_LETTER}){re.escape(cue)}(?!{_LETTER})") for cue in cues)
        for intent, cues in vocabulary().text_cues.items()
    }


#: A month and its year on their own: a calendar's heading ("November 2026").
_MONTH_HEADING = re.compile(rf"^\s*{_LETTER}+,?\s+\d{{4}}\s*$")


def undated_lines(text: str) -> str:
    """The lines of ``text`` without a figure, and a month's heading ("November 2026"):
    where a calendar's words (its weekdays, its months) say it is a calendar. A row's
    time stamp ("Wed Nov 25, 11:10 p.m.") marks when a message was sent, not a calendar."""
    return "\n".join(
        line
        for line in text.splitlines()
        if not re.search(r"\d", line) or _MONTH_HEADING.match(line)
    )


def _match_text(title: str, text: str, domain: str | None) -> str | None:
    """Intent from visible text: the title like a name, else content cues (≥ 2 hits)."""
    tokens = _name_tokens(title)
    # a row of tab-bar labels ("Home Search Profile") is not a title
    if title and len(tokens) <= 6 and sum(t in vocabulary().navigation for t in tokens) < 2:
        intent, _ = _match_name(tokens, domain, _raw_tokens(title))
        if intent:
            return intent
    low = " " + re.sub(r"\s+", " ", (text or "").lower()) + " "
    undated = " " + re.sub(r"\s+", " ", undated_lines(text or "").lower()) + " "
    scores: Counter[str] = Counter()
    for intent, cues in _cue_patterns().items():
        where = undated if intent == "calendar" else low
        hits = sum(bool(cue.search(where)) for cue in cues)
        if hits:
            scores[intent] = hits
    if not scores:
        return None
    ranked = scores.most_common(2)
    top, hits = ranked[0]
    if hits >= 2 and (len(ranked) == 1 or hits > ranked[1][1]):
        return top
    return None


def screen_intent(
    screen: str,
    text: str = "",
    *,
    domain: str | None = None,
    position: int | None = None,
    title: str = "",
    tabs: Collection[str] = (),
) -> str:
    """The intent of one screen: its name first, then its visible text, then a default.
    With no title, the first line of text stands for it, unless that line is one of the
    ``tabs`` (a nav bar's "Profiles" names another screen, not this one): then none does."""
    intent, _ = _match_name(_name_tokens(screen), domain, _raw_tokens(screen))
    if intent:
        return intent
    if not title and text:
        title = next((ln for ln in text.splitlines() if sum(c.isalpha() for c in ln) >= 3), "")
        if title.strip().casefold() in {t.casefold() for t in tabs}:
            title = ""
    intent = _match_text(title, text, domain)
    if intent:
        return intent
    return "overview" if position == 0 else "feature"


def screen_subject(screen: str, domain: str | None = None) -> str:
    """What a screen name is about once its intent words are removed ("flights")."""
    raw = _raw_tokens(screen)
    tokens = [singular(w) for w in raw]
    _, used = _match_name(tokens, domain, raw)
    keep = [
        w
        for i, w in enumerate(raw)
        if i not in used
        and w not in vocabulary().stop_words
        and w not in vocabulary().ui_words
        and not w.isdigit()
        and w not in ("screen", "tab", "page", "view", "my", "select")
    ]
    return " ".join(keep)


def screen_phrase(intent: str, screen: str, domain: str | None = None, title: str = "") -> str:
    """What the screen offers, in the screen's own words: the intent's phrase around the
    subject its name gives, else its title, else its name (never a category's stock
    phrase: "turn-by-turn directions" is not what an unnamed map screen shows)."""
    things = screen_subject(screen, domain) or title.strip()
    if not things:
        name = " ".join(_WORDS.findall(str(screen or "").lower()))
        things = name if name and not name.startswith("screen") else "the app"
    return vocabulary().phrases.get(intent, "{s}").format(s=things)

"""Store text beside the pictures: an App Store subtitle, promotional text and keywords.

The product page needs more words than the screenshots carry, and they are held to the
same rule as the captions: say only what the screens show. So all three are built from
the set's own lines and evidence, never from a template of promises:

* **subtitle** (≤ 30 characters): the set's tagline, else the shortest headline that
  fits. Those lines are already grounded (or the user's own).
* **promotional text** (≤ 170): written, not concatenated: one sentence about the app
  naming what its screens are for ("Actual Budget brings your budget, accounts and
  transactions together."; "Wanderly keeps all your bookings in one place." when one
  screen names its feature), from each screen's subject (the reading
  ``extract_features`` made), then the set's most concrete subtitle when it fits: two
  sentences at most. A set whose screens name no feature falls back to two of its own
  subtitles, filler left out.
* **keywords** (≤ 100, comma-separated, no spaces after commas as Apple counts them):
  features, never content: the screens' subjects first, then the words of their titles,
  headings and tabs, the fields that name a feature ("balance", not "whom") and the
  feature words of the user's description; never a word of the app's name (Apple indexes
  the name already and rejects repeats), nor an example the screens show (a book, a payee,
  a person), a field's value, a figure, a name written in capitals ("Avery", "Uber": a
  word the dictionary knows only in lower case counts, a name does not), no neutral
  filler, no duplicates, no store-forbidden claims, cut at a whole keyword. The category
  itself is left out: the store indexes it already.

Limits are counted in characters as the store counts them (code points, so a CJK
character counts one). Each field records the evidence it rests on.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from ...grounding import content_words, vocabulary, word_forms, words_of
from ...words import is_common_word, is_modifier, is_plural, is_verb_only, plural, word_frequency
from ..features.reading import is_feature_phrase, is_person
from .evidence import ScreenEvidence, is_content_title
from .rules import acronyms, as_acronym, forbidden_words


@lru_cache(maxsize=1)
def _skip() -> frozenset[str]:
    """Words on screens that are no search term: greetings, chrome, dates, states, the
    generic section names (``data/copy_vocabulary.json``)."""
    data = json.loads(
        resources.files("shotsmith").joinpath("data/copy_vocabulary.json").read_text("utf-8")
    )
    keys = ("keyword_skip", "chrome", "calendar_words", "weak_titles", "states", "generic_sections")
    return frozenset(w.casefold() for k in keys for w in data.get(k, []) if " " not in w)


SUBTITLE_MAX = 30
PROMOTIONAL_MAX = 170
KEYWORDS_MAX = 100


@dataclass
class StoreText:
    subtitle: str
    promotional_text: str
    keywords: str
    evidence: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "subtitle": self.subtitle,
            "promotional_text": self.promotional_text,
            "keywords": self.keywords,
            "evidence": self.evidence,
        }


def _subtitle(tagline: str, headlines: Sequence[str], project: str) -> str:
    name = project.casefold().strip()
    for line in [tagline, *sorted(headlines, key=len)]:
        line = " ".join((line or "").split())
        if line and len(line) <= SUBTITLE_MAX and line.casefold() != name:
            return line
    return ""


def _feature(subject: str) -> str:
    """A subject as it reads mid-sentence: lower case but for names and acronyms."""
    words = []
    for word in subject.split():
        if word.isupper():
            keep = len(word) <= 3 or word in acronyms()  # "CSV"; "BOOKS" is styling
        else:
            keep = any(c.isupper() for c in word[1:])  # "iPhone", "GitHub"
        words.append(word if keep else as_acronym(word) or word.lower())
    return " ".join(words)


def _a_sort_order(phrase: str) -> bool:
    """A participle and a preposition ("sorted by memory", "filtered by tag")."""
    words = [w.casefold() for w in words_of(phrase)]
    if "sort" in words[1:]:
        return True  # "contacts sort Name": a column's sort control
    return len(words) >= 2 and is_verb_only(words[0]) and words[1] in vocabulary().function_words


def _a_name(phrase: str, project: str) -> bool:
    """Whether a subject is a name, no feature: a path ("laptop/Documents") or a query
    ("tags:walking"), the app's own viewer ("Mirador viewer"), a place or a person after
    its first word ("Trip to Porto")."""
    if "/" in phrase or ":" in phrase:  # "tags:walking": a search's query
        return True
    words = words_of(phrase)
    own = {w.casefold() for w in words_of(project)}
    if own and own <= {w.casefold() for w in words}:
        return True  # the app's whole name: not "budget" of Actual Budget
    return any(w[:1].isupper() and not w.isupper() and not is_common_word(w) for w in words[1:])


def set_features(evidence: Sequence[ScreenEvidence], project: str = "") -> list[str]:
    """The set's features in store order: each screen's subject, once, never a weak one."""
    voc = vocabulary()
    skip = voc.weak_titles | voc.generic_sections
    out: list[str] = []
    for ev in evidence:
        named = ev.subject or (ev.title if not ev.kind else "")  # a frame with no reading
        subject = re.sub(
            r"^(?:(?:new|add|create|edit)\s+)?(?:(?:a|an|the)\s+)?(?:new\s+)?",
            "",
            named.strip(),
            flags=re.I,
        )
        subject = re.sub(r"^[^\W\d_]+['’]s\s+", "", subject)  # "sam's Collections"
        if not subject or subject.casefold() in skip or any(c.isdigit() for c in subject):
            continue
        if len(subject) > 24 or forbidden_words(subject):
            continue
        if is_content_title(ev.kind, ev.subject.strip()) or ev.kind == "sign-in":
            continue  # "English oak": the article read; "Sign": the door; no features
        if _a_sort_order(subject) or _a_name(subject, project):
            continue  # "sorted by memory": how a screen orders its rows, not a feature
        phrase = _feature(subject)
        if ev.kind == "form" and not is_plural(phrase) and is_feature_phrase(phrase, strict=True):
            phrase = plural(phrase)  # "New Transaction" is where transactions come from
        elif ev.kind == "detail" and len(phrase.split()) == 1 and not is_plural(phrase):
            phrase = plural(phrase)  # "Bug #11" is one of the app's bugs
        if all(word_forms(w).isdisjoint(_forms(o)) for o in out for w in words_of(phrase)):
            out.append(phrase)
    return out


def _forms(phrase: str) -> set[str]:
    return {f for w in words_of(phrase) for f in word_forms(w)}


def _sentence(project: str, features: Sequence[str]) -> str:
    if not features or not project:
        return ""
    if len(features) == 1:  # "Wanderly keeps all your bookings in one place."
        line = f"{project} keeps all your {features[0]} in one place."
        if is_plural(features[0]) and len(line) <= PROMOTIONAL_MAX:
            return line
        return ""
    single = [f for f in features if " and " not in f]
    features = single if len(single) >= 2 else features  # not "books and e-books and poll"
    for n in range(min(3, len(features)), 1, -1):  # three at most: a sentence, not a list
        named = ", ".join(features[: n - 1]) + " and " + features[n - 1]
        line = f"{project} brings your {named} together."
        if len(line) <= PROMOTIONAL_MAX:
            return line
    return ""


def _promotional(
    subtitles: Sequence[str], project: str = "", evidence: Sequence[ScreenEvidence] = ()
) -> str:
    out: list[str] = []
    opening = _sentence(project, set_features(evidence, project)) if evidence else ""
    if opening:
        out.append(opening)
    name = {w.casefold() for w in words_of(project)}
    for sentence in dict.fromkeys(" ".join((s or "").split()) for s in subtitles):
        if not sentence:
            continue
        own = [w for w in content_words(sentence) if w.casefold() not in name]
        if not own:
            continue  # filler says nothing of the app
        if opening and {f for w in own for f in word_forms(w)} <= _forms(opening):
            continue  # says again what the opening sentence said
        if len(out) >= 2:
            break  # one written sentence and one concrete one: the page reads, not lists
        joined = (
            " ".join([*out, sentence]) if not _cjk_join(sentence) else "".join([*out, sentence])
        )
        if len(joined) > PROMOTIONAL_MAX:
            continue
        out.append(sentence)
    if out and _cjk_join(out[0]):
        return "".join(out)
    return " ".join(out)


def _cjk_join(text: str) -> bool:
    return text.endswith(("。", "．", "！", "？"))


def _keywords(
    evidence: Sequence[ScreenEvidence], project: str, locale: str, about: str = ""
) -> tuple[str, list[str]]:
    name_forms = {f for w in words_of(project) for f in word_forms(w)}
    content = {
        f
        for ev in evidence
        for text in (*ev.examples,)
        for w in words_of(text)
        for f in word_forms(w)
    }
    on_screens = Counter(
        lb.casefold()
        for ev in evidence
        for lb in {x for x in ev.labels if len(x.split()) <= 2}
        if is_feature_phrase(lb, strict=True)
    )
    shared_labels = {lb for lb, n in on_screens.items() if n >= 2}
    tab_screens = Counter(t.casefold() for ev in evidence for t in set(ev.tabs))
    # a set's menu stands on several of its screens; a row of one screen's links that
    # reads like a menu (a dictionary's matches: "Light iron", "Light keeper") does not
    menu = {t for t, n in tab_screens.items() if n >= 2 or len(evidence) < 3}
    counts: Counter[str] = Counter()
    first_seen: dict[str, str] = {}
    sources: dict[str, str] = {}
    skip = _skip()
    for ev in evidence:
        seen_here: set[str] = set()
        weighted = _weighted(ev, menu, shared_labels)
        if ev is evidence[0] and about:  # the user's own description of the app
            weighted += [(p, 1) for p in _about_phrases(about)]
        for text, weight in weighted:
            if not text:
                continue
            for n, word in enumerate(content_words(text, locale)):
                key = word.casefold()
                if (
                    len(word) < 2
                    or (word.isascii() and len(word) < 4)  # FRI, SFO, OCR splinters
                    or (n > 0 and word[:1].isupper() and not word.isupper())  # "Sam"
                    or key in skip
                    or any(ch.isdigit() for ch in word)
                    or word_forms(word) & name_forms
                    or forbidden_words(word)
                    or (word_forms(word) & content and text != ev.subject)
                    or not _known_in_lower_case(word)
                    or is_person(word)
                    or not _a_noun(word)
                ):
                    continue
                if key not in seen_here:
                    counts[key] += weight
                    seen_here.add(key)
                first_seen.setdefault(key, word.lower() if word[:1].isupper() else word)
                sources.setdefault(key, text)
    chosen: list[str] = []
    used_forms: set[str] = set()
    order = sorted(counts, key=lambda k: (-counts[k], list(first_seen).index(k)))
    for key in order:
        forms = word_forms(key)
        if forms & used_forms:
            continue  # "plan" and "plans": one keyword
        candidate = ",".join([*chosen, first_seen[key]])
        if len(candidate) > KEYWORDS_MAX:
            continue
        chosen.append(first_seen[key])
        used_forms |= forms
    return ",".join(chosen), [sources[k.casefold()] for k in chosen]


def _weighted(ev: ScreenEvidence, menu: set[str], shared_labels: set[str]) -> list[tuple[str, int]]:
    """A screen's texts that may give search terms, with their weight."""
    # the screen's sections weigh more than a heading; buttons and list items are
    # too particular (a user's data) to be search terms
    return [
        ("" if is_content_title(ev.kind, ev.subject.strip()) else ev.subject, 3),
        (ev.title if is_feature_phrase(ev.title) else "", 2),
        *((t, 2) for t in ev.tabs if t.casefold() in menu and _a_section(t)),
        # a column or form field is a search term only when it names a feature
        # ("balance", "category"), never a value's label ("whom", "added")
        *((f, 1) for f in ev.fields if is_feature_phrase(f, strict=True)),
        # a section's heading, not a post's or a record's title ("Reader questions:
        # boots, buses and bad weather")
        *((h, 1) for h in ev.headings if is_feature_phrase(h) and _a_section(h)),
        # a label the app shows on two screens or more is its vocabulary, not a row
        *((lb, 1) for lb in ev.labels if lb.casefold() in shared_labels),
    ]


def _a_noun(word: str) -> bool:
    """Whether a word may be searched for as a thing: not a button's verb ("Save",
    "Maximize"), nor a word that only describes ("currently", "edited", "newest")."""
    key = word.casefold()
    voc = vocabulary()
    if key in voc.ui_verbs | voc.mechanic_verbs and key not in voc.verbs_also_nouns:
        return False
    return not is_modifier(key)


def _a_section(text: str) -> bool:
    """Whether a tab or heading may name a section of the app: a few words, none a file's
    name ("lisbon-tagus-sunset.jpg"), no title's colon, and in Title Case only common words
    ("Berger Family Photos" is someone's name for their library)."""
    words = text.split()
    if len(words) > SECTION_WORDS or ":" in text or re.search(r"\w\.\w", text):
        return False
    titled = len(words) >= 2 and all(w[:1].isupper() for w in words)
    return not titled or all(is_common_word(w) for w in words_of(text))


#: A section's name is at most this many words ("Expenses by month").
SECTION_WORDS = 3


def _about_phrases(about: str) -> list[str]:
    """The feature words of the user's description ("track shared expenses" -> expenses)."""
    return [w for w in words_of(about) if is_feature_phrase(w, strict=True)]


def _known_in_lower_case(word: str) -> bool:
    """A word people write in lower case ("budget"), not only as a name ("Avery", "Uber")."""
    if not word.isascii() or not word.isalpha():
        return True  # other scripts: no dictionary test here
    return word_frequency(word.casefold()) >= 3.0


def store_text(
    *,
    project: str,
    locale: str,
    tagline: str,
    headlines: Sequence[str],
    subtitles: Sequence[str],
    evidence: Sequence[ScreenEvidence],
    about: str = "",
) -> StoreText:
    """The App Store subtitle, promotional text and keyword field of one set and locale."""
    subtitle = _subtitle(tagline, headlines, project)
    promo = _promotional(subtitles, project, evidence)
    keywords, keyword_sources = _keywords(evidence, project, locale, about)
    return StoreText(
        subtitle=subtitle,
        promotional_text=promo,
        keywords=keywords,
        evidence={
            "subtitle": [subtitle] if subtitle else [],
            "promotional_text": [
                *set_features(evidence, project),
                *(s for s in subtitles if s and s in promo),
            ],
            "keywords": list(dict.fromkeys(keyword_sources)),
        },
    )

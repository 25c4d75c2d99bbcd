"""The critic: every generated line is read once more before it ships.

It rejects what a marketer would strike out, with the reason (``copy_evidence`` keeps
the reasons of the lines that were passed over):

* a **word fragment**: a word no dictionary knows (``wordfreq``) written in lower case,
  or a capitalised one that is the cut-off start of a longer word on the screens
  ("pric" of "price", "Everyday Checkin");
* a **doubled word** ("and and"), **dangling punctuation** (",." or a comma before the
  end), a line that **ends on a joining word** ("... and", "... in");
* **data as words**: true/false, null, a date or a figure standing alone;
* **filler**: a subtitle with nothing of its own screen in it (only the neutral
  vocabulary and the app's name: "Open it and see.");
* a **list that names one thing twice** ("the trials, trial and note", "the status and
  page status");
* an **assembled token list**: three or more bare items in a row with no verb or frame
  around them ("Kale, purple sprouting broccoli.").

Repeats across a set are the writer's to refuse (it keeps what the set has said). The
user's own copy is never criticised; LLM answers are, like the offline writer's lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...grounding import is_neutral, word_forms, words_of
from ...words import WORD_FREQUENCY, singular, word_frequency
from ..features.reading import tables

_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_DANGLING = re.compile(r"[,;:]\s*[.!?]$|\s[,;:.]|,\s*,|[,;:]$")
_ENDS = frozenset("and or in of the a an to with for at by from on using via into".split())
#: A preposition left open before the frame's own: "Your rooms for at a glance".
_OPEN_PREPOSITION = re.compile(
    r"\b(?:for|of|with|from|by|using|via|into|the|a|an)\s+(?:at|in|on)\s", re.I
)


def word_pairs(texts: Iterable[str]) -> frozenset[tuple[str, str]]:
    """Each two words that stand side by side on the screens (folded): worked out once per
    set and handed to :func:`line_problems` as ``screen_texts``."""
    pairs: set[tuple[str, str]] = set()
    for text in texts:
        words = [w.casefold() for w in words_of(text)]
        pairs.update(zip(words, words[1:]))
    return frozenset(pairs)


def fragments(
    line: str,
    screen_words: Iterable[str],
    screen_texts: Iterable[str] | frozenset[tuple[str, str]] = (),
) -> list[str]:
    """Words that are pieces of words: never written anywhere ("ipyker"), rare and the
    cut-off start of a longer word on the screens ("pric" of "price"), or a word the
    screens show whole right after the same word ("Everyday Checkin" where the screens
    also say "Everyday Checking": the reader cut it)."""
    known = {w.casefold() for w in screen_words}
    if isinstance(screen_texts, frozenset):
        pairs: frozenset[tuple[str, str]] = screen_texts  # worked out once by the writer
    else:
        pairs = word_pairs(screen_texts)
    out = []
    words = words_of(line)
    for n, word in enumerate(words):
        low = word.casefold()
        if not low.isalpha() or not low.isascii() or len(low) < 3 or is_neutral(low):
            continue
        frequency = word_frequency(low)
        longer = [k for k in known if k != low and k.startswith(low) and k.isalpha()]
        if frequency < WORD_FREQUENCY:
            if longer or (frequency < 1.0 and word.islower()) or _cut_short(low, frequency):
                out.append(word)
            continue
        before = words[n - 1].casefold() if n else ""
        cut = [k for k in longer if len(k) - len(low) <= 2 and (before, k) in pairs]
        if before and [k for k in cut if singular(k) != low]:  # "reports" gives "report"
            out.append(word)
        elif frequency < RARE_PREFIX and (
            _cut_short(low, frequency) or [k for k in longer if _cut_from(low, k, frequency)]
        ):
            out.append(word)  # "Phot" of "Photos", "Wher": rare, a common word cut short
    return out


def _cut_short(low: str, frequency: float) -> bool:
    """A rare word that a letter more makes one of English's commonest ("Wher" of
    "where", "Navigatio" of "navigation"): a word the reader cut, even as a name."""
    if len(low) < 4:
        return False
    wholes = (word_frequency(low + c) for c in "abcdefghijklmnopqrstuvwxyz")
    return any(whole >= CUT_WHOLE and whole - frequency >= CUT_GAP for whole in wholes)


#: How much commoner (Zipf) than the cut word: "where" 3.7 over "wher"; "oriented" only
#: 2.0 over "Oriente", a name.
CUT_GAP = 2.5
#: How common (Zipf) the whole word a cut one lacks a letter of is: "where" 6.1,
#: "navigation" 4.3.
CUT_WHOLE = 4.0

#: A word rarer than this (Zipf) that starts a far commoner word on the screens, one to
#: three letters longer, is that word cut short ("phot" 2.1 of "photos").
RARE_PREFIX = 3.0
#: How much commoner (Zipf) the whole word must be.
COMMONER = 1.5


def _cut_from(low: str, whole: str, frequency: float) -> bool:
    return (
        len(whole) - len(low) <= 3
        and singular(whole) != low
        and word_frequency(whole) - frequency >= COMMONER
    )


def line_problems(
    line: str,
    *,
    kind: str,
    screen_words: Iterable[str] = (),
    project: str = "",
    screen_texts: Iterable[str] | frozenset[tuple[str, str]] = (),
) -> list[str]:
    """Why a generated headline or subtitle would not ship ([] when it would)."""
    problems: list[str] = []
    text = " ".join(line.split())
    if not text:
        return ["empty"]
    named = {w.casefold() for w in words_of(project)}  # "Trac", whatever it looks like
    for word in fragments(text, screen_words, screen_texts):
        if word.casefold() not in named:
            problems.append(f"{word!r} is not a whole word")
    # the app's own name may double a word ("Tiny Tiny RSS"): not the line's doing
    doubled = _DOUBLED.search(text.replace(project, " ") if project else text)
    if doubled:
        problems.append(f"doubled word {doubled.group(1)!r}")
    if _DANGLING.search(text):
        problems.append("dangling punctuation")
    for part in re.split(r"[,;:]", text.rstrip(".!?")):  # "Study in, at a glance"
        last = words_of(part)
        if last and last[-1].casefold() in _ENDS:
            problems.append(f"a phrase ends on {last[-1]!r}")
            break
    else:
        cut = _OPEN_PREPOSITION.search(text)
        if cut:
            problems.append(f"a phrase ends on {cut.group().split()[0]!r}")
    data = tables().data_words
    lows = [w.casefold() for w in words_of(text)]
    if any(w in data and w not in ("no", "none") for w in lows):
        problems.append("a data value as words")
    project_words = {w.casefold() for w in words_of(project)}
    own = [w for w in lows if not is_neutral(w) and w not in project_words]
    if kind == "subtitle" and not own:
        problems.append("filler: names nothing on its screen")
    items = [m for m in _members(text, screen_texts) if not _OTHER.match(m)]
    if len(items) >= 2 and _named_twice(items, project_words):
        problems.append("a list names one thing twice")
    span = _RANGE.search(text)
    if span and _named_twice([span.group(1), span.group(2)], project_words):
        problems.append("a range names one thing twice")  # "from Calder Bay to Calder Bay …"
    if len(items) >= 3 and all(
        not any(is_neutral(w) and w.casefold() not in ("and",) for w in words_of(p)) for p in items
    ):
        problems.append("a list of tokens with nothing around them")
    return problems


#: A member that points back at the others: "See Sintel and every other film."
_OTHER = re.compile(r"(?:every|any|each) other\b", re.IGNORECASE)


#: A line's range of examples: "Scroll from Overlay Plot to Power Telemetry in one list".
_RANGE = re.compile(r"\bfrom (.+?) to (.+?)(?:,| in one\b| all\b|\.|$)", re.IGNORECASE)


def _members(text: str, screen_texts: Iterable[str] | frozenset[tuple[str, str]]) -> list[str]:
    """The members of a line's list, split at commas and "and"; a name the screens write
    with its own "and" ("Books and e-books", "Pride and Prejudice") stays one member."""
    pairs = screen_texts if isinstance(screen_texts, frozenset) else word_pairs(screen_texts)
    members: list[str] = []
    for chunk in text.rstrip(".").split(","):
        parts = re.split(r"\band\b", chunk)
        kept = [parts[0]]
        for part in parts[1:]:
            before, after = words_of(kept[-1])[-1:], words_of(part)[:1]
            whole = before and after and (before[0].casefold(), "and") in pairs
            if whole and ("and", after[0].casefold()) in pairs:
                kept[-1] = f"{kept[-1]}and{part}"  # "Books and e-books": one name
            else:
                kept.append(part)
        members += [m.strip() for m in kept if m.strip()]
    return members


def _named_twice(items: list[str], project_words: set[str]) -> bool:
    """Whether one member of a list says again what another says ("trials" and "trial";
    "status" and "page status"): the words of one are among the other's. Two names that
    merely share a word ("Lake District walks", "Peak District walks") are two things;
    the frame's words and the app's name do not count ("Your budgets and reports,
    together in Pocket Budget")."""
    members = [
        {
            f
            for w in words_of(part)
            if not is_neutral(w) and w.casefold() not in project_words
            for f in word_forms(w.casefold())
        }
        for part in items
    ]
    members = [m for m in members if m]
    return any(a <= b or b <= a for i, a in enumerate(members) for b in members[i + 1 :])

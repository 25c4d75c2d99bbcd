"""Caption fitting per script: what per-run font fallback and CJK wrapping cost.

Layout fits every caption of a set with ``text.fit_size`` (a binary search over sizes,
each step wrapping every caption). Measuring now goes through glyph-coverage runs so
mixed-script lines measure as they are drawn. This prints, per script, the median time
of fitting one caption (fresh caches each round) and, as the baseline measured in the
same run, the same fit done with one font and Pillow's plain ``getlength`` (what the
code did before runs existed: it could not measure a mixed line right, but it is the
floor), and the ratio.

    .venv/bin/python benchmarks/text_fit.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import time

from shotsmith import text as T

CAPTIONS = {
    "en": "Plan your week and every project in a tap",
    "de": "Größere Übersicht für Ihre ganze Woche",
    "ar": "تابع تقدم الفريق مع Face ID وiCloud بسهولة",
    "ja": "今日やることが「ひと目で」わかる一覧表示",
    "zh-Hans": "一目了然地规划您的一周和所有项目",
    "hi": "अपने सप्ताह की योजना एक टैप में बनाएं",
}


def _clear() -> None:
    for fn in (T.runs, T.load_font, T.font_for if hasattr(T.font_for, "cache_clear") else None):
        if fn is not None and hasattr(fn, "cache_clear"):
            fn.cache_clear()


def fit_runs(caption: str) -> int | None:
    return T.fit_size([caption], "Inter", 700, 1100, 2, 140, 40)


def fit_plain(caption: str) -> int | None:
    path = T.font_for(caption, "Inter", 700)
    lo, hi, found = 40, 140, None
    while lo <= hi:
        mid = (lo + hi) // 2
        font = T.load_font(path, mid)
        words = caption.split()
        ok = font.getlength(caption) <= 1100 or any(
            max(font.getlength(" ".join(words[:c])), font.getlength(" ".join(words[c:]))) <= 1100
            for c in range(1, len(words))
        )
        if ok:
            found, lo = mid, mid + 1
        else:
            hi = mid - 1
    return found


def timed(fn, caption: str, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        _clear()
        start = time.perf_counter()
        fn(caption)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    for path in {T.font_for(c, "Inter", 700) for c in CAPTIONS.values()}:
        T.covered(path)  # character maps are read once per process; not part of a fit
    print(f"{'script':8} {'runs ms':>9} {'plain ms':>9} {'ratio':>6}  size")
    for lang, caption in CAPTIONS.items():
        new = timed(fit_runs, caption, args.rounds)
        base = timed(fit_plain, caption, args.rounds)
        print(f"{lang:8} {new:9.2f} {base:9.2f} {new / base:6.2f}  {fit_runs(caption)}")


if __name__ == "__main__":
    main()

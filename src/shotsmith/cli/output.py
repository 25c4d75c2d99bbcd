"""What the commands print besides their results: progress, warnings, an unused LLM."""

from __future__ import annotations

import logging
import sys


class _Stderr(logging.StreamHandler):
    """A handler that writes to whatever ``sys.stderr`` is when a record comes."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def progress_lines(command: str, source, sizes: list[str] | None):
    """Progress on stderr: a line per stage, then one per screenshot as it is written."""
    import time

    start = time.perf_counter()
    count = {"done": 0, "total": 0}

    def report(event: dict) -> None:
        elapsed = f"{time.perf_counter() - start:5.1f}s"
        if event["event"] == "stage":
            count["total"] = count["total"] or event["screenshots"] * max(1, len(sizes or []))
            print(
                f"shotsmith {command}: {elapsed} {event['stage']} "
                f"({event['screenshots']} screenshots)",
                file=sys.stderr,
                flush=True,
            )
        elif event["event"] == "screenshots" and event["done"] < event["screenshots"]:
            print(
                f"shotsmith {command}: {elapsed} {event['stage']} "
                f"[{event['done']}/{event['screenshots']}]",
                file=sys.stderr,
                flush=True,
            )
        elif event["event"] == "rendered":
            count["done"] += 1
            print(
                f"shotsmith {command}: {elapsed} [{count['done']}/{count['total']}] "
                f"{event['path']} "
                f"{event['width']}x{event['height']} ({event['device']})",
                file=sys.stderr,
                flush=True,
            )

    return report


def say_when_llm_unused(frame, command: str) -> None:
    """One line on stderr per set whose captions the asked-for LLM did not write."""
    for app_id, sources in frame.groupby("app_id", sort=False)["copy_source"]:
        values = [str(v) for v in sources]
        if any(v.startswith("llm:") for v in values):
            continue
        notes = [v.partition("(")[2].rstrip(")") for v in values if "(llm " in v]
        if notes:
            print(
                f"shotsmith {command}: {app_id}: the LLM was asked for but not used "
                f"({notes[0]}); the captions are shotsmith's own grounded copy.",
                file=sys.stderr,
            )


def log_to_stderr(command: str) -> None:
    """shotsmith's warnings (a rejected LLM answer, a copy row matching no screen) go to
    stderr, once each, prefixed like the command's own messages.

    The handler writes to whatever ``sys.stderr`` is when a warning comes (a second
    command in one process, or a test capturing stderr, gets its own), and the prefix
    names the command that runs now."""
    logger = logging.getLogger("shotsmith")
    ours = [h for h in logger.handlers if getattr(h, "_shotsmith_cli", False)]
    if not ours:
        handler: logging.Handler = _Stderr(sys.stderr)
        handler._shotsmith_cli = True  # type: ignore[attr-defined]
        # the command sums up an unused LLM itself, once per set (say_when_llm_unused)
        handler.addFilter(lambda record: not getattr(record, "llm_unused", False))
        logger.addHandler(handler)
        logger.propagate = False
        ours = [handler]
    for handler in ours:
        handler.setFormatter(logging.Formatter(f"shotsmith {command}: %(message)s"))
    logger.setLevel(logging.WARNING)


def print_lines(lines: list[str], empty: str) -> None:
    """One line per record on stdout; when there is none, ``empty`` (a hint) on stderr."""
    if not lines:
        print(empty, file=sys.stderr)
    for line in lines:
        print(line)

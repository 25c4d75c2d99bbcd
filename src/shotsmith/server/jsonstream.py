"""An incremental JSON parser for request bodies, with limits, that streams chosen strings.

A design request is up to ~140 MB of JSON, nearly all of it ten base64 strings. Parsing it
with ``json.loads`` needs the whole body in memory, then the decoded text, then the decoded
images: several times the body size, all on the event loop. This parser is fed the body as
it arrives and builds the (small) rest of the document as Python values, while a string
at a path the caller claims (``images[i].data``) goes piece by piece to a *sink* (which
base64-decodes it into a file): memory stays a few hundred KiB whatever the body size.

The scanner works on whole pieces with compiled regexes (string contents, whitespace,
numbers), so its Python-level work is per token, not per byte; a document has few tokens
(a cap on values keeps a hostile one bounded). It is stricter than ``json.loads`` where
strictness protects the server, and says what was wrong:

* numbers longer than ``max_number`` characters are refused (Python would spend
  quadratic time on, or refuse, a 5,000-digit integer); ``NaN``/``Infinity`` are not JSON;
* a string with a lone UTF-16 surrogate (``"\\ud800"``) is refused with its path, as are
  invalid UTF-8 and raw control characters;
* a key twice in one object, nesting deeper than ``max_depth``, more than ``max_values``
  values, or a string longer than ``max_string`` (outside sinks) are refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NoReturn, Protocol

Path = tuple[str | int, ...]

_WS = re.compile(rb"[ \t\r\n]*")
_CONTROL = re.compile(rb"[\x00-\x1f]")
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_CHARS = re.compile(rb"[-+.eE0-9]*")
_HEX4 = re.compile(rb"[0-9a-fA-F]{4}")
_ESCAPES = {
    ord('"'): '"',
    ord("\\"): "\\",
    ord("/"): "/",
    ord("b"): "\b",
    ord("f"): "\f",
    ord("n"): "\n",
    ord("r"): "\r",
    ord("t"): "\t",
}


def _match_end(pattern: re.Pattern[bytes], buf: bytes, pos: int) -> int:
    """Where a run of ``pattern`` (which matches the empty string too) starting at ``pos``
    ends."""
    match = pattern.match(buf, pos)
    return pos if match is None else match.end()


_LITERALS = {b"t": (b"true", True), b"f": (b"false", False), b"n": (b"null", None)}


class JsonError(ValueError):
    """The body is not acceptable JSON; ``code`` is the API's error code for it:
    ``invalid_json`` (not JSON, or beyond what the parser reads: deep nesting, huge
    numbers), ``invalid_text`` (a string that is not Unicode text, at ``path``),
    ``value_too_long`` (a string over ``max_string``), ``body_too_large`` (too many values).
    """

    def __init__(self, code: str, message: str, path: Path = ()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path


class StringSink(Protocol):
    """Receives one string's contents piece by piece: raw runs of the string (UTF-8 bytes;
    the sink checks them: control characters are not refused by the parser for a sink)
    and, with ``escaped=True``, the character of each escape (``\\n`` gives ``b"\\n"``)."""

    def write(self, data: bytes, escaped: bool = False) -> None: ...

    def close(self) -> Any:
        """The string is complete; what to put in the document in its place."""
        ...


def path_text(path: Path) -> str:
    """``("images", 2, "data")`` -> ``images[2].data``; the top level is ``body``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "body"


class _Container:
    __slots__ = ("value", "key", "state", "path")

    def __init__(self, value: dict | list, path: Path):
        self.value = value
        self.key: str | None = None
        # object: "key_or_end" | "key" | "colon" | "value" | "comma_or_end"
        # array:  "value_or_end" | "value" | "comma_or_end"
        self.state = "key_or_end" if isinstance(value, dict) else "value_or_end"
        self.path = path


class JsonStreamParser:
    """Feed bytes with :meth:`feed`, then :meth:`close` for the document.

    ``sink_for(path)`` is asked for each string *value* (not keys) as it starts; a sink it
    returns receives the string's contents instead of the parser keeping them (escapes
    are decoded; the contents must then be ASCII, as base64 is, or the sink sees the raw
    UTF-8 bytes). It may raise to refuse the request at once.
    """

    def __init__(
        self,
        sink_for: Callable[[Path], StringSink | None] | None = None,
        *,
        max_depth: int = 32,
        max_values: int = 10_000,
        max_string: int = 64 * 1024,
        max_number: int = 100,
    ):
        self._sink_for = sink_for or (lambda path: None)
        self.max_depth = max_depth
        self.max_values = max_values
        self.max_string = max_string
        self.max_number = max_number
        self._buf = b""
        self._stack: list[_Container] = []
        self._done = False
        self._root: Any = None
        self._values = 0
        self._started = False
        # the string being read
        self._in_string = False
        self._string_is_key = False
        self._string_path: Path = ()
        self._sink: StringSink | None = None
        self._parts: list[bytes] = []
        self._length = 0
        self._high_surrogate: int | None = None
        self._consumed = 0  # bytes before the buffer (for error positions)

    # --- public ------------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        if not self._started:
            if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark
                data = data[3:]
            if data:
                self._started = True
        self._buf = self._buf + data if self._buf else data
        self._run(final=False)

    def close(self) -> Any:
        """The document; raises :class:`JsonError` if the body was empty or incomplete."""
        self._run(final=True)
        if self._in_string or self._stack:
            raise JsonError(
                "invalid_json", "the body ends in the middle of the JSON document (truncated?)"
            )
        if not self._done:
            raise JsonError(
                "invalid_json",
                "the body is empty" if not self._started else "the body has no JSON value",
            )
        return self._root

    # --- the scanner ----------------------------------------------------------------------
    def _run(self, final: bool) -> None:
        buf, pos, end = self._buf, 0, len(self._buf)
        while pos < end:
            if self._in_string:
                pos = self._string(buf, pos, final)
                if self._in_string:
                    break  # needs more data
                continue
            pos = _match_end(_WS, buf, pos)
            if pos >= end:
                break
            if self._done:
                raise JsonError(
                    "invalid_json",
                    f"unexpected data after the JSON document at byte {self._offset(pos)}",
                )
            byte = buf[pos : pos + 1]
            new = self._token(buf, pos, byte, final)
            if new is None:
                break  # an incomplete token: wait for more data
            pos = new
        self._consumed += pos
        self._buf = buf[pos:]
        if len(self._buf) > 4096:  # only a partial token is ever carried over
            raise JsonError("invalid_json", "a number or literal in the body is far too long")

    def _offset(self, pos: int) -> int:
        return self._consumed + pos

    def _token(self, buf: bytes, pos: int, byte: bytes, final: bool) -> int | None:
        top = self._stack[-1] if self._stack else None
        if top is not None and top.state in ("comma_or_end", "colon"):
            return self._punctuation(top, byte, pos)
        if top is not None and top.state in ("key_or_end", "key"):
            if byte == b"}" and top.state == "key_or_end":
                self._close_container(pos)
                return pos + 1
            if byte != b'"':
                raise self._unexpected(buf, pos, "a key in double quotes")
            self._start_string(is_key=True, path=top.path)
            return pos + 1
        # a value is expected (top level, after ':' or in an array)
        if top is not None and top.state == "value_or_end" and byte == b"]":
            self._close_container(pos)
            return pos + 1
        path = self._value_path()
        if byte == b'"':
            self._count_value(path)
            self._start_string(is_key=False, path=path)
            return pos + 1
        if byte in (b"{", b"["):
            self._count_value(path)
            if len(self._stack) >= self.max_depth:
                raise JsonError(
                    "invalid_json",
                    f"the JSON document is nested more than {self.max_depth} levels deep",
                )
            self._stack.append(_Container({} if byte == b"{" else [], path))
            return pos + 1
        if byte in _LITERALS:
            word, value = _LITERALS[byte]
            have = buf[pos : pos + len(word)]
            if have == word:
                self._count_value(path)
                self._add_value(value)
                return pos + len(word)
            if word.startswith(have) and not final:
                return None
            raise self._unexpected(buf, pos, "a JSON value")
        if byte == b"-" or byte.isdigit():
            chars = _match_end(_NUMBER_CHARS, buf, pos)
            if chars - pos > self.max_number:
                raise JsonError(
                    "invalid_json",
                    f"{path_text(path)}: a number of more than "
                    f"{self.max_number} characters; no field takes such "
                    "a number",
                )
            if chars == len(buf) and not final:
                return None  # the number may go on in the next piece
            match = _NUMBER.match(buf, pos)
            if match is None or match.end() != chars:
                raise self._unexpected(buf, pos, "a JSON number")
            text = match.group()
            self._count_value(path)
            self._add_value(float(text) if any(c in text for c in b".eE") else int(text))
            return chars
        raise self._unexpected(buf, pos, "a JSON value")

    def _punctuation(self, top: _Container, byte: bytes, pos: int) -> int:
        if top.state == "colon":
            if byte != b":":
                raise self._unexpected(self._buf, pos, "':' after the key")
            top.state = "value"
            return pos + 1
        closing = b"}" if isinstance(top.value, dict) else b"]"
        if byte == b",":
            top.state = "key" if isinstance(top.value, dict) else "value"
            return pos + 1
        if byte == closing:
            self._close_container(pos)
            return pos + 1
        raise self._unexpected(self._buf, pos, f"',' or '{closing.decode()}'")

    def _unexpected(self, buf: bytes, pos: int, wanted: str) -> JsonError:
        got = buf[pos : pos + 12].decode("utf-8", "replace")
        return JsonError(
            "invalid_json", f"expected {wanted} at byte {self._offset(pos)}, found {got!r}"
        )

    # --- values -------------------------------------------------------------------------------
    def _value_path(self) -> Path:
        if not self._stack:
            return ()
        top = self._stack[-1]
        if isinstance(top.value, dict):
            return (*top.path, top.key or "")
        return (*top.path, len(top.value))

    def _count_value(self, path: Path) -> None:
        self._values += 1
        if self._values > self.max_values:
            raise JsonError(
                "body_too_large",
                f"the body has more than {self.max_values} JSON values; "
                "no request of this API needs that many",
            )

    def _add_value(self, value: Any) -> None:
        if not self._stack:
            self._root, self._done = value, True
            return
        top = self._stack[-1]
        if isinstance(top.value, dict):
            top.value[top.key] = value
        else:
            top.value.append(value)
        top.state = "comma_or_end"

    def _close_container(self, pos: int) -> None:
        container = self._stack.pop()
        if container.state in ("key", "value"):  # a trailing comma
            raise JsonError("invalid_json", f"a trailing comma before byte {self._offset(pos)}")
        self._add_value(container.value)

    def _add_key(self, key: str) -> None:
        top = self._stack[-1]
        assert isinstance(top.value, dict)
        if key in top.value:
            raise JsonError(
                "invalid_json",
                f"{path_text((*top.path, key))} appears twice in the "
                "same object; send each field once",
            )
        top.key = key
        top.state = "colon"

    # --- strings --------------------------------------------------------------------------------
    def _start_string(self, *, is_key: bool, path: Path) -> None:
        self._in_string = True
        self._string_is_key = is_key
        self._string_path = path
        self._sink = None if is_key else self._sink_for(path)
        self._parts = []
        self._length = 0
        self._high_surrogate = None

    def _emit(self, data: bytes, escaped: bool = False) -> None:
        if not data:
            return
        if self._high_surrogate is not None:
            self._lone_surrogate()
        if self._sink is not None:
            self._sink.write(data, escaped)
            return
        self._length += len(data)
        if self._length > self.max_string:
            where = path_text(self._string_path)
            raise JsonError(
                "value_too_long",
                f"{where}: a text of more than {self.max_string // 1024} "
                "KiB; no field of this API takes that much",
            )
        self._parts.append(data)

    def _lone_surrogate(self) -> NoReturn:
        where = path_text(self._string_path)
        raise JsonError(
            "invalid_text",
            f"{'a key of ' + where if self._string_is_key else where} contains a lone UTF-16 "
            "surrogate (an unpaired \\ud800-\\udfff escape), which is not a "
            "character; send valid Unicode text",
            self._string_path,
        )

    def _string(self, buf: bytes, pos: int, final: bool) -> int:
        """Consume string contents from ``pos``; returns the new position (the string may
        still be open: ``self._in_string``)."""
        end = len(buf)
        while pos < end:
            stop = self._next_stop(buf, pos)
            if stop > pos:
                self._emit(buf[pos:stop])
            if stop >= end:
                return end
            char = buf[stop]
            if char == 0x22:  # the closing quote
                if self._high_surrogate is not None:
                    self._lone_surrogate()
                self._end_string()
                return stop + 1
            if char != 0x5C:  # a raw control character
                raise JsonError(
                    "invalid_json",
                    f"{path_text(self._string_path)}: a raw control character (0x{char:02x}) "
                    "in a string; escape it (e.g. \\n)",
                )
            if stop + 1 >= end:
                return stop  # the escape continues in the next piece
            kind = buf[stop + 1]
            if kind == 0x75:  # \uXXXX
                if stop + 6 > end:
                    return stop
                if not _HEX4.fullmatch(buf, stop + 2, stop + 6):
                    raise JsonError(
                        "invalid_json", f"{path_text(self._string_path)}: a bad \\u escape"
                    )
                self._unicode_escape(int(buf[stop + 2 : stop + 6], 16))
                pos = stop + 6
                continue
            char_text = _ESCAPES.get(kind)
            if char_text is None:
                raise JsonError(
                    "invalid_json",
                    f"{path_text(self._string_path)}: an unknown escape \\{chr(kind)}",
                )
            self._emit(char_text.encode(), escaped=True)
            pos = stop + 2
        return pos

    def _next_stop(self, buf: bytes, pos: int) -> int:
        """Where the string's plain run from ``pos`` ends: a quote, a backslash or (not for
        a sink, which checks its own alphabet) a control character; ``len(buf)`` if none.
        Quotes and backslashes are found with memchr: a base64 string of megabytes is
        scanned at memory speed."""
        end = len(buf)
        quote = buf.find(b'"', pos)
        backslash = buf.find(b"\\", pos, quote if quote != -1 else end)
        stop = backslash if backslash != -1 else (quote if quote != -1 else end)
        if self._sink is None:
            control = _CONTROL.search(buf, pos, stop)
            if control is not None:
                return control.start()
        return stop

    def _unicode_escape(self, code: int) -> None:
        if 0xD800 <= code <= 0xDBFF:
            if self._high_surrogate is not None:
                self._lone_surrogate()
            self._high_surrogate = code
            return
        if 0xDC00 <= code <= 0xDFFF:
            if self._high_surrogate is None:
                self._lone_surrogate()
            code = 0x10000 + ((self._high_surrogate - 0xD800) << 10) + (code - 0xDC00)
            self._high_surrogate = None
            self._emit(chr(code).encode(), escaped=True)
            return
        self._emit(chr(code).encode(), escaped=True)

    def _end_string(self) -> None:
        self._in_string = False
        if self._sink is not None:
            value = self._sink.close()
            self._sink = None
        else:
            raw = b"".join(self._parts)
            try:
                value = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise JsonError(
                    "invalid_json",
                    f"{path_text(self._string_path)}: the text is not "
                    "valid UTF-8; send the body as UTF-8",
                ) from None
            self._parts = []
        if self._string_is_key:
            self._add_key(value)
        else:
            self._add_value(value)


def loads(body: bytes, **limits: Any) -> Any:
    """Parse a whole body with the same rules (small bodies: collections)."""
    parser = JsonStreamParser(**limits)
    parser.feed(body)
    return parser.close()

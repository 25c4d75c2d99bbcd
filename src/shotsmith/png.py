"""PNG files: a fast writer for opaque RGB images, and the reading side's checks.

Writing. Pillow's encoder spends ~50 ms per store-size image choosing a filter per row.
Flat marketing backgrounds compress just as well with the "Up" filter on every
row, which numpy computes in one vectorised subtraction, and zlib-ng's deflate
(the ``zlib-ng`` package) compresses several times faster than zlib. ISA-L is
faster still, but its level-1 output depends on stale memory in the process, so
the same image could encode to different (equally valid) bytes in two workers;
zlib-ng is deterministic, which keeps outputs byte-identical across runs. The output is
a standard 8-bit RGB PNG (colour type 2: no alpha channel) with a 72 dpi pHYs
chunk, as App Store Connect asks for.

Reading. Screenshots arrive in every colour type and bit depth the format has (1-16 bit
grey, palette, grey+alpha, RGB, RGBA, with or without a ``tRNS`` chunk, interlaced or
not). :func:`to_rgb` turns any of them into the 8-bit RGB the pipeline works in, the way
a viewer shows them: 16-bit samples scaled to 8 bits (not clipped: a 16-bit greyscale
screenshot clipped to 8 bits is a white page), transparency composited over white.
:class:`PngVerifier` checks a PNG as its bytes arrive, in constant memory (the server
streams uploads through it instead of decoding whole images to see if they are intact).
"""

from __future__ import annotations

import os
import struct
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO

import numpy as np
from PIL import Image

from .errors import InputImageError

_deflate: ModuleType
try:  # zlib-ng: the zlib format, several times faster at low levels, deterministic
    from zlib_ng import zlib_ng as _deflate
except ImportError:  # pragma: no cover - zlib-ng is a declared dependency
    _deflate = zlib
_LEVEL = 1

PIXELS_PER_METRE_72DPI = 2835  # 72 dpi


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind)) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode_png(image: Image.Image) -> bytes:
    """Encode an RGB image as PNG bytes (no alpha channel; 72 dpi)."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    pixels = np.asarray(image, dtype=np.uint8)
    height, width, _ = pixels.shape
    rows = np.empty((height, 1 + width * 3), dtype=np.uint8)
    rows[:, 0] = 2  # filter type Up on every row (row 0: "Up" against zeros == raw)
    flat = pixels.reshape(height, width * 3)
    rows[0, 1:] = flat[0]
    np.subtract(flat[1:], flat[:-1], out=rows[1:, 1:])  # uint8 arithmetic wraps mod 256
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    phys = struct.pack(">IIB", PIXELS_PER_METRE_72DPI, PIXELS_PER_METRE_72DPI, 1)
    idat = _deflate.compress(rows.tobytes(), _LEVEL)
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", ihdr),
            _chunk(b"pHYs", phys),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        ]
    )


def write_png(image: Image.Image, path: str | Path) -> Path:
    """Write ``image`` to ``path`` atomically (a reader never sees half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # a temp name of its own per process and thread: two writers of the same file (a task
    # a cluster ran twice) never interleave their bytes; the rename is atomic
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(encode_png(image))
    tmp.replace(path)
    return path


# --- reading: any PNG mode to 8-bit RGB --------------------------------------------------

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Colour type -> (samples per pixel, allowed bit depths), PNG spec 11.2.2.
COLOUR_TYPES = {
    0: (1, (1, 2, 4, 8, 16)),  # greyscale
    2: (3, (8, 16)),  # RGB
    3: (1, (1, 2, 4, 8)),  # palette
    4: (2, (8, 16)),  # greyscale + alpha
    6: (4, (8, 16)),  # RGBA
}
WHITE = (255, 255, 255)


MAX_PIXELS = 40_000_000  # ~ 2 x the largest store canvas; larger is a decompression bomb
MAX_SIDE = 16_384


def check_header(data: bytes, name: str = "image") -> tuple[int, int]:
    """Check a PNG's signature and IHDR (checksum, a size no screen exceeds) without
    decoding; (width, height), or :class:`InputImageError` saying what the bytes are."""
    if not data.startswith(SIGNATURE):
        kind = _sniff(data)
        raise InputImageError(
            f"{name}: not a PNG image ({kind}). Supply raw screenshots as PNG files."
        )
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise InputImageError(
            f"{name}: truncated PNG (no complete IHDR header). Re-export the screenshot."
        )
    width, height = struct.unpack(">II", data[16:24])
    if zlib.crc32(data[12:29]) & 0xFFFFFFFF != struct.unpack(">I", data[29:33])[0]:
        raise InputImageError(
            f"{name}: corrupt PNG header (bad checksum). Re-export the screenshot."
        )
    if width == 0 or height == 0:
        raise InputImageError(f"{name}: PNG has an empty size {width}x{height}.")
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise InputImageError(
            f"{name}: PNG claims {width}x{height} pixels, far larger than any screen "
            f"(limit {MAX_PIXELS:,} pixels, {MAX_SIDE} px a side). Supply a real screenshot."
        )
    return width, height


def _sniff(data: bytes) -> str:
    if not data:
        return "the file is empty"
    if data[:3] == b"\xff\xd8\xff":
        return "it is a JPEG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "it is a GIF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "it is a WebP"
    if data.lstrip()[:1] in (b"{", b"<"):
        return "it looks like text, not an image"
    return "unknown format"


@dataclass(frozen=True)
class PngHeader:
    """What a PNG's chunks before the image data say about its pixels."""

    width: int
    height: int
    bit_depth: int
    colour_type: int
    interlaced: bool
    transparency: bool  # a tRNS chunk (a colour key, or palette alpha)


def read_header(data: bytes) -> PngHeader | None:
    """The IHDR fields and whether a tRNS chunk precedes the image data; None when ``data``
    does not start like a PNG (callers decide what to say about that)."""
    if not data.startswith(SIGNATURE) or len(data) < 33 or data[12:16] != b"IHDR":
        return None
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    transparency, pos = False, 33
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if kind in (b"IDAT", b"IEND"):
            break
        transparency = transparency or kind == b"tRNS"
        pos += 12 + length
    return PngHeader(width, height, depth, colour, interlace == 1, transparency)


def to_rgb(image: Image.Image, data: bytes | None = None) -> Image.Image:
    """An image Pillow decoded from a PNG (``data``: that PNG's bytes) as 8-bit RGB.

    * 16-bit greyscale (``I;16``, also ``I``) is scaled to 8 bits with rounding; Pillow
      reads 16-bit colour as 8-bit already (the high byte of each sample);
    * 1, 2 and 4-bit greyscale and palettes come out at full range (Pillow expands them);
    * alpha (``LA``, ``RGBA``, ``PA``) and ``tRNS`` transparency (a palette's alpha, or one
      transparent grey level or colour; for 16-bit colour matched on all 16 bits, as the
      spec says) are composited over white, as a viewer shows them.
    """
    mode = image.mode
    key = image.info.get("transparency")
    if mode == "RGB" and key is None:
        return image
    if mode.startswith("I") or mode == "F":
        samples = np.asarray(image, dtype=np.float64)
        grey = np.clip(np.rint(samples / 257.0), 0, 255).astype(np.uint8)
        rgb = Image.fromarray(np.repeat(grey[:, :, None], 3, axis=2), "RGB")
        if isinstance(key, int):
            return _over_white(rgb, (samples != key).astype(np.uint8) * 255)
        return rgb
    if key is None and mode in ("1", "L", "P"):
        return image.convert("RGB")
    if mode == "RGB" and isinstance(key, tuple) and data is not None:
        header = read_header(data)
        if header is not None and header.bit_depth == 16:
            return _over_white(image, _colour_key_mask16(data, image, key))
    if mode == "L" and isinstance(key, int):
        header = read_header(data) if data is not None else None
        if header is not None and header.bit_depth < 8:  # the key is a raw 1/2/4-bit level;
            key = key * 255 // ((1 << header.bit_depth) - 1)  # Pillow expanded the pixels
        alpha = np.where(np.asarray(image) == key, 0, 255)
        return _over_white(image.convert("RGB"), alpha)
    if mode == "RGB" and isinstance(key, tuple):
        rgba = image.convert("RGBA")  # Pillow turns a colour key into alpha
        return _over_white(image, np.asarray(rgba.getchannel("A")))
    rgba = image.convert("RGBA")  # LA, PA, RGBA, a palette with alpha, CMYK...
    return _over_white(rgba.convert("RGB"), np.asarray(rgba.getchannel("A")))


def _over_white(rgb: Image.Image, alpha: np.ndarray) -> Image.Image:
    if alpha.min() == 255:
        return rgb
    background = Image.new("RGB", rgb.size, WHITE)
    background.paste(rgb, mask=Image.fromarray(alpha.astype(np.uint8), "L"))
    return background


def _colour_key_mask16(data: bytes, high: Image.Image, key: tuple[int, ...]) -> np.ndarray:
    """Alpha (0 or 255) of a 16-bit RGB PNG with a colour key: a pixel is transparent only
    if all 16 bits of each sample match. Pillow keeps the high bytes; decoding the same
    file again as little-endian ("RGB;16L") picks the low bytes."""
    import io

    hi = np.asarray(high, dtype=np.uint16)
    lo: np.ndarray | None
    samples: np.ndarray
    try:
        low_image = Image.open(io.BytesIO(data))
        low_image.tile = [t._replace(args="RGB;16L") for t in low_image.tile]
        low_image.load()
        lo = np.asarray(low_image, dtype=np.uint16)
    except Exception:  # pragma: no cover - another Pillow's tile layout: match the high bytes
        lo = None
    if lo is None or lo.shape != hi.shape:
        samples, wanted = hi, np.array([k >> 8 for k in key], dtype=np.uint16)
    else:
        samples, wanted = (hi << 8) | lo, np.array(key, dtype=np.uint16)
    transparent = np.all(samples == wanted, axis=2)
    return np.where(transparent, 0, 255).astype(np.uint8)


# --- checking a PNG as it arrives ------------------------------------------------------------

ADAM7 = (
    (0, 0, 8, 8),
    (4, 0, 8, 8),
    (0, 4, 4, 8),
    (2, 0, 4, 4),
    (0, 2, 2, 4),
    (1, 0, 2, 2),
    (0, 1, 1, 2),
)  # (x0, y0, dx, dy) of the seven interlace passes


#: Raw (inflated) image data a PNG's header may promise: a screenshot of the largest
#: phone at 16-bit RGBA is ~60 MiB; more is refused from the IHDR, before inflating a byte.
MAX_IMAGE_DATA = 256 << 20
#: Inflated image data past the last row tolerated (decoders ignore it; more is a bomb).
IMAGE_DATA_SLACK = 64 << 10
#: What one compressed text or ICC profile chunk (zTXt, iTXt, iCCP) may inflate to, and
#: all of them together: Pillow's own limits (``PngImagePlugin.MAX_TEXT_CHUNK``,
#: ``MAX_TEXT_MEMORY``), so what passes here Pillow decodes.
MAX_CHUNK_INFLATED = 1 << 20
MAX_CHUNKS_INFLATED = 64 << 20
#: Seconds of inflating one PNG may take in all (a real screenshot needs well under one).
INFLATE_BUDGET = 10.0
_COMPRESSED_CHUNKS = (b"zTXt", b"iTXt", b"iCCP")


class _ChunkInflater:
    """Inflates the compressed part of one zTXt, iTXt or iCCP chunk as it arrives, in
    bounded steps, to count what it inflates to (the text itself is not kept)."""

    HEAD_LIMIT = 64 << 10  # keyword, language tag and translated keyword (iTXt)

    def __init__(self, kind: bytes):
        self.kind = kind
        self.head = bytearray()
        self.inflater: Any = None
        self.skip = False  # not compressed, an unknown method, or corrupt: not counted
        self.size = 0

    def data_start(self) -> int | None:
        """Where the compressed bytes start in ``head``; None while unknown."""
        head = self.head
        keyword_end = head.find(b"\0")
        if keyword_end == -1:
            return None
        if self.kind != b"iTXt":  # keyword \0 method data
            if len(head) < keyword_end + 2:
                return None
            self.skip = head[keyword_end + 1] != 0
            return keyword_end + 2
        if len(head) < keyword_end + 3:  # keyword \0 flag method language \0 translated \0
            return None
        self.skip = head[keyword_end + 1] != 1 or head[keyword_end + 2] != 0
        language_end = head.find(b"\0", keyword_end + 3)
        if language_end == -1:
            return None
        translated_end = head.find(b"\0", language_end + 1)
        return None if translated_end == -1 else translated_end + 1


class PngVerifier:
    """Checks a PNG stream fed in pieces of any size, in constant memory and bounded time.

    It checks what decoding would: the signature and IHDR (the reader's own checks and
    limits, :func:`check_header`), a valid colour type and bit depth, every
    chunk's CRC, a PLTE for palette images, image data that inflates to exactly the rows
    the header promises (each with a valid filter type) and an IEND. ``feed`` and
    ``close`` raise :class:`~shotsmith.errors.InputImageError` naming ``name``.

    Decompression bombs cost next to nothing: the inflated size is decided from the IHDR
    (width x height x bytes per pixel, at most :data:`MAX_IMAGE_DATA`) before a byte is
    inflated; inflating stops as soon as the data passes the rows the header promises;
    compressed text and ICC profile chunks may inflate to :data:`MAX_CHUNK_INFLATED`
    each; all inflating together may take ``inflate_budget`` seconds.
    """

    _INFLATE_STEP = 1 << 20  # bytes inflated per step: bounded memory for any ratio

    def __init__(self, name: str = "image", inflate_budget: float = INFLATE_BUDGET):
        self.name = name
        self.inflate_budget = inflate_budget
        self._inflate_time = 0.0
        self._extra = 0  # inflated image data past the last row
        self._text: _ChunkInflater | None = None
        self._text_total = 0
        self.size = 0
        self.header: PngHeader | None = None
        self._pending = b""  # bytes of a signature or chunk header not yet complete
        self._started = False
        self._chunk: bytes | None = None  # type of the chunk being read
        self._left = 0  # its data bytes still to come
        self._crc = 0
        self._small = bytearray()  # data of IHDR/PLTE (checked whole)
        self._seen: set[bytes] = set()
        self._idat_done = False
        self._inflater = zlib.decompressobj()
        self._rows: list[int] = []  # bytes per row (filter byte included), in order
        self._row = 0
        self._row_left = 0
        self._ended = False

    # --- errors ------------------------------------------------------------------------
    def _fail(self, what: str) -> InputImageError:
        return InputImageError(f"{self.name}: {what}. Re-export the screenshot.")

    # --- input ---------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        self.size += len(data)
        view = memoryview(data)
        while len(view):
            if self._ended:
                return  # bytes after IEND are ignored, as decoders do
            if not self._started:
                view = self._take_signature(view)
            elif self._chunk is None:
                view = self._take_chunk_header(view)
            else:
                view = self._take_chunk_data(view)

    def close(self) -> PngHeader:
        if not self._started:
            self._check_signature(self._pending)  # says what the bytes are instead
        if self.header is None:
            raise self._fail("truncated PNG (no complete IHDR header)")
        if not self._ended:
            if not self._idat_done and self._chunk != b"IDAT":
                raise self._fail("truncated PNG (no image data)")
            raise self._fail("truncated PNG (the file ends before its IEND chunk)")
        assert self.header is not None
        return self.header

    def _take_signature(self, view: memoryview) -> memoryview:
        # 8 bytes decide; something else gets 16, so that the message can say what it is
        need = (8 if SIGNATURE.startswith(self._pending) else 16) - len(self._pending)
        self._pending += bytes(view[:need])
        if self._pending == SIGNATURE:
            self._pending, self._started = b"", True
        elif len(self._pending) >= 16:
            self._check_signature(self._pending)
        return view[need:]

    def _check_signature(self, head: bytes) -> None:
        if not head or not SIGNATURE.startswith(head[:8]):
            check_header(head, self.name)  # raises: not a PNG (it is a JPEG...), or empty
            raise self._fail("not a PNG image")  # pragma: no cover - check_header raised
        raise self._fail("truncated PNG (no complete IHDR header)")

    def _take_chunk_header(self, view: memoryview) -> memoryview:
        need = 8 - len(self._pending)
        self._pending += bytes(view[:need])
        view = view[need:]
        if len(self._pending) < 8:
            return view
        length, kind = struct.unpack(">I4s", self._pending)
        self._pending = b""
        if length > 0x7FFFFFFF:
            raise self._fail(f"corrupt PNG (a chunk claims {length} bytes)")
        if self.header is None and kind != b"IHDR":
            raise self._fail("truncated PNG (no complete IHDR header)")
        if kind == b"IDAT":
            if self._idat_done:
                raise self._fail("corrupt PNG (image data chunks are not consecutive)")
            if self.header is None:  # pragma: no cover - checked above
                raise self._fail("corrupt PNG (image data before the header)")
            if self.header.colour_type == 3 and b"PLTE" not in self._seen:
                raise self._fail("corrupt PNG (a palette image without a palette)")
        elif b"IDAT" in self._seen:
            self._idat_done = True
        self._seen.add(kind)
        self._chunk, self._left = kind, length
        self._crc = zlib.crc32(kind)
        self._small = bytearray()
        self._text = _ChunkInflater(kind) if kind in _COMPRESSED_CHUNKS else None
        if length == 0:
            return self._finish_data(view)
        return view

    def _take_chunk_data(self, view: memoryview) -> memoryview:
        if self._left > 0:
            piece = view[: self._left]
            self._left -= len(piece)
            self._crc = zlib.crc32(piece, self._crc)
            if self._chunk == b"IDAT":
                self._inflate(bytes(piece))
            elif self._text is not None:
                self._inflate_chunk(self._text, bytes(piece))
            elif self._chunk in (b"IHDR", b"PLTE"):
                if len(self._small) + len(piece) > 4096:
                    raise self._fail(f"corrupt PNG ({self._chunk.decode()} chunk too long)")
                self._small += piece
            view = view[len(piece) :]
            if self._left > 0:
                return view
        return self._finish_data(view)

    def _finish_data(self, view: memoryview) -> memoryview:
        """The chunk's data is complete: read its CRC, then act on the chunk."""
        need = 4 - len(self._pending)
        self._pending += bytes(view[:need])
        view = view[need:]
        if len(self._pending) < 4:
            self._left = 0
            return view
        (crc,) = struct.unpack(">I", self._pending)
        self._pending = b""
        kind = self._chunk or b""
        if crc != self._crc & 0xFFFFFFFF:
            raise self._fail(f"corrupt PNG (bad checksum in its {kind.decode('latin-1')} chunk)")
        if kind == b"IHDR":
            self._read_ihdr(bytes(self._small))
        elif kind == b"PLTE" and (len(self._small) % 3 or not 3 <= len(self._small) <= 768):
            raise self._fail("corrupt PNG (invalid palette)")
        elif kind == b"IEND":
            self._end_image_data()
            self._ended = True
        self._chunk = None
        return view

    # --- the header -------------------------------------------------------------------
    def _read_ihdr(self, body: bytes) -> None:
        if len(body) != 13:
            raise self._fail("corrupt PNG (IHDR is not 13 bytes)")
        crc = struct.pack(">I", zlib.crc32(b"IHDR" + body) & 0xFFFFFFFF)
        head = SIGNATURE + struct.pack(">I", 13) + b"IHDR" + body + crc
        width, height = check_header(head, self.name)  # size limits: the reader's own
        depth, colour, compression, filtering, interlace = body[8:13]
        samples, depths = COLOUR_TYPES.get(colour, (0, ()))
        if depth not in depths:
            raise self._fail(f"corrupt PNG (colour type {colour} with bit depth {depth})")
        if compression != 0 or filtering != 0 or interlace not in (0, 1):
            raise self._fail("corrupt PNG (unknown compression, filter or interlace method)")
        self.header = PngHeader(width, height, depth, colour, interlace == 1, False)
        bits = samples * depth
        raw = height * (1 + (width * bits + 7) // 8)  # interlacing adds a little
        if raw > MAX_IMAGE_DATA:
            raise InputImageError(
                f"{self.name}: its {width}x{height} pixels at {bits} bits each would "
                f"decompress to {raw / 2**20:.0f} MiB, more than the "
                f"{MAX_IMAGE_DATA >> 20} MiB a screenshot may take. Export it at 8 bits per "
                "channel or at a smaller size."
            )
        passes = ADAM7 if interlace else ((0, 0, 1, 1),)
        for x0, y0, dx, dy in passes:
            columns = (width - x0 + dx - 1) // dx if width > x0 else 0
            lines = (height - y0 + dy - 1) // dy if height > y0 else 0
            if columns and lines:
                self._rows += [1 + (columns * bits + 7) // 8] * lines
        self._row_left = self._rows[0]

    # --- the image data -------------------------------------------------------------------
    def _inflate(self, data: bytes) -> None:
        """Inflate in bounded steps, checking rows; a little data past the image is
        ignored, as decoders do; more is refused (a decompression bomb)."""
        try:
            while not self._inflater.eof:
                started = time.monotonic()
                out = self._inflater.decompress(data, self._INFLATE_STEP)
                self._spent(started)
                self._check_rows(out)
                data = self._inflater.unconsumed_tail
                if not out and not data:
                    return
        except zlib.error as exc:
            raise self._fail(f"corrupt PNG (image data: {exc})") from None

    def _spent(self, started: float) -> None:
        self._inflate_time += time.monotonic() - started
        if self._inflate_time > self.inflate_budget:
            raise InputImageError(
                f"{self.name}: decompressing this PNG takes longer than the "
                f"{self.inflate_budget:g} s a screenshot may take; it is not a plain "
                "screenshot. Re-export the screenshot."
            )

    def _inflate_chunk(self, chunk: _ChunkInflater, data: bytes) -> None:
        """Count what a zTXt/iTXt/iCCP chunk inflates to, in bounded steps; refuse it past
        :data:`MAX_CHUNK_INFLATED` (all of them past :data:`MAX_CHUNKS_INFLATED`)."""
        if chunk.skip:
            return
        if chunk.inflater is None:
            chunk.head += data
            start = chunk.data_start()
            if start is None:
                if len(chunk.head) > chunk.HEAD_LIMIT:
                    chunk.skip = True
                return
            data, chunk.head = bytes(chunk.head[start:]), bytearray()
            if chunk.skip:
                return
            chunk.inflater = zlib.decompressobj()
        kind = chunk.kind.decode("latin-1")
        try:
            while data and not chunk.inflater.eof:
                started = time.monotonic()
                out = chunk.inflater.decompress(data, self._INFLATE_STEP)
                self._spent(started)
                chunk.size += len(out)
                self._text_total += len(out)
                if chunk.size > MAX_CHUNK_INFLATED:
                    raise InputImageError(
                        f"{self.name}: its {kind} chunk decompresses to more than "
                        f"{MAX_CHUNK_INFLATED >> 20} MiB, more than a PNG's text or colour "
                        "profile may take. Re-export the screenshot without that metadata."
                    )
                if self._text_total > MAX_CHUNKS_INFLATED:
                    raise InputImageError(
                        f"{self.name}: its text and colour profile chunks decompress to more "
                        f"than {MAX_CHUNKS_INFLATED >> 20} MiB together. Re-export the "
                        "screenshot without that metadata."
                    )
                data = chunk.inflater.unconsumed_tail
                if not out:
                    return
        except zlib.error:
            chunk.skip = True  # a decoder ignores a corrupt text chunk: so do we

    def _check_rows(self, out: bytes) -> None:
        pos, total = 0, len(out)
        while pos < total:
            if self._row >= len(self._rows):
                self._too_much_data(total - pos)
                return
            if self._row_left == self._rows[self._row] and out[pos] > 4:
                raise self._fail(
                    f"corrupt PNG (unknown filter type {out[pos]} in row {self._row + 1})"
                )
            step = min(self._row_left, total - pos)
            pos += step
            self._row_left -= step
            if self._row_left == 0:
                self._row += 1
                if self._row < len(self._rows):
                    self._row_left = self._rows[self._row]

    def _too_much_data(self, size: int) -> None:
        """``size`` more bytes inflated past the last row: ignored, as decoders do, up to
        :data:`IMAGE_DATA_SLACK`; past that the file is a decompression bomb."""
        self._extra += size
        if self._extra > IMAGE_DATA_SLACK:
            header = self.header
            assert header is not None
            raise InputImageError(
                f"{self.name}: its image data decompresses to more than the "
                f"{sum(self._rows):,} bytes its header's {header.width}x{header.height} "
                "pixels need (a decompression bomb). Re-export the screenshot."
            )

    def _end_image_data(self) -> None:
        if b"IDAT" not in self._seen:
            raise self._fail("truncated PNG (no image data)")
        self._inflate(b"")  # output still held back by the inflater
        if not self._inflater.eof or self._row < len(self._rows):
            raise self._fail("truncated PNG (the image data ends early)")


def verify_png(
    source: str | Path | BinaryIO, name: str = "image", chunk_size: int = 1 << 20
) -> PngHeader:
    """Check a PNG file (or open binary file) with :class:`PngVerifier`; its header."""
    verifier = PngVerifier(name)
    if isinstance(source, (str, Path)):
        with open(source, "rb") as fh:
            return verify_png(fh, name, chunk_size)
    while piece := source.read(chunk_size):
        verifier.feed(piece)
    return verifier.close()

"""Keep the C allocator from handing every big image buffer back to the kernel.

A 1320x2868 render allocates and frees a handful of ~11 MB buffers (canvas, pixel
array, PNG rows). glibc serves blocks that big with a fresh ``mmap`` and unmaps them on
``free``, so every render pays for faulting ~30 MB of new pages in again: 40-50% of a
render's time on this kind of machine. Raising the mmap threshold makes those buffers
come from the heap, where freed memory is reused; the trim threshold bounds what the
heap keeps (128 MB). Only glibc has ``mallopt``; elsewhere this does nothing.
``SHOTSMITH_MALLOC_TUNING=0`` turns it off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

from .settings import current

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 64 << 20
TRIM_THRESHOLD = 128 << 20

_tuned: bool | None = None


def tune_allocator() -> bool:
    """Apply the thresholds once per process; True when glibc took them."""
    global _tuned
    if _tuned is not None:
        return _tuned
    _tuned = False
    if not sys.platform.startswith("linux") or not current().malloc_tuning:
        return _tuned
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (e.g. musl): leave the allocator alone
        return _tuned
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    _tuned = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
    return _tuned

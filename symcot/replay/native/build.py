"""The C compiler and the cache of compiled kernels.

The shared library's file name is the sha256 of the compiler, the flags and the source; it is written to a
temporary file and renamed atomically into the cache directory (``$SYMCOT_CACHE`` or
``~/.cache/symcot/native``), so concurrent processes may compile the same kernel.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from symcot.errors import SymcotError

#: Flags of every kernel (the optimisation level is added per decoder).
BASE_FLAGS = ("-shared", "-fPIC")
#: The optimisation level used by default (see the benchmark for compile times).
DEFAULT_OPT = "-O2"


class NativeError(SymcotError):
    """The C compiler is missing or failed, or the native kernel could not run."""


def compiler() -> str | None:
    """The C compiler: ``$CC`` if set, else ``cc`` or ``gcc`` on the ``PATH`` (``None`` when there is none)."""
    cc = os.environ.get("CC")
    if cc:
        return shutil.which(cc) or (cc if os.path.isfile(cc) else None)
    return shutil.which("cc") or shutil.which("gcc")


def cache_dir() -> Path:
    """The directory of compiled kernels: ``$SYMCOT_CACHE`` or ``~/.cache/symcot/native`` (created)."""
    env = os.environ.get("SYMCOT_CACHE")
    base = Path(env) if env else Path.home() / ".cache" / "symcot" / "native"
    try:
        base.mkdir(parents=True, exist_ok=True)
        return base
    except OSError:
        fallback = Path(tempfile.gettempdir()) / f"symcot-native-{os.getuid() if hasattr(os, 'getuid') else 0}"
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


def build(source: str, flags: tuple[str, ...]) -> tuple[Path, float]:
    """Compile ``source`` into the cache (or find it there).

    Args:
        source: the C source.
        flags: compiler flags (the output and input file names are added).

    Returns:
        ``(path of the shared library, seconds spent compiling)`` (``0.0`` when it was in the cache).

    Raises:
        NativeError: no compiler, or the compiler failed.

    """
    cc = compiler()
    if cc is None:
        raise NativeError("no C compiler found (set $CC or install cc/gcc)")
    key = hashlib.sha256("\0".join([cc, *flags, source]).encode()).hexdigest()
    d = cache_dir()
    out = d / f"{key}.so"
    if out.exists():
        return out, 0.0
    t0 = time.perf_counter()
    fd, src = tempfile.mkstemp(dir=d, prefix=f".{key[:16]}-", suffix=".c")
    with os.fdopen(fd, "w") as f:
        f.write(source)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=f".{key[:16]}-", suffix=".so")
    os.close(fd)
    try:
        res = subprocess.run([cc, *flags, "-o", tmp, src], capture_output=True, text=True)
        if res.returncode != 0:
            raise NativeError(f"{cc} failed ({res.returncode}): {res.stderr.strip()[:2000]}")
        os.replace(tmp, out)  # atomic: another process compiling the same kernel writes the same bytes
    finally:
        for p in (src, tmp):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass
    return out, time.perf_counter() - t0


_PROBE = """#include <stdint.h>
int symcot_probe(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
"""


@functools.lru_cache(maxsize=1)
def native_available() -> bool:
    """Whether a C compiler works here: a probe using ``__builtin_mul_overflow`` compiles and loads (cached)."""
    try:
        path, _ = build(_PROBE, (DEFAULT_OPT, *BASE_FLAGS))
        lib = ctypes.CDLL(str(path))
        r = ctypes.c_int64()
        f = lib.symcot_probe
        f.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)]
        f.restype = ctypes.c_int
        return f(2**62, 2, ctypes.byref(r)) == 1 and f(3, -5, ctypes.byref(r)) == 0 and r.value == -15
    except (NativeError, OSError, subprocess.SubprocessError):
        return False

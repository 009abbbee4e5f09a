"""The on-disk cache of files derived from packaged data (the ONNX graph, token ranks): where, and how written.

``GOODMEMORY_CACHE_DIR`` if set, else the user cache directory (``platformdirs``). Everything in it can be
deleted at any time; it is rebuilt on next use. Files are written to a temporary name in the same directory
and renamed into place, so a reader sees the old file, the new one, or none - never half of one.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

__all__ = ["atomic_write", "cache_dir"]


def cache_dir() -> Path:
    env = os.environ.get("GOODMEMORY_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("goodmemory", appauthor=False))


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()

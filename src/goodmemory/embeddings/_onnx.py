"""MiniLM on ONNX Runtime: the graph exported once per model version, cached on disk, one session per process.

The cache holds two files per model fingerprint in :func:`cache_dir`: ``minilm-<fp>.onnx`` (the encoder with
masked mean pooling and normalisation, float32) and ``minilm-<fp>.json`` (its size and sha256, and the regular
sentence-transformers path's vectors of a few probe texts, recorded at export). A file is used only if its
size and hash match and ONNX Runtime reproduces the probe vectors (cosine >= ``MIN_COSINE``); anything else
is a miss, and the caller re-exports. Both files are written to a temporary name and renamed into place,
the ``.json`` last, so a reader never takes a half-written graph; exporters in several processes are
serialised by a lock file (POSIX), and the loser of the race reuses the winner's file.

Loading needs only ``onnxruntime``, ``tokenizers`` and numpy; torch is imported by the export alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._cachedir import atomic_write, cache_dir

__all__ = ["EXPORT_VERSION", "MIN_COSINE", "OnnxMiniLM", "PROBES", "cache_dir", "fingerprint", "load_cached"]

#: bump when the exported graph or the cache format changes: old files are then ignored
EXPORT_VERSION = 2
MIN_COSINE = 0.9999
PROBES = (
    "hi",
    "When is my dentist appointment next week?",
    "I moved to Porto in 2021 and I still commute to the office in Braga twice a week by train.",
)
_SMALL_FILES = ("config.json", "modules.json", "sentence_bert_config.json", "tokenizer.json",
                "tokenizer_config.json", "special_tokens_map.json", "1_Pooling/config.json")


def fingerprint(model_path: Path) -> str:
    """The model version: its small files' bytes and the weights file's size and mtime, plus the export version.

    The weights are not hashed on every start (90 MB, ~0.2 s here); a reinstalled package gets a new mtime,
    which costs one re-export, never a stale graph."""
    h = hashlib.sha256(f"goodmemory-minilm-onnx-v{EXPORT_VERSION}".encode())
    for name in _SMALL_FILES:
        f = model_path / name
        h.update(name.encode() + b"\0" + (f.read_bytes() if f.exists() else b"-") + b"\0")
    try:  # the cached graph is optimised by and for this ONNX Runtime version
        from importlib.metadata import version

        h.update(f"onnxruntime-{version('onnxruntime')}".encode())
    except Exception:  # not installed: nothing will load the graph anyway
        h.update(b"onnxruntime-?")
    for weights in ("model.safetensors", "pytorch_model.bin"):
        f = model_path / weights
        if f.exists():
            st = f.stat()
            h.update(f"{weights}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:20]


def max_seq_length(model_path: Path) -> int:
    try:
        return int(json.loads((model_path / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, KeyError, ValueError, TypeError):
        return 256


def import_onnxruntime() -> Any:
    """``onnxruntime`` with its telemetry off: the opt-out is read when the library loads, so it is set for our
    import only (and the host's environment restored); an earlier import by the host is switched off by call."""
    import sys

    if "onnxruntime" in sys.modules:
        import onnxruntime as ort  # type: ignore[import-untyped]
    else:
        old = os.environ.get("ORT_DISABLE_TELEMETRY")
        os.environ["ORT_DISABLE_TELEMETRY"] = "1"
        try:
            import onnxruntime as ort
        finally:
            if old is None:
                os.environ.pop("ORT_DISABLE_TELEMETRY", None)
            else:
                os.environ["ORT_DISABLE_TELEMETRY"] = old
    with contextlib.suppress(Exception):
        ort.disable_telemetry_events()
    return ort


class OnnxMiniLM:
    """An ONNX Runtime session over the exported graph and the model's own tokenizer; thread-safe."""

    def __init__(self, graph: bytes, model_path: Path, *, threads: int = 1, batch_size: int = 64,
                 optimized: bool = False) -> None:
        from tokenizers import Tokenizer

        ort = import_onnxruntime()
        options = ort.SessionOptions()
        if optimized:  # optimised once at export (_optimize): loading skips that work (~0.15 s here)
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        options.intra_op_num_threads = max(0, threads)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no busy-waiting threads
        options.log_severity_level = 3
        self._session = ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
        tok = Tokenizer.from_file(str(model_path / "tokenizer.json"))
        tok.no_padding()  # padding is done per length-sorted batch below
        tok.enable_truncation(max_seq_length(model_path))
        self._tokenizer = tok
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        encs = self._tokenizer.encode_batch(list(texts)) if len(texts) > 1 else [self._tokenizer.encode(texts[0])]
        out: np.ndarray | None = None
        order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))
        for idx in _batches(order, [len(e.ids) for e in encs], self.batch_size):
            n = max(len(encs[i].ids) for i in idx)
            ids = np.zeros((len(idx), n), dtype=np.int64)
            mask = np.zeros((len(idx), n), dtype=np.int64)
            for row, i in enumerate(idx):
                k = len(encs[i].ids)
                ids[row, :k] = encs[i].ids
                mask[row, :k] = 1
            (vec,) = self._session.run(["vec"], {"ids": ids, "mask": mask})
            if out is None:
                out = np.zeros((len(texts), vec.shape[1]), dtype=np.float32)
            out[idx] = vec
        assert out is not None  # texts is never empty here
        return out


def _batches(order: list[int], lengths: list[int], size: int, waste: float = 0.3, slack: int = 32) -> Iterator[list[int]]:
    """Length-sorted batches that cut where padding would exceed ``waste`` of the real tokens (plus ``slack``).

    Sorting alone (what sentence-transformers does) still pads a call's twenty short turns to its one long
    session digest: 1,498 padded tokens for 326 real ones in the bench's calls. A session run is ~1 ms,
    a padded token costs as much as a real one."""
    batch: list[int] = []
    real = 0
    for i in order:
        n = lengths[i]
        if batch and (len(batch) == size or (len(batch) + 1) * n > (1 + waste) * (real + n) + slack):
            yield batch
            batch, real = [], 0
        batch.append(i)
        real += n
    if batch:
        yield batch


def _paths(directory: Path, fp: str) -> tuple[Path, Path]:
    return directory / f"minilm-{fp}.onnx", directory / f"minilm-{fp}.json"


def cached_graph(model_path: Path, directory: Path) -> Path:
    """The metadata file of this model version's cached graph (written last: it exists once both do)."""
    return _paths(directory, fingerprint(model_path))[1]


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1) + 1e-12)


def load_cached(model_path: Path, directory: Path, *, threads: int, batch_size: int) -> OnnxMiniLM | None:
    """The cached graph as a verified session, or None (missing, corrupt, or disagreeing with its probes)."""
    graph_file, meta_file = _paths(directory, fingerprint(model_path))
    try:
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        graph = graph_file.read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or len(graph) != meta.get("size") or \
            hashlib.sha256(graph).hexdigest() != meta.get("sha256"):
        return None
    try:
        runtime = OnnxMiniLM(graph, model_path, threads=threads, batch_size=batch_size, optimized=True)
        reference = np.asarray(meta["probes"], dtype=np.float32)
        got = runtime.embed(list(PROBES))
        if reference.shape != got.shape or float(np.min(_cosines(got, reference))) < MIN_COSINE:
            return None
    except Exception:  # an unreadable graph is a miss like any other
        return None
    return runtime


@contextlib.contextmanager
def _export_lock(directory: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: exporters may race; the rename keeps files whole
        yield
        return
    with open(directory / ".export.lock", "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _optimize(graph: bytes) -> bytes:
    """The graph after ONNX Runtime's extended (hardware-independent) optimisations, as ONNX bytes."""
    import tempfile

    ort = import_onnxruntime()
    with tempfile.TemporaryDirectory() as tmp:
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        options.optimized_model_filepath = str(Path(tmp) / "optimized.onnx")
        options.log_severity_level = 3
        ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
        return (Path(tmp) / "optimized.onnx").read_bytes()


def load_or_export(model_path: Path, directory: Path, export: Callable[[], tuple[bytes, np.ndarray]], *,
                   threads: int, batch_size: int) -> tuple[OnnxMiniLM, bool]:
    """The cached session, else ``export()`` -> (graph bytes, probe vectors of the regular path), verified,
    written to the cache and loaded. Returns the session and whether this call exported."""
    runtime = load_cached(model_path, directory, threads=threads, batch_size=batch_size)
    if runtime is not None:
        return runtime, False
    directory.mkdir(parents=True, exist_ok=True)
    with _export_lock(directory):
        runtime = load_cached(model_path, directory, threads=threads, batch_size=batch_size)
        if runtime is not None:  # another process exported while we waited
            return runtime, False
        raw, reference = export()
        graph = _optimize(raw)
        runtime = OnnxMiniLM(graph, model_path, threads=threads, batch_size=batch_size, optimized=True)
        got = runtime.embed(list(PROBES))
        worst = float(np.min(_cosines(got, reference)))
        if worst < MIN_COSINE:
            raise ValueError(f"the exported graph disagrees with the model (cosine {worst:.6f})")
        graph_file, meta_file = _paths(directory, fingerprint(model_path))
        meta = {"size": len(graph), "sha256": hashlib.sha256(graph).hexdigest(), "export_version": EXPORT_VERSION,
                "model_path": str(model_path), "probes": reference.astype(float).tolist()}
        atomic_write(graph_file, graph)
        atomic_write(meta_file, json.dumps(meta).encode("utf-8"))
        return runtime, True

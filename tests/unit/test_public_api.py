from __future__ import annotations

import goodmemory
from goodmemory import errors


def test_public_names_are_exported_and_exist() -> None:
    assert sorted(goodmemory.__all__) == sorted(set(goodmemory.__all__))
    for name in goodmemory.__all__:
        assert hasattr(goodmemory, name), name
    for name in ("create_good_memory", "GoodMemory", "GoodMemoryError", "MemoryRecord", "Context"):
        assert name in goodmemory.__all__


def test_error_tree() -> None:
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, errors.GoodMemoryError)
    assert issubclass(errors.StorageUnavailableError, errors.StorageError)
    assert issubclass(errors.SchemaVersionError, errors.StorageError)
    assert not issubclass(errors.GoodMemoryError, MemoryError)  # no shadowing of the builtin


def test_py_typed_ships() -> None:
    from pathlib import Path

    assert (Path(goodmemory.__file__).parent / "py.typed").exists()

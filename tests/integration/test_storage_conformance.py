from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from goodmemory.storage.memory import InMemoryStorage
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing.conformance import StorageConformance


class TestInMemoryStorage(StorageConformance):
    @pytest.fixture
    def storage(self) -> Iterator[InMemoryStorage]:
        s = InMemoryStorage()
        yield s
        s.close()


class TestSQLiteInMemory(StorageConformance):
    @pytest.fixture
    def storage(self) -> Iterator[SQLStorage]:
        s = SQLStorage("sqlite://")
        yield s
        s.close()


class TestSQLiteFile(StorageConformance):
    @pytest.fixture
    def storage(self, tmp_path: Path) -> Iterator[SQLStorage]:
        s = SQLStorage(f"sqlite:///{tmp_path / 'gm.db'}")
        yield s
        s.close()

"""Markers come from the folder a test lives in."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_MARKERS = {"unit": "unit", "integration": "integration", "scenarios": "scenario", "eval": "eval"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = Path(str(item.fspath)).parts
        for folder, marker in _MARKERS.items():
            if folder in parts:
                item.add_marker(getattr(pytest.mark, marker))


@pytest.fixture(scope="session")
def write_eval() -> Any:
    """scripts/run_write_eval.py as a module: the write corpus's loader and its replay through the facade."""
    script = Path(__file__).parents[1] / "scripts" / "run_write_eval.py"
    spec = importlib.util.spec_from_file_location("run_write_eval", script)
    assert spec is not None and spec.loader is not None
    if "run_write_eval" not in sys.modules:
        sys.modules["run_write_eval"] = importlib.util.module_from_spec(spec)  # its dataclasses look it up
        spec.loader.exec_module(sys.modules["run_write_eval"])
    return sys.modules["run_write_eval"]


@pytest.fixture
def frozen_mem(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A GoodMemory on in-memory SQLite whose clock stands at the test module's ``T0``."""
    from goodmemory import create_good_memory
    from goodmemory.testing import FrozenClock

    mem = create_good_memory("sqlite://", clock=FrozenClock(request.module.T0))
    yield mem
    mem.close()

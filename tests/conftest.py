"""Markers come from the folder a test lives in."""

from __future__ import annotations

from pathlib import Path

import pytest

_MARKERS = {"unit": "unit", "integration": "integration", "scenarios": "scenario", "eval": "eval"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = Path(str(item.fspath)).parts
        for folder, marker in _MARKERS.items():
            if folder in parts:
                item.add_marker(getattr(pytest.mark, marker))

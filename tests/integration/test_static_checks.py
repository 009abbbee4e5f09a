"""Lint and types are part of the suite: ruff over the tree, mypy over the package (config in pyproject)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("cmd", [["ruff", "check", "src", "tests", "scripts"], ["mypy"]], ids=["ruff", "mypy"])
def test_static_check_passes(cmd: list[str]) -> None:
    exe = shutil.which(cmd[0], path=str(Path(sys.executable).parent))
    assert exe is not None, f"{cmd[0]} is not installed (it is in the dev extra)"
    proc = subprocess.run([exe, *cmd[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]

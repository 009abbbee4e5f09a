"""The built wheel carries what `goodmemory eval` reads: the persona fixtures and the release gate
(scripts/check_extras.sh wheel-core runs `goodmemory eval --smoke` from a clean virtualenv on it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.slow
def test_the_wheel_ships_the_eval_fixtures_and_gate(tmp_path: Path) -> None:
    src = tmp_path / "src"  # a copy: a build/ left in the checkout would answer with its old files
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    for name in ("src", "fixtures", "eval"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path / "dist"), str(src)], check=True, capture_output=True, timeout=600)
    (wheel,) = (tmp_path / "dist").glob("goodmemory-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "goodmemory/eval/gate.yaml" in names
    assert (ROOT / "eval" / "gate.yaml").read_bytes() == zipfile.ZipFile(wheel).read("goodmemory/eval/gate.yaml")
    personas = {p.name for p in (ROOT / "fixtures" / "personas").glob("*.yaml")}
    assert personas and {f"goodmemory/eval/_fixtures/personas/{p}" for p in personas} <= names

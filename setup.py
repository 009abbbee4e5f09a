"""Build hook: the persona fixtures (``fixtures/``, the repository's evaluation data) go into the wheel as
``goodmemory/eval/_fixtures``, and the release gate (``eval/gate.yaml``) as ``goodmemory/eval/gate.yaml``, so that
``goodmemory eval`` (``--smoke`` applies the gate) works from a pip install. Everything else is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildPyWithFixtures(build_py):
    def run(self) -> None:
        super().run()
        src = ROOT / "fixtures"
        if src.is_dir():
            dst = Path(self.build_lib) / "goodmemory" / "eval" / "_fixtures"
            shutil.copytree(src, dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.pyc", "__pycache__"))
        gate = ROOT / "eval" / "gate.yaml"
        if gate.is_file():
            shutil.copy2(gate, Path(self.build_lib) / "goodmemory" / "eval" / "gate.yaml")


setup(cmdclass={"build_py": BuildPyWithFixtures})

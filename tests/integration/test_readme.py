"""The README's Python blocks run as written (the quickstart is a test)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).parents[2] / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_a_quickstart() -> None:
    assert _blocks(), "README has no python block"
    assert "bash scripts/install.sh && .venv/bin/python -m pytest" in README.read_text(encoding="utf-8")


def test_readme_python_blocks_run(capsys) -> None:  # type: ignore[no-untyped-def]
    for block in _blocks():
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert "<memory-context>" in out and "Porto" in out and "['Lisbon', 'Porto']" in out

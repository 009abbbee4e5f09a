"""External evaluation suites: the layered user-memory YAML suite and LoCoMo.

``user_memory`` loads and scores the three-layer business-conversation suite
(keyword recall, optional LLM judge), ``locomo`` replays LoCoMo conversations
and measures evidence recall, ``baselines`` holds the reference retrieval
systems both suites compare GoodMemory against, and ``cli.main`` is the
command line (``scripts/run_eval.py --suite user-memory|locomo``).

This module also holds :func:`print_table`, the table printer both suites use.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

__all__ = ["fmt_score", "print_table"]


def fmt_score(value: float | None, digits: int = 3) -> str:
    """A score with fixed digits, or an em dash when there is none."""
    return "—" if value is None else f"{value:.{digits}f}"


def _numeric(value: str) -> bool:
    if value in ("—", ""):
        return True
    try:
        float(value)
    except ValueError:
        return False
    return True


def print_table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    file: TextIO | None = None,
    caption: str | None = None,
) -> None:
    """Prints a table with ``rich`` when it is installed, else as aligned plain text."""
    out = file if file is not None else sys.stdout
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is in the eval extra
        widths = [max(len(str(c)), *(len(str(r[i])) for r in rows)) for i, c in enumerate(columns)]
        print(title, file=out)
        print("  ".join(str(c).ljust(w) for c, w in zip(columns, widths, strict=True)), file=out)
        print("  ".join("-" * w for w in widths), file=out)
        for r in rows:
            print("  ".join(str(v).ljust(w) for v, w in zip(r, widths, strict=True)), file=out)
        if caption:
            print(caption, file=out)
        return
    table = Table(title=title, min_width=len(title) + 4)
    for i, c in enumerate(columns):
        numeric = i > 0 and all(_numeric(str(r[i])) for r in rows)
        table.add_column(str(c), justify="right" if numeric else "left", no_wrap=True)
    for r in rows:
        table.add_row(*(str(v) for v in r))
    width = max(
        100, sum(max(len(str(c)), *(len(str(r[i])) for r in rows)) + 3 for i, c in enumerate(columns)) + 4
    )
    console = Console(file=out, width=width, highlight=False, soft_wrap=False)
    console.print(table)
    if caption:
        console.print(caption, soft_wrap=True, markup=False)

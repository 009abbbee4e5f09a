"""Token budgeting (pure): choose what fits, measured on the final text.

Items arrive in priority order. The packed set is the longest *prefix* of
that order whose rendered text fits ``max_tokens`` (headers included). A
prefix rule makes the guarantee exact: a larger budget always packs a
superset of what a smaller one packs, and the result is never over budget.
Items longer than ``max_item_tokens`` are truncated first, so one long item
cannot block the rest. With ``shorten``, the first item that does not fit may
go in cut to the tokens left (the budget is spent, not left to the frame);
a larger budget still packs the same items, that one longer or whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["PackResult", "pack"]

T = TypeVar("T")


@dataclass
class PackResult(Generic[T]):
    selected: list[T]
    dropped: list[T]
    text: str
    tokens: int
    renders: int = 0
    notes: list[str] = field(default_factory=list)


def pack(
    items: Sequence[T],
    max_tokens: int,
    *,
    render: Callable[[Sequence[T]], str],
    count: Callable[[str], int],
    item_tokens: Callable[[T], int],
    overhead_tokens: Callable[[Sequence[T], T], int] = lambda chosen, item: 0,
    shorten: Callable[[T, int], T | None] | None = None,
) -> PackResult[T]:
    """Longest prefix of ``items`` whose ``render`` fits in ``max_tokens``.

    ``item_tokens`` and ``overhead_tokens`` give an estimate used to find the
    prefix quickly; the final text is always counted exactly and the prefix
    shortened until it fits.
    """
    if max_tokens <= 0:
        raise ValueError("max_tokens must be positive")
    renders = 0
    # estimate: grow the prefix while the running estimate fits
    base_text = render([])
    renders += 1
    base = count(base_text)
    if base > max_tokens:
        return PackResult([], list(items), "", 0, renders, ["even the empty frame does not fit"])
    est = base
    k = 0
    for item in items:
        cost = item_tokens(item) + overhead_tokens(items[:k], item)
        if est + cost > max_tokens:
            break
        est += cost
        k += 1
    # exact: shrink until the real text fits, then try to grow by one while it fits
    text = render(items[:k])
    renders += 1
    tokens = count(text)
    while k > 0 and tokens > max_tokens:
        k -= 1
        text = render(items[:k])
        renders += 1
        tokens = count(text)
    while k < len(items):
        nxt = render(items[: k + 1])
        renders += 1
        n = count(nxt)
        if n > max_tokens:
            break
        k, text, tokens = k + 1, nxt, n
    if k == 0:
        text, tokens = base_text, base
    selected = list(items[:k])
    if shorten is not None and k < len(items):
        room = max_tokens - tokens - overhead_tokens(selected, items[k])
        while room > 0:
            cut = shorten(items[k], room)
            if cut is None:
                break
            nxt = render([*selected, cut])
            renders += 1
            n = count(nxt)
            if n <= max_tokens:
                return PackResult([*selected, cut], list(items[k + 1:]), nxt, n, renders, ["last item shortened"])
            room -= n - max_tokens
    return PackResult(selected, list(items[k:]), text, tokens, renders)

"""Rules first, the LLM for the rest: one extractor that spends model calls only where the rules read nothing.

:class:`CombinedExtractor` runs the rule extractor over the batch; the user turns no rule read
(those that gave only statement candidates, or nothing) go to the LLM extractor together with
the assistant turn each answers, so a question's context is kept. The LLM's candidates replace the
statement candidates of those turns. When the LLM fails, the rules' statements stand (logged),
so an outage never loses what the offline path would have kept.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from ..errors import ExtractionError
from ..models import Candidate, Message
from .base import ExtractionContext, Extractor
from .rules import RuleExtractor

__all__ = ["CombinedExtractor", "make_extractor"]

log = logging.getLogger(__name__)


class CombinedExtractor:
    """Rule extractor first; ``llm`` (any :class:`Extractor`, normally ``LLMExtractor``) for unread user turns."""

    name = "combined"

    def __init__(self, llm: Extractor, rules: Extractor | None = None) -> None:
        self.llm = llm
        self.rules = rules if rules is not None else RuleExtractor()

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]:
        msgs = list(messages)
        ruled = self.rules.extract(msgs, ctx)
        read = {mid for c in ruled if not c.metadata.get("statement") for mid in c.message_ids}
        unread = [i for i, m in enumerate(msgs) if m.role == "user" and m.content.strip() and m.id not in read]
        if not unread:
            return ruled
        picked: list[int] = []
        for i in unread:
            if i > 0 and msgs[i - 1].role == "assistant" and (not picked or picked[-1] != i - 1):
                picked.append(i - 1)  # the question the turn answers
            picked.append(i)
        batch = [msgs[i] for i in sorted(set(picked))]
        try:
            extra = self.llm.extract(batch, ctx)
        except ExtractionError as exc:
            log.warning("LLM extraction failed in combined mode (%s); keeping the rules' statements", exc)
            return ruled
        unread_ids = {msgs[i].id for i in unread}
        kept = [c for c in ruled if not (c.metadata.get("statement") and set(c.message_ids) & unread_ids)]
        return kept + [c.model_copy(update={"metadata": {**c.metadata, "rule": f"llm:{self.llm.name}"}}) for c in extra]


def make_extractor(mode: str, llm: Any = None) -> Extractor:
    """The extractor a config's ``extraction`` mode names: ``rules`` (offline), ``llm`` (the model for every
    batch, rules when it keeps failing) or ``combined`` (rules first, the model for what they left).
    ``llm`` is an :class:`goodmemory.llm.LLMClient` or None (then built from the environment)."""
    if mode == "rules":
        return RuleExtractor()
    from ..llm.client import LLMClient
    from .llm import LLMExtractor

    client = llm if isinstance(llm, LLMClient) else None
    if mode == "llm":
        return LLMExtractor(client, fallback=RuleExtractor())
    if mode == "combined":
        return CombinedExtractor(LLMExtractor(client))
    raise ValueError(f"unknown extraction mode {mode!r}")

"""Live mode plumbing: the endpoint check before a run, the LLM answerer, and token/cost metering.

Token counts are estimated with GoodMemory's offline tokenizer over every
message sent and every reply received (``goodmemory.llm.LLMClient`` returns
text only); cost is those counts times the prices given on the command line
(USD per million tokens, 0 when not given).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import openai

from ..errors import LLMError
from ..llm import LLMConfig
from ..tokens import count_tokens

__all__ = ["LLMAnswerer", "Meter", "MeteredClient", "preflight"]


def preflight(cfg: LLMConfig, *, timeout_s: float = 5.0) -> str | None:
    """One line saying why the endpoint cannot be used, or None when it answers."""
    if not cfg.base_url and not cfg.api_key:
        return ("no LLM endpoint configured: set OPENAI_BASE_URL (any OpenAI-compatible server) and/or "
                "OPENAI_API_KEY, or run without --live")
    client = openai.OpenAI(base_url=cfg.endpoint, api_key=cfg.api_key or "not-needed",
                           timeout=min(timeout_s, cfg.timeout_s), max_retries=0)
    try:
        client.models.list()
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        return f"the LLM endpoint {cfg.endpoint} refused the API key (HTTP {exc.status_code})"
    except openai.APIStatusError:
        return None  # it answered; not every compatible server lists models
    except openai.APIConnectionError as exc:  # includes timeouts
        cause = exc.__cause__ or exc
        return f"the LLM endpoint {cfg.endpoint} is unreachable ({type(cause).__name__}: {str(cause)[:120]})"
    finally:
        client.close()
    return None


@dataclass
class Meter:
    """Calls, failures and estimated tokens of one role (answerer or judge)."""

    model: str
    price_in: float = 0.0  # USD per million prompt tokens
    price_out: float = 0.0
    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    errors: list[str] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        cost = (self.prompt_tokens * self.price_in + self.completion_tokens * self.price_out) / 1e6
        return {"model": self.model, "calls": self.calls, "failures": self.failures,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.prompt_tokens + self.completion_tokens, "cost_usd": round(cost, 6),
                "price_per_million": {"input": self.price_in, "output": self.price_out},
                "errors": self.errors[:10]}


class MeteredClient:
    """Wraps an ``LLMClient``: same ``complete``, counting what goes out and comes back."""

    def __init__(self, client: Any, meter: Meter) -> None:
        self.client, self.meter = client, meter

    def complete(self, messages: Sequence[Mapping[str, Any]], *, model: str | None = None) -> str:
        self.meter.calls += 1
        self.meter.prompt_tokens += sum(count_tokens(str(m.get("content", ""))) for m in messages)
        try:
            reply = str(self.client.complete(messages, model=model))
        except LLMError as exc:
            self.meter.failures += 1
            self.meter.errors.append(str(exc)[:200])
            raise
        self.meter.completion_tokens += count_tokens(reply)
        return reply

    def close(self) -> None:
        self.client.close()


class LLMAnswerer:
    """Answers with the same system prompt for every system; only the context differs."""

    name = "llm"

    def __init__(self, client: Any, model: str | None) -> None:
        self.client, self.model = client, model
        self.system = resources.files("goodmemory.eval").joinpath("prompts/answer.md").read_text(encoding="utf-8")

    def answer(self, question: str, context: str | None) -> str:
        system = self.system + ("\n\n" + context if context else "\n\n(No memory of earlier sessions.)")
        return str(self.client.complete([{"role": "system", "content": system},
                                         {"role": "user", "content": question}], model=self.model))

"""LLM access: the OpenAI-compatible client GoodMemory uses for extraction and judging."""

from .client import LLMClient, LLMConfig

__all__ = ["LLMClient", "LLMConfig"]

"""Adapters to the agent stacks people run: MCP, OpenAI Agents SDK, LangGraph, OpenTelemetry.

Each adapter lives in its own module and needs its optional extra
(``pip install "goodmemory[mcp]"`` and so on); this package imports none of
them, so ``import goodmemory`` never pulls a framework in.
"""

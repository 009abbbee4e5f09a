"""GoodMemory: long-term user memory for LLM agents."""

"""create_good_memory(llm=...) is used or refused, never silently ignored (issue 22): it builds the extractor of
extraction='llm'/'combined' (an LLMClient or an LLMConfig); with the rules extractor, beside an extractor of the
caller's, or as something that is not an LLM client, it is a ConfigurationError."""

from __future__ import annotations

import pytest

from goodmemory import ConfigurationError, GoodMemoryConfig, create_good_memory
from goodmemory.extraction.combined import CombinedExtractor
from goodmemory.extraction.llm import LLMExtractor
from goodmemory.llm import LLMClient, LLMConfig
from goodmemory.testing import FakeEmbedder, NullExtractor

pytestmark = pytest.mark.integration

CONFIG = LLMConfig(base_url="http://127.0.0.1:9/v1", api_key="test", model="m")  # never called here


@pytest.mark.parametrize("llm", [LLMClient(CONFIG), CONFIG])
def test_llm_builds_the_extractor_of_the_llm_modes(llm: object) -> None:
    with create_good_memory("memory://", embedder=FakeEmbedder(), llm=llm,
                            config=GoodMemoryConfig(extraction="llm")) as mem:
        assert isinstance(mem.extractor, LLMExtractor) and isinstance(mem.llm, LLMClient)
        assert mem.llm.config.base_url == CONFIG.base_url  # the one passed, not one from the environment
    with create_good_memory("memory://", embedder=FakeEmbedder(), llm=llm,
                            config=GoodMemoryConfig(extraction="combined")) as mem:
        assert isinstance(mem.extractor, CombinedExtractor)


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"llm": LLMClient(CONFIG)}, "'rules'"),  # the default extraction never calls a model
    ({"llm": LLMClient(CONFIG), "extractor": NullExtractor(), "config": GoodMemoryConfig(extraction="llm")},
     "extractor was passed"),
    ({"llm": object(), "config": GoodMemoryConfig(extraction="llm")}, "LLMClient or LLMConfig"),
    ({"llm": "gpt-4o", "config": GoodMemoryConfig(extraction="combined")}, "LLMClient or LLMConfig"),
])
def test_an_llm_nothing_would_use_is_refused(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises(ConfigurationError, match=says):
        create_good_memory("memory://", embedder=FakeEmbedder(), **kwargs)  # type: ignore[arg-type]

"""The README's configuration reference is generated from the config models and stays complete."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from goodmemory.config import GoodMemoryConfig, StorageConfig
from goodmemory.llm.client import LLMConfig

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("config_reference", ROOT / "scripts" / "config_reference.py")
assert _spec is not None and _spec.loader is not None
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)


def test_readme_block_is_the_generated_reference() -> None:
    block = ref.readme_block((ROOT / "README.md").read_text(encoding="utf-8"))
    assert block is not None, "README.md lost the config-reference markers"
    assert block == ref.render(), "run: python scripts/config_reference.py --write"


def test_every_setting_has_a_row() -> None:
    text = ref.render()
    for name in GoodMemoryConfig.model_fields:
        if name != "storage":
            assert f"| `{name}` |" in text, name
    for name in StorageConfig.model_fields:
        assert f"| `storage.{name}` |" in text, name
    for name in LLMConfig.model_fields:
        assert f"| `{name}` |" in text, name


def test_every_environment_variable_the_package_reads_is_documented() -> None:
    used = set()
    for path in (ROOT / "src" / "goodmemory").rglob("*.py"):
        used |= set(re.findall(r"GOODMEMORY_[A-Z_]+", path.read_text(encoding="utf-8")))
    assert used, "found no GOODMEMORY_* variables: the scan is broken"
    assert sorted(used - set(ref.ENV)) == []

"""The dependency direction of DESIGN.md section 6, checked on the source: who may import whom, no new cycles,
no new module over 500 lines.

The known exceptions are listed by name with the reason they are still there. The lists are a ratchet: a listed
exception that no longer occurs fails the suite too, so fixing one means deleting its line, and a new one can
only come in by adding a line that a reviewer sees.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

# Lower number = lower layer. A module may import its own layer or lower ones, never a higher one.
LAYERS: dict[str, int] = {
    # the data model
    "models": 0, "errors": 0, "_meta": 0,
    # pure policy: no I/O, take a clock
    "text": 1, "dates": 1, "keys": 1, "taxonomy": 1, "lifecycle": 1, "routing": 1, "ranking": 1, "budget": 1,
    "verification": 1, "context": 1, "digest": 1, "secrets": 1, "merge": 1, "config": 1, "_validate": 1,
    "_key_families": 1, "_short_ids": 1, "_outdated": 1, "_value_types": 1, "_replaced": 1, "_change_words": 1,
    "_replies": 1, "_value_words": 1, "_echoed": 1, "_brands": 1, "_successor": 1,
    # parts that do I/O or hold models
    "extraction": 2, "embeddings": 2, "storage": 2, "llm": 2, "tokens": 2, "testing": 2, "_cachedir": 2,
    # the pipelines
    "_write": 3, "_read": 3, "_read_lists": 1, "_cues": 3, "_shown": 3, "maintenance": 3, "_feedback": 3, "_forget": 3, "_attributes": 3, "_marks": 3,
    "_named_back": 3, "_prototypes": 3, "_earlier_search": 3, "_subjects": 3,
    "_apply": 3,
    # the facade
    "memory": 4,
    # wrappers of the facade (telemetry wraps it from outside) and the public namespace
    "aio": 5, "__init__": 5, "integrations.otel": 5, "_version": 0,
    # what is built on the library
    "integrations": 6, "cli": 6, "eval": 6, "_doctor": 6, "_cli_group": 6, "_cli_storage": 6, "_cli_rows": 6,
}

# (importer, imported) pairs that break the direction today, with why they are not fixed yet.
KNOWN_LAYER_BREAKS: dict[tuple[str, str], str] = {}

# Import cycles between modules that exist today (each as the sorted set of its modules).
KNOWN_CYCLES: set[frozenset[str]] = set()

# Modules over the size limit today.
SIZE_LIMIT = 500
KNOWN_LARGE: set[str] = set()


def module_name(path: Path, package_root: Path) -> str:
    parts = path.relative_to(package_root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, module: str, modules: set[str]) -> set[str]:
    """The package's own modules the file imports, at any depth of the file (relative imports resolved).

    ``from pkg import name`` counts as an import of the submodule ``pkg.name`` where there is one, else of ``pkg``.
    """
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {name for name in found if name in modules and name != module}


def import_graph(package_root: Path) -> dict[str, set[str]]:
    """module -> the package's own modules it imports."""
    files = {module_name(p, package_root): p for p in package_root.rglob("*.py")}
    return {module: imports_of(path, module, set(files)) for module, path in files.items()}


def layer_key(module: str) -> str:
    """The LAYERS entry of a module: its subpackage (``storage``), or a module named apart (``integrations.otel``)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    if len(parts) >= 3 and f"{parts[1]}.{parts[2]}" in LAYERS:
        return f"{parts[1]}.{parts[2]}"
    return parts[1]


def layer_breaks(graph: dict[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    breaks: dict[tuple[str, str], list[str]] = {}
    for module, targets in graph.items():
        src = layer_key(module)
        for target in targets:
            dst = layer_key(target)
            if src == dst:
                continue
            if src not in LAYERS or dst not in LAYERS:
                breaks.setdefault((src, dst), []).append(f"{module} -> {target} (module not in LAYERS)")
            elif LAYERS[dst] > LAYERS[src]:
                breaks.setdefault((src, dst), []).append(f"{module} -> {target}")
    return breaks


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component: set[str] = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def large_modules(package_root: Path) -> set[str]:
    return {
        module_name(p, package_root)
        for p in package_root.rglob("*.py")
        if len(p.read_text(encoding="utf-8").splitlines()) > SIZE_LIMIT
    }


PACKAGE = ROOT / "src" / "goodmemory"


def test_every_module_has_a_layer() -> None:
    unknown = sorted({layer_key(m) for m in import_graph(PACKAGE)} - set(LAYERS))
    assert not unknown, f"give these a layer in LAYERS (DESIGN.md section 6): {unknown}"


def test_imports_follow_the_dependency_direction() -> None:
    breaks = layer_breaks(import_graph(PACKAGE))
    new = {pair: where for pair, where in breaks.items() if pair not in KNOWN_LAYER_BREAKS}
    assert not new, "imports against the dependency direction:\n" + "\n".join(
        line for lines in new.values() for line in lines
    )
    fixed = sorted(set(KNOWN_LAYER_BREAKS) - set(breaks))
    assert not fixed, f"fixed, so delete them from KNOWN_LAYER_BREAKS: {fixed}"


def test_no_new_import_cycles() -> None:
    found = cycles(import_graph(PACKAGE))
    assert not found - KNOWN_CYCLES, f"new import cycles: {[sorted(c) for c in found - KNOWN_CYCLES]}"
    assert not KNOWN_CYCLES - found, f"gone, so delete from KNOWN_CYCLES: {[sorted(c) for c in KNOWN_CYCLES - found]}"


def test_no_new_module_over_the_size_limit() -> None:
    large = large_modules(PACKAGE)
    assert not large - KNOWN_LARGE, f"modules over {SIZE_LIMIT} lines: {sorted(large - KNOWN_LARGE)}"
    assert not KNOWN_LARGE - large, f"now small, so delete from KNOWN_LARGE: {sorted(KNOWN_LARGE - large)}"


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "goodmemory"
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "body",
    ["from goodmemory.memory import GoodMemory\n", "from .memory import GoodMemory\n", "import goodmemory.memory\n",
     "def f():\n    from goodmemory import memory\n"],
    ids=["absolute", "relative", "import", "inside-function"],
)
def test_a_planted_upward_import_is_caught(tmp_path: Path, body: str) -> None:
    root = _tree(tmp_path, {"__init__.py": "", "models.py": "", "memory.py": "", "ranking.py": body})
    assert ("ranking", "memory") in layer_breaks(import_graph(root))


def test_a_downward_import_is_allowed(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"__init__.py": "", "models.py": "", "memory.py": "from .models import X\n"})
    assert layer_breaks(import_graph(root)) == {}


def test_a_planted_cycle_and_a_planted_large_module_are_caught(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {"__init__.py": "", "storage/__init__.py": "", "storage/a.py": "from goodmemory.storage import b\n",
         "storage/b.py": "from goodmemory.storage.a import x\n" + "y = 1\n" * SIZE_LIMIT},
    )
    assert cycles(import_graph(root)) == {frozenset({"goodmemory.storage.a", "goodmemory.storage.b"})}
    assert large_modules(root) == {"goodmemory.storage.b"}

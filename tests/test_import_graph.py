"""The import graph of helpers/, read from the code: no cycles, no upward arrows, no private names across modules.

The graph is built with `ast` from every helpers/**/*.py, imports inside functions included (a lazy import is
still an arrow: it only moves the moment the cycle bites). Each failure names the importing module, the file
and line, and the module it reaches.

The layers, bottom to top (an arrow may only point down or sideways):
1. helpers.offline.*: the offline model imports nothing from helpers outside helpers.offline;
2. the lesson helpers (helpers/*.py and helpers/tools/*): nothing from helpers.checks or helpers.maint;
3. helpers.checks.*: nothing from helpers.maint;
4. helpers.maint.*: anything.

Left out on purpose: attribute access to a private name (`module._x`) without an import, and the implicit
arrow from a submodule to its package's __init__ (Python runs it first, but it is not an arrow the code draws).
The checker's self-tests at the bottom run it on tiny synthetic trees, so a green run means something.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

HELPERS = Path(__file__).resolve().parent.parent / "helpers"


@dataclass(frozen=True)
class Arrow:
    """One import: `source` (a module of the package) imports `names` from `target`, at `path`:`line`."""

    source: str
    target: str
    names: tuple[str, ...]
    path: str
    line: int

    def where(self) -> str:
        return f"{self.path}:{self.line}"


def module_names(package_dir: Path) -> dict[str, Path]:
    """Every module of the package by dotted name; a package's __init__.py is the package itself."""
    root = package_dir.parent
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    # `from . import x` / `from ..y import z`: relative to the importing module's package.
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _known(name: str, modules: dict[str, Path]) -> str | None:
    # The longest prefix of `name` that is a module of the package: `import a.b.c` imports a.b.c if it exists.
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in modules:
            return prefix
    return None


def arrows(package_dir: Path) -> list[Arrow]:
    """Every import inside the package that reaches one of its own modules, in file and line order."""
    modules = module_names(package_dir)
    root = package_dir.parent
    found = []
    for module, path in modules.items():
        rel = str(path.relative_to(root))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=rel)):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _known(alias.name, modules)
                    if target:
                        found.append(Arrow(module, target, (), rel, node.lineno))
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, path, node)
                for alias in node.names:
                    # `from pkg import sub` imports the module pkg.sub; `from pkg import name`, a name of pkg.
                    if f"{base}.{alias.name}" in modules:
                        found.append(Arrow(module, f"{base}.{alias.name}", (), rel, node.lineno))
                    elif base in modules:
                        found.append(Arrow(module, base, (alias.name,), rel, node.lineno))
    return sorted(found, key=lambda a: (a.path, a.line, a.target))


def cycles(found: list[Arrow]) -> list[list[Arrow]]:
    """Each cycle between modules, as the arrows that close it (one cycle per strongly connected group)."""
    graph: dict[str, list[Arrow]] = {}
    for a in found:
        if a.source != a.target:
            graph.setdefault(a.source, []).append(a)
    # Tarjan's strongly connected components, iterative so a deep package can't hit the recursion limit.
    index, low, on_stack, stack, groups, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(graph.get(start, [])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for a in edges:
                if a.target not in index:
                    index[a.target] = low[a.target] = counter[0]
                    counter[0] += 1
                    stack.append(a.target)
                    on_stack.add(a.target)
                    work.append((a.target, iter(graph.get(a.target, []))))
                    break
                if a.target in on_stack:
                    low[node] = min(low[node], index[a.target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
    return [sorted((a for a in found if a.source in g and a.target in g), key=lambda a: (a.source, a.line))
            for g in groups]


LAYERS = (("offline", 0), ("setup", 1), ("billing", 1), ("apis", 1), ("checks", 3), ("maint", 4))


def layer(module: str, package: str = "helpers") -> int:
    """0 offline model, 1 foundations, 2 lesson-facing modules, 3 checks, 4 maintainers' tools (see the module
    docstring). The package itself holds only ROOT, which every layer may use."""
    if module == package:
        return 1
    for prefix, rank in LAYERS:
        if module == f"{package}.{prefix}" or module.startswith(f"{package}.{prefix}."):
            return rank
    return 2


def upward(found: list[Arrow], package: str = "helpers") -> list[Arrow]:
    """Arrows from a lower layer to a higher one; for the offline model, any arrow leaving helpers.offline."""
    bad = []
    for a in found:
        source, target = layer(a.source, package), layer(a.target, package)
        if target > source or (source == 0 and target != 0):
            bad.append(a)
    return bad


def private_imports(found: list[Arrow]) -> list[Arrow]:
    """Imports of a `_private` name from another module (dunders such as __version__ excepted)."""
    return [a for a in found for name in a.names
            if name.startswith("_") and not (name.startswith("__") and name.endswith("__"))]


def describe(a: Arrow) -> str:
    names = f" ({', '.join(a.names)})" if a.names else ""
    return f"{a.where()}: {a.source} imports {a.target}{names}"


# ---------------------------------------------------------------------------------------------------------
# The rules, on the real package.


@pytest.fixture(scope="module")
def graph():
    return arrows(HELPERS)


def test_the_graph_sees_the_package(graph):
    # A checker that finds no arrows passes everything; make sure it reads lazy imports too.
    assert len(graph) > 50
    assert any(a.source == "helpers.llm" and a.target.startswith("helpers.offline") for a in graph)


def test_no_import_cycles(graph):
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n\n".join("\n".join(describe(a) for a in c) for c in found)


def test_no_upward_imports(graph):
    found = upward(graph)
    assert not found, ("imports that point up the layers (offline < foundations < lesson-facing < checks < maint):\n"
                       + "\n".join(describe(a) for a in found))


def test_the_offline_rules_do_not_import_the_api_side(graph):
    # The rules get a normalised Conversation from helpers.offline.api and answer a Decision; nothing in them
    # knows about HTTP, JSON bodies or either API's shapes (helpers/offline/api/__init__.py).
    found = [a for a in graph if a.source.startswith("helpers.offline.") and a.target.startswith("helpers.offline.api")
             and not a.source.startswith("helpers.offline.api") and a.source != "helpers.offline.__main__"]
    assert any(a.target.startswith("helpers.offline.api") for a in graph)
    assert not found, "rules that import the API side:\n" + "\n".join(describe(a) for a in found)


def test_no_private_names_across_modules(graph):
    found = private_imports(graph)
    assert not found, ("private names imported from another module; give them a public name:\n"
                       + "\n".join(describe(a) for a in found))


def loaded_after(imports: str, watched: tuple[str, ...]) -> list[str]:
    """Which of `watched` a fresh interpreter has loaded after `import <imports>`."""
    code = f"import sys, {imports}\nprint(sorted(m for m in {watched!r} if m in sys.modules))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return ast.literal_eval(run.stdout)


def test_naming_the_offline_model_does_not_load_it():
    # Pricing and the provider presets name the offline model; that must not load its engine or the HTTP stack.
    model = ("helpers.offline.engine", "helpers.offline.api.wire", "helpers.offline.api.transport")
    assert loaded_after("helpers.offline", ("httpx", "openai", *model)) == []
    assert loaded_after("helpers.cost, helpers.setup.providers", model) == []


def test_the_offline_model_name_has_one_definition():
    import helpers.cost
    import helpers.offline
    import helpers.setup.providers
    from helpers.offline import constants

    assert helpers.offline.OFFLINE_MODEL is constants.OFFLINE_MODEL is helpers.cost.OFFLINE_MODEL
    assert helpers.setup.providers.PROVIDERS["offline"].default_model is constants.OFFLINE_MODEL
    assert helpers.offline.OfflineTransport.__module__ == "helpers.offline.api.transport"  # lazy names still resolve
    assert "OfflineTransport" in dir(helpers.offline)


# ---------------------------------------------------------------------------------------------------------
# The checker itself, on tiny synthetic trees.


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in {"helpers/__init__.py": "", **files}.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path / "helpers"


def test_checker_finds_a_cycle_through_a_lazy_import(tmp_path):
    package = tree(tmp_path, {
        "helpers/a.py": "from helpers.b import thing\n",
        "helpers/b.py": "thing = 1\n\ndef later():\n    from helpers import a\n    return a\n",
        "helpers/c.py": "from helpers.a import thing\n",  # points into the cycle, is not part of it
    })
    (cycle,) = cycles(arrows(package))
    assert [describe(a) for a in cycle] == ["helpers/a.py:1: helpers.a imports helpers.b (thing)",
                                            "helpers/b.py:4: helpers.b imports helpers.a"]


def test_checker_finds_a_cycle_through_relative_imports(tmp_path):
    package = tree(tmp_path, {
        "helpers/pkg/__init__.py": "from .x import f\n",
        "helpers/pkg/x.py": "import helpers.pkg.y\n\ndef f():\n    return helpers.pkg.y\n",
        "helpers/pkg/y.py": "from . import x\n",
    })
    (cycle,) = cycles(arrows(package))
    assert {(a.source, a.target) for a in cycle} == {("helpers.pkg.x", "helpers.pkg.y"),
                                                     ("helpers.pkg.y", "helpers.pkg.x")}


def test_checker_accepts_a_package_that_imports_its_modules(tmp_path):
    package = tree(tmp_path, {
        "helpers/tools/__init__.py": "from helpers.tools.dispatch import run\nfrom helpers.tools.registry import Reg\n",
        "helpers/tools/dispatch.py": "def run(): ...\n",
        "helpers/tools/registry.py": "from helpers.tools.dispatch import run\nclass Reg: ...\n",
    })
    found = arrows(package)
    assert len(found) == 3 and cycles(found) == [] and upward(found) == [] and private_imports(found) == []


def test_checker_finds_upward_arrows(tmp_path):
    package = tree(tmp_path, {
        "helpers/ingest.py": "def load(): ...\n",
        "helpers/llm.py": "def f():\n    from helpers.checks.core import check\n",
        "helpers/offline/__init__.py": "",
        "helpers/offline/knowledge.py": "from helpers.ingest import load\n",
        "helpers/offline/engine.py": "from helpers.offline import knowledge\n",  # inside the layer: fine
        "helpers/setup/__init__.py": "",
        "helpers/setup/env.py": "from helpers import ROOT\nfrom helpers.offline import engine\n",  # down: fine
        "helpers/setup/providers.py": "from helpers.ingest import load\n",
        "helpers/checks/__init__.py": "",
        "helpers/checks/core.py": "from helpers import ingest\nimport helpers.maint.bench\n",
        "helpers/maint/__init__.py": "",
        "helpers/maint/bench.py": "from helpers.checks.core import check\nfrom helpers.offline import engine\n",
    })
    assert [describe(a) for a in upward(arrows(package))] == [
        "helpers/checks/core.py:2: helpers.checks.core imports helpers.maint.bench",
        "helpers/llm.py:2: helpers.llm imports helpers.checks.core (check)",
        "helpers/offline/knowledge.py:1: helpers.offline.knowledge imports helpers.ingest (load)",
        "helpers/setup/providers.py:1: helpers.setup.providers imports helpers.ingest (load)",
    ]


def test_checker_finds_private_names_but_not_future_or_dunders(tmp_path):
    package = tree(tmp_path, {
        "helpers/a.py": "__version__ = '1'\n_secret = 2\n",
        "helpers/b.py": "from __future__ import annotations\nfrom helpers.a import __version__, _secret\n",
        "helpers/c.py": "from os import _exit\n",  # outside the package: not this checker's business
    })
    assert [describe(a) for a in private_imports(arrows(package))] == [
        "helpers/b.py:2: helpers.b imports helpers.a (_secret)"]

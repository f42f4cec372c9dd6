"""The project's import graph as grimp (import-linter's graph library) reads it from the
source, in the installed shape (``testkit/installed_shape.py``), and its circles.

Every import statement counts wherever it is written: at the top, late inside a function, in
a ``try``; ``type_only=True`` counts those under ``if TYPE_CHECKING:`` too. A name built at run
time (``importlib.import_module(name)``) is not an import grimp can see.
"""

from __future__ import annotations

import sys

import grimp

from testkit.installed_shape import shadow_tree


def graph_of(package: str, *, type_only: bool) -> grimp.ImportGraph:
    """``package``'s import graph; ``fourwinds`` is read from the shadow tree (the editable
    install's mapping hides it from grimp)."""
    path = str(shadow_tree())
    sys.path.insert(0, path)
    try:
        return grimp.build_graph(
            package, cache_dir=None, exclude_type_checking_imports=not type_only
        )
    finally:
        sys.path.remove(path)


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module, each sorted, the
    list sorted: a module's part is what it imports (through any chain) that imports it back."""
    parts = set()
    for module in graph.modules:
        part = graph.find_upstream_modules(module) & graph.find_downstream_modules(module)
        if part:
            parts.add(frozenset({module, *part}))
    return sorted(sorted(part) for part in parts)

"""No import circles in protocol/, daemon/ or frontends/ (issue 25).

The graph is grimp's (import-linter's graph library), read from the source without importing
any of it, through the symlink tree with the installed shape (``testkit/installed_shape.py``). Every
import statement counts wherever it is written: at the top, late inside a function (a late
import only puts a circle off until the function runs; the modules still need each other), or
in a ``try``. A name built at run time (``importlib.import_module(name)``: the registry's
built-in rule sets, the command table) is not an import grimp can see.

Imports under ``if TYPE_CHECKING:`` are left out of the first check: they never run, so they
cannot make a module meet another half-initialised, and annotating a back-reference (a
request handler's ``daemon: Daemon``) is what they are for. They are not free, though: the
second check counts them too and holds those circles to a written list, ``KNOWN``.

A circle is a strongly connected part of the graph: every module in it reaches every other.
The check fails on a circle that is not listed exactly (a new one, or a listed one that grew)
and on a listed one that is gone or smaller (take it out or narrow it), so the list only
shrinks.
"""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

from testkit.import_graph import circles, graph_of

DAEMON = "fourwinds.daemon."

KNOWN: dict[frozenset[str], str] = {}
"""Circles made only by type-only imports, each with why (the list only shrinks)."""


def _graph(package: str, *, type_only: bool) -> grimp.ImportGraph:
    return graph_of(package, type_only=type_only)


def _described(graph: grimp.ImportGraph, part: list[str]) -> str:
    """One circle, for a failure message: its modules, one way round it, and the import lines
    inside it."""
    first, members = part[0], set(part)
    back = next(m for m in part if m in graph.find_modules_directly_imported_by(first))
    way = [*(graph.find_shortest_chain(back, first) or (back, first))]
    lines = sorted(
        f"    {d['importer']}:{d['line_number']} imports {d['imported']}"
        for importer in part
        for imported in graph.find_modules_directly_imported_by(importer) & members
        for d in graph.get_import_details(importer=importer, imported=imported)
    )
    return "\n".join(
        [
            f"circle of {len(part)}: {', '.join(part)}",
            f"  e.g. {' -> '.join([first, *way])}",
            *lines,
        ]
    )


def _check(graph: grimp.ImportGraph, allowed: dict[frozenset[str], str]) -> list[str]:
    """What is wrong with ``graph``'s circles, measured against ``allowed``."""
    found = circles(graph)
    wrong = [_described(graph, part) for part in found if frozenset(part) not in allowed]
    wrong += [
        f"known circle no longer found as listed (take it out or narrow it): {sorted(part)}"
        for part in allowed
        if sorted(part) not in found
    ]
    return wrong


def test_no_import_circles() -> None:
    graph = _graph("fourwinds", type_only=False)
    assert len(graph.modules) > 100  # it read the tree, not an empty path
    wrong = _check(graph, {})
    assert not wrong, "\n".join(wrong)


def test_no_import_circles_counting_type_only_imports() -> None:
    wrong = _check(_graph("fourwinds", type_only=True), KNOWN)
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_late_and_type_only_circles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "circle_sample"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from .c import C\n"
        "def later() -> None:\n"
        "    from .b import thing\n"
    )
    (package / "b.py").write_text("from circle_sample.a import later\nthing = 1\n")
    (package / "c.py").write_text("from . import a\nclass C: ...\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    runtime = _graph("circle_sample", type_only=False)
    assert circles(runtime) == [["circle_sample.a", "circle_sample.b"]]
    assert "circle_sample.a:5 imports circle_sample.b" in _described(
        runtime, ["circle_sample.a", "circle_sample.b"]
    )
    every = _graph("circle_sample", type_only=True)
    assert circles(every) == [["circle_sample.a", "circle_sample.b", "circle_sample.c"]]
    assert _check(every, {frozenset(["circle_sample.a", "circle_sample.b"]): ""}) != []

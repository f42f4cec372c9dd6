"""The daemon is made of parts (daemon/events, daemon/local_api, daemon/peers, daemon/store,
daemon/table_runtimes), each reaching the others only through what they expose, and wired
together in daemon/app.py alone.

Read from the source (nothing is imported): the import graph is grimp's
(testkit/import_graph.py), counting imports written under ``if TYPE_CHECKING:`` and inside
functions. A part exposes its ``__init__`` and the modules its ``__init__`` names in
``PUBLIC``; any other module of a part is its own. No module but the wiring's entry point
(daemon/main.py) imports daemon/app.py, no function takes the daemon itself (``d: Daemon``),
and the daemon's modules import one another without a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

from testkit.import_graph import circles, graph_of
from testkit.imports import module_files

DAEMON = "fourwinds.daemon"
WIRING = {f"{DAEMON}.app", f"{DAEMON}.main"}
"""The tournament modules, still taking the daemon itself (see the module docstring)."""
FILES = module_files()
DAEMON_MODULES = {name for name in FILES if name == DAEMON or name.startswith(f"{DAEMON}.")}


def _parts() -> dict[str, Path]:
    """Each part of the daemon (a sub-package of fourwinds.daemon) by name, with its
    ``__init__.py``."""
    return {
        name: path
        for name, path in FILES.items()
        if path.name == "__init__.py" and name.count(".") == 2 and name.startswith(f"{DAEMON}.")
    }


def _public(init: Path) -> tuple[str, ...]:
    """The ``PUBLIC`` tuple an ``__init__.py`` assigns (read, not imported)."""
    for node in ast.parse(init.read_text()).body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "PUBLIC" for t in node.targets)
            and isinstance(node.value, ast.Tuple)
        ):
            return tuple(
                element.value
                for element in node.value.elts
                if isinstance(element, ast.Constant) and isinstance(element.value, str)
            )
    raise AssertionError(f"{init} names no PUBLIC tuple of the modules others may import")


def _part_of(module: str, parts: set[str]) -> str | None:
    return next((p for p in parts if module == p or module.startswith(f"{p}.")), None)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """The project's imports, type-only ones too."""
    return graph_of("fourwinds", type_only=True)


def _imports(graph: grimp.ImportGraph, sources: set[str]) -> list[tuple[str, str, int]]:
    """(importer, imported, line) for every import of the project's modules in ``sources``."""
    return [
        (source, target, detail["line_number"])
        for source in sorted(sources & graph.modules)
        for target in graph.find_modules_directly_imported_by(source)
        if target in FILES
        for detail in graph.get_import_details(importer=source, imported=target)
    ]


def test_the_daemon_has_its_parts_each_saying_its_job() -> None:
    parts = _parts()
    assert {f"{DAEMON}.{p}" for p in ("local_api", "peers", "store", "table_runtimes")} <= set(
        parts
    )
    for name, init in parts.items():
        docstring = ast.get_docstring(ast.parse(init.read_text()))
        assert docstring and len(docstring) > 80, f"{name} does not say what it is for"
        for module in _public(init):
            assert f"{name}.{module}" in FILES, f"{name}.PUBLIC names {module!r}, not a module"


def test_a_part_imports_only_what_another_part_exposes(graph: grimp.ImportGraph) -> None:
    parts = _parts()
    exposed = {f"{part}.{m}" for part, init in parts.items() for m in _public(init)} | set(parts)
    wrong = []
    for source, target, line in _imports(graph, set(FILES)):
        inside = _part_of(target, set(parts))
        if inside is None or _part_of(source, set(parts)) == inside:
            continue
        if target not in exposed:
            wrong.append(f"{source}:{line} imports {target}")
    assert not wrong, "imports of another part's internals:\n" + "\n".join(sorted(wrong))


def test_only_the_wiring_imports_the_daemon(graph: grimp.ImportGraph) -> None:
    importers = {
        f"{source}:{line}"
        for source, target, line in _imports(graph, set(FILES))
        if target == f"{DAEMON}.app" and source not in WIRING
    }
    assert not importers, f"modules that import daemon/app.py: {sorted(importers)}"


def test_no_function_takes_the_daemon_itself() -> None:
    found = []
    for name in sorted(DAEMON_MODULES):
        for node in ast.walk(ast.parse(FILES[name].read_text())):
            if (
                isinstance(node, ast.arg)
                and node.annotation is not None
                and "Daemon" in ast.unparse(node.annotation).split(".")
            ):
                found.append(f"{name}:{node.lineno} {node.arg}")
    assert not found, f"parameters typed as the Daemon: {found}"


def test_no_circle_among_the_daemons_modules_even_type_only() -> None:
    daemon = graph_of("fourwinds", type_only=True)  # a copy of its own: modules are removed
    for module in daemon.modules - DAEMON_MODULES:
        daemon.remove_module(module)
    assert circles(daemon) == []


def test_a_parts_init_imports_nothing_of_the_project(graph: grimp.ImportGraph) -> None:
    for part in _parts():
        own = {target for _, target, _ in _imports(graph, {part})}
        assert not own, f"{part}/__init__.py imports {sorted(own)}"

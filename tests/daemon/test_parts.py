"""The daemon is made of parts (daemon/local_api, daemon/peers, daemon/store,
daemon/table_runtimes), each
reaching the others only through what they expose, and wired together in daemon/app.py alone.

Read from the source with testkit/imports.py (nothing is imported): a part exposes its
``__init__`` and the modules its ``__init__`` names in ``PUBLIC``; any other module of a part
is its own. No module but the wiring's entry point (daemon/main.py) imports daemon/app.py, no
function takes the daemon itself (``d: Daemon``), and the daemon's modules import one another
without a circle, counting imports written under ``if TYPE_CHECKING:`` and inside functions.

The tournament modules (daemon/event*.py) are another branch's piece, being made a part of
their own (daemon/events/) that takes a narrow Protocol: until then they are left out of the
last three checks (``TOURNAMENT``), and nothing else may join them there.
"""

from __future__ import annotations

import ast
from pathlib import Path

from testkit.imports import Import, circles, import_graph, module_files, project_imports

DAEMON = "fourwinds.daemon"
WIRING = {f"{DAEMON}.app", f"{DAEMON}.main"}
TOURNAMENT = {
    f"{DAEMON}.events",
    f"{DAEMON}.event_clock",
    f"{DAEMON}.event_faults",
    f"{DAEMON}.event_requests",
    f"{DAEMON}.event_store",
    f"{DAEMON}.event_tables",
}
"""The tournament modules, still taking the daemon itself (see the module docstring)."""
REEXPORTS_FOR_TOURNAMENT = {f"{DAEMON}.store"}
"""Parts whose ``__init__`` re-exports a few names the tournament modules import by the old
module names (``from fourwinds.daemon.local_api import ApiError``); a part's ``__init__`` otherwise
imports nothing (its submodules import it first, so an import there would be a circle). The
re-exports go when the tournament part imports the new names."""

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


def _daemon_imports() -> list[Import]:
    return [i for i in project_imports() if i.source in DAEMON_MODULES]


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


def test_a_part_imports_only_what_another_part_exposes() -> None:
    parts = _parts()
    exposed = {f"{part}.{m}" for part, init in parts.items() for m in _public(init)} | set(parts)
    wrong = []
    for found in project_imports():
        inside = _part_of(found.target, set(parts))
        if inside is None or _part_of(found.source, set(parts)) == inside:
            continue
        if found.target not in exposed:
            wrong.append(f"{found.source}:{found.line} imports {found.target}")
    assert not wrong, "imports of another part's internals:\n" + "\n".join(sorted(wrong))


def test_only_the_wiring_imports_the_daemon() -> None:
    importers = {
        f"{i.source}:{i.line}"
        for i in _daemon_imports()
        if i.target == f"{DAEMON}.app" and i.source not in WIRING | TOURNAMENT
    }
    assert not importers, f"modules that import daemon/app.py: {sorted(importers)}"


def test_no_function_takes_the_daemon_itself() -> None:
    found = []
    for name in sorted(DAEMON_MODULES - TOURNAMENT):
        for node in ast.walk(ast.parse(FILES[name].read_text())):
            if (
                isinstance(node, ast.arg)
                and node.annotation is not None
                and "Daemon" in ast.unparse(node.annotation).split(".")
            ):
                found.append(f"{name}:{node.lineno} {node.arg}")
    assert not found, f"parameters typed as the Daemon: {found}"


def test_no_circle_among_the_daemons_modules_even_type_only() -> None:
    modules = DAEMON_MODULES - TOURNAMENT
    graph = import_graph(_daemon_imports(), modules)
    for part in REEXPORTS_FOR_TOURNAMENT:
        graph[part] = set()
    assert circles(graph) == []


def test_a_parts_init_imports_nothing_of_the_project() -> None:
    for part in set(_parts()) - REEXPORTS_FOR_TOURNAMENT:
        own = [i for i in _daemon_imports() if i.source == part and i.target in FILES]
        assert not own, f"{part}/__init__.py imports {sorted({i.target for i in own})}"


def test_a_circle_is_seen_when_there_is_one() -> None:
    """The check above can fail: two modules that import each other make a circle."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert circles(graph) == [["a", "b"]]

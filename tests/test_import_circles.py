"""No import circles in protocol/, daemon/ or frontends/ (issue 25).

Every import written in the code counts, wherever it is written: at the top, late inside a
function, in a ``try``, or as ``importlib.import_module("a.literal")`` (``testkit/imports.py``
reads them with ``ast``). A late import only puts a circle off until the function runs; the
modules still need each other, so it is a circle here.

Imports under ``if TYPE_CHECKING:`` are left out of the first check: they never run, so they
cannot make a module meet another half-initialised, and annotating a back-reference (a
request handler's ``daemon: Daemon``) is what they are for. They are not free, though: the
second check counts them too and holds those circles to a written list that may only shrink.

A circle that cannot be undone yet is listed in ``ALLOWED`` with the reason; the check fails
when a circle is found that is not listed exactly (a new one, or a listed one that grew) and
when a listed one is gone or smaller (take it out or narrow it), so the list only shrinks.
"""

from __future__ import annotations

from pathlib import Path

from testkit.imports import (
    Import,
    circles,
    import_graph,
    imports_of,
    module_files,
    one_circle,
    project_imports,
)

DAEMON = "fourwinds.daemon."

ALLOWED: dict[frozenset[str], str] = {}
"""Runtime circles still allowed, each with why (the list only shrinks; none is left)."""

ALLOWED_TYPE_ONLY: dict[frozenset[str], str] = {
    frozenset(
        DAEMON + name
        for name in (
            "app",
            "event_clock",
            "event_faults",
            "event_requests",
            "event_tables",
            "events",
            "frames_in",
            "requests",
        )
    ): (
        "The daemon's request and event handlers annotate their ``daemon: Daemon`` (and "
        "``EventRuntime``) under TYPE_CHECKING, and app.py imports the handlers. Undoing it "
        "means the session port and the daemon's capabilities as typed protocols of their own "
        "(issue 25, 'Typed seams')."
    ),
}
"""Circles made only by type-only imports, each with why (the list only shrinks)."""


def _described(graph: dict[str, set[str]], imports: list[Import], part: list[str]) -> str:
    """One circle, for a failure message: its modules, one way round it, and every import
    line inside it."""
    members = set(part)
    lines = sorted(
        f"    {i.source}:{i.line} imports {i.target}"
        + (" (late)" if i.late else "")
        + (" (type only)" if i.type_only else "")
        for i in imports
        if i.source in members and i.target in members and i.source != i.target
    )
    return "\n".join(
        [
            f"circle of {len(part)}: {', '.join(part)}",
            f"  e.g. {' -> '.join(one_circle(graph, part))}",
            *sorted(set(lines)),
        ]
    )


def _check(imports: list[Import], allowed: dict[frozenset[str], str]) -> list[str]:
    """What is wrong with the circles ``imports`` make, measured against ``allowed``."""
    modules = set(module_files())
    graph = import_graph(imports, modules)
    found = circles(graph)
    wrong = [_described(graph, imports, part) for part in found if frozenset(part) not in allowed]
    wrong += [
        f"allowed circle no longer found as listed (take it out or narrow it): {sorted(part)}"
        for part in allowed
        if sorted(part) not in found
    ]
    return wrong


def test_no_import_circles() -> None:
    runtime = [found for found in project_imports() if not found.type_only]
    wrong = _check(runtime, ALLOWED)
    assert not wrong, "\n".join(wrong)


def test_no_import_circles_counting_type_only_imports() -> None:
    runtime_parts = {frozenset(part) for part in ALLOWED}
    wrong = _check(project_imports(), {**ALLOWED_TYPE_ONLY, **dict.fromkeys(runtime_parts, "")})
    assert not wrong, "\n".join(wrong)


def test_the_reader_counts_late_relative_and_literal_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import c\n"
        "if TYPE_CHECKING:\n"
        "    from .c import C\n"
        "def later() -> None:\n"
        "    from .b import thing\n"
        "    import importlib\n"
        "    importlib.import_module('fourwinds.x.c')\n"
    )
    (package / "b.py").write_text("from fourwinds.x.a import later\n")
    (package / "c.py").write_text("")
    files = module_files(tmp_path, {"fourwinds.x": "pkg"})
    assert set(files) == {"fourwinds.x", "fourwinds.x.a", "fourwinds.x.b", "fourwinds.x.c"}
    found = imports_of("fourwinds.x.a", files["fourwinds.x.a"], set(files))
    ours = {
        (i.target, i.line, i.late, i.type_only)
        for i in found
        if i.target.startswith("fourwinds.x.")
    }
    assert ours == {
        ("fourwinds.x.c", 2, False, False),
        ("fourwinds.x.c", 4, False, True),
        ("fourwinds.x.b", 6, True, False),
        ("fourwinds.x.c", 8, True, False),
    }
    every = [i for name, path in files.items() for i in imports_of(name, path, set(files))]
    graph = import_graph(every, set(files))
    assert circles(graph) == [["fourwinds.x.a", "fourwinds.x.b"]]
    assert one_circle(graph, ["fourwinds.x.a", "fourwinds.x.b"]) == [
        "fourwinds.x.a",
        "fourwinds.x.b",
        "fourwinds.x.a",
    ]
    assert circles(import_graph([i for i in every if not i.late], set(files))) == []

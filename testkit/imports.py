"""Every import of the project's code, read from the source with ``ast``.

``testkit/rule_names.py`` reads it to find code outside a rule folder that imports from one,
without importing any of it (the import graph's contracts and circles are import-linter's and
grimp's: pyproject.toml's [tool.importlinter], ``tests/test_import_circles.py``).
An import counts wherever it is written: at the top of a module, late inside a function, in a
``try`` block, and as ``importlib.import_module("a.literal.name")``.
Each import remembers whether it sits under ``if TYPE_CHECKING:`` (``type_only``), so a check
can decide for itself whether an import that never runs counts. Names built at run time
(``import_module(f"...{name}")``: the rule registry, the command table) cannot be read here.

Module names are the installed ones (``fourwinds.protocol.table.machine.flow``): the folders map to
them as pyproject.toml's package-dir says.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {
    "fourwinds.protocol": "protocol",
    "fourwinds.daemon": "daemon",
    "fourwinds.frontends": "frontends",
}
"""The code folders a check reads, by the package name each installs as."""


@dataclass(frozen=True)
class Import:
    """One import written in ``source``'s file, resolved to the module it loads."""

    source: str
    target: str
    line: int
    late: bool
    """Written inside a function: it runs when the function is first called."""
    type_only: bool
    """Written under ``if TYPE_CHECKING:``: it never runs, only the type checker reads it."""


def module_files(root: Path = ROOT, folders: Mapping[str, str] = FOLDERS) -> dict[str, Path]:
    """Every module of the code folders by its installed dotted name (packages by their
    ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package, folder in folders.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(module: str | None, level: int, source: str, is_package: bool) -> str:
    """The absolute name ``from <dots><module> import ...`` means inside ``source``."""
    if level == 0:
        return module or ""
    base = source.split(".")
    # a package's own relative imports start from the package itself, a module's from its
    # parent package
    base = base[: len(base) - level + (1 if is_package else 0)]
    return ".".join([*base, module] if module else base)


def _targets(name: str, names: list[str], known: Set[str]) -> Iterator[str]:
    """The modules ``from name import names`` loads: the package (or module) ``name``, and each
    imported name that is itself a submodule."""
    yield name
    for member in names:
        if f"{name}.{member}" in known:
            yield f"{name}.{member}"


def _literal_import_module(node: ast.Call) -> str | None:
    func = node.func
    called = (
        func.attr
        if isinstance(func, ast.Attribute)
        else func.id
        if isinstance(func, ast.Name)
        else ""
    )
    if called != "import_module" or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


class _Reader(ast.NodeVisitor):
    """Walks one module, keeping track of whether it is inside a function or a
    ``TYPE_CHECKING`` block."""

    def __init__(self, source: str, is_package: bool, known: Set[str]) -> None:
        self.source = source
        self.is_package = is_package
        self.known = known
        self.found: list[Import] = []
        self._late = 0
        self._type_only = 0

    def _add(self, target: str, line: int) -> None:
        # importing a.b.c runs a, a.b and a.b.c
        parts = target.split(".")
        for end in range(1, len(parts) + 1):
            self.found.append(
                Import(
                    self.source, ".".join(parts[:end]), line, self._late > 0, self._type_only > 0
                )
            )

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self._late += 1
        self.generic_visit(node)
        self._late -= 1

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function
    visit_Lambda = _function

    def visit_If(self, node: ast.If) -> None:
        if not _is_type_checking(node.test):
            self.generic_visit(node)
            return
        self.visit(node.test)
        self._type_only += 1
        for child in node.body:
            self.visit(child)
        self._type_only -= 1
        for child in node.orelse:
            self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        name = _absolute(node.module, node.level, self.source, self.is_package)
        for target in _targets(name, [alias.name for alias in node.names], self.known):
            self._add(target, node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        literal = _literal_import_module(node)
        if literal is not None:
            self._add(literal, node.lineno)
        self.generic_visit(node)


def imports_of(source: str, path: Path, known: Set[str] = frozenset()) -> list[Import]:
    """Every import written in the module ``source`` (file ``path``). ``known`` is the set of
    module names that exist, so that ``from pkg import name`` counts ``pkg.name`` when it is a
    submodule."""
    reader = _Reader(source, path.name == "__init__.py", known)
    reader.visit(ast.parse(path.read_text(), filename=str(path)))
    return reader.found

"""The project's shape: the installed package names, and what the benchmarks import.

The import boundaries (protocol/ imports no I/O, the layers, the rule sets apart) are
import-linter contracts in pyproject.toml, checked by ``lint-imports`` (scripts/test)."""

from __future__ import annotations

import ast
import runpy
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _setup() -> dict[str, Any]:
    """setup.py's names, read without running ``setup()`` (it runs only as ``__main__``)."""
    return runpy.run_path(str(ROOT / "setup.py"), run_name="fourwinds_setup")


def test_every_package_folder_is_installed() -> None:
    """What setup.py finds holds every folder with an ``__init__.py`` (a new sub-package
    installs without an edit), and the web page's files' folder."""
    found = set(_setup()["installed_packages"]())
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"
    ]
    assert mapping == _setup()["FOLDERS"]
    folders = set()
    for name, folder in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            folders.add(".".join((name, *rel.parts)))
    assert folders <= found
    assert "fourwinds.frontends.web.static" in found
    assert not [name for name in found if "__pycache__" in name]


def test_nothing_installs_under_a_bare_top_level_name() -> None:
    for name in _setup()["installed_packages"]():
        assert name.startswith("fourwinds."), name


def test_benchmarks_import_nothing_from_tests() -> None:
    """What a bench and a test both need lives in testkit/ (every import counted, late ones
    inside functions too): a bench that ran a test's private helpers broke with them."""
    offenders = []
    for path in sorted((ROOT / "benchmarks").rglob("*.py")):
        for name in _imported_modules(path):
            if name == "tests" or name.startswith("tests."):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []

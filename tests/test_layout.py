"""The project's shape: the installed package names, and what the benchmarks import.

The import boundaries (protocol/ imports no I/O, the layers, the rule sets apart) are
import-linter contracts in pyproject.toml, checked by ``lint-imports`` (scripts/test)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

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


def test_every_package_folder_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    mapping = config["tool"]["setuptools"]["package-dir"]
    folders = {}
    for name, folder in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            dotted = ".".join((name, *rel.parts)) if rel.parts else name
            folders[dotted] = init.parent
    assert set(folders) == listed


def test_nothing_installs_under_a_bare_top_level_name() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for name in config["tool"]["setuptools"]["packages"]:
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

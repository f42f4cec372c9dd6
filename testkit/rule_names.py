"""Where the code names a rule set outside the rule set's own folder (issue 25).

A rule set is meant to be one folder, ``protocol/<rules>/``, found by the rest of the code
through the registry alone. This reads the code folders without importing anything and lists,
for each file outside those folders, how it names a rule set:

* a Python module (read with ``ast``) that imports from a rule folder (at the top, late, under
  ``TYPE_CHECKING`` or as ``importlib.import_module("a.literal")``: ``testkit/imports.py``),
  holds a string that is a rule set's name (``"mcr"``, ``"American"``: the comparisons
  ``rules == "mcr"`` and the tables keyed by name), or reads an enum member of that name
  (``Rules.AMERICAN``, as the tournament's enum of the two built-in rule sets was);
* a page file (``frontends/web/static/*.js``, ``*.html``), which ``ast`` cannot read, that
  holds a quoted rule set name.

Docstrings and comments do not count: words about a rule set are not a dependency on it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .imports import FOLDERS, ROOT, imports_of, module_files

RULE_FOLDERS = ("american", "mcr")
"""The rule sets' folders under protocol/, which are also their names."""

PAGE_FILES = ("frontends/web/static",)
"""Folders of page files (JavaScript, HTML) read as text."""


@dataclass(frozen=True)
class Naming:
    """One place ``path`` names a rule set: ``how`` says what it wrote there."""

    path: str
    line: int
    how: str


def _rule_of_module(name: str, rules: tuple[str, ...]) -> str | None:
    for rule in rules:
        package = f"fourwinds.protocol.{rule}"
        if name == package or name.startswith(package + "."):
            return rule
    return None


def _identifier_naming(rules: tuple[str, ...]) -> re.Pattern[str]:
    """A string that is a rule set's name, or a name built on it (``"mcr"``, ``"American"``,
    ``"american_score"``, ``"fourwinds.protocol.mcr.rules"``): a word of an identifier or a
    dotted name, in a string with no spaces (sentences about a rule set do not count)."""
    names = "|".join(rules)
    return re.compile(rf"^[\w.:]*?(?<![^\W_])({names})(?![^\W_])[\w.:]*$", re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (a module's, class's or function's
    first statement, and the attribute docstrings after an assignment)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                found.add(id(statement.value))
    return found


def _module_namings(
    name: str, path: Path, known: set[str], rules: tuple[str, ...], shown: str
) -> Iterator[Naming]:
    deepest: dict[int, str] = {}
    for found in imports_of(name, path, known):
        # importing ``a.b.c`` also counts ``a`` and ``a.b``: name the deepest of a line once
        if _rule_of_module(found.target, rules) is not None and len(found.target) > len(
            deepest.get(found.line, "")
        ):
            deepest[found.line] = found.target
    for line, target in deepest.items():
        yield Naming(shown, line, f"imports {target}")
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = _docstrings(tree)
    upper = {rule.upper() for rule in rules}
    identifier = _identifier_naming(rules)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and identifier.search(node.value)
        ):
            yield Naming(shown, node.lineno, f"the string {node.value!r}")
        elif isinstance(node, ast.Attribute) and node.attr in upper:
            yield Naming(shown, node.lineno, f"the member .{node.attr}")


def _page_namings(path: Path, rules: tuple[str, ...], shown: str) -> Iterator[Naming]:
    names = "|".join(rules)
    quoted = re.compile(rf"""["'`]({names})["'`]""", re.IGNORECASE)
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        for match in quoted.finditer(text):
            yield Naming(shown, number, f"the string {match.group(0)}")


def rule_namings(
    root: Path = ROOT,
    folders: Mapping[str, str] = FOLDERS,
    rules: tuple[str, ...] = RULE_FOLDERS,
    pages: tuple[str, ...] = PAGE_FILES,
) -> dict[str, list[Naming]]:
    """Every file outside the rule folders that names a rule set, by its path from ``root``,
    with each place it does."""
    files = module_files(root, folders)
    known = set(files)
    found: dict[str, list[Naming]] = {}
    for name, path in files.items():
        if _rule_of_module(name, rules) is not None:
            continue
        shown = path.relative_to(root).as_posix()
        namings = sorted(
            set(_module_namings(name, path, known, rules, shown)), key=lambda n: (n.line, n.how)
        )
        if namings:
            found[shown] = namings
    for folder in pages:
        for path in sorted((root / folder).glob("*")):
            if path.suffix not in (".js", ".html"):
                continue
            shown = path.relative_to(root).as_posix()
            namings = list(_page_namings(path, rules, shown))
            if namings:
                found[shown] = namings
    return found


RULE_CONCEPTS: dict[str, str] = {
    "three_exposures": "American: a discarder's penalty facing three exposures (the generic "
    "Scoring.rules_figure, declared by the rule set's TournamentRules.figure)",
    "charleston_window": "American's Charleston: the generic table option is exchange_window",
}
"""Words of one rule set's own rules, each with what generic code calls it instead. Only the
rule set's folder may use them in a name (an identifier: a variable, attribute, argument,
function or class); a string such as a wire key kept for old peers, or a docstring, does not
count."""


def _concept_words(words: tuple[str, ...]) -> re.Pattern[str]:
    """An identifier holding one of ``words`` as whole parts (``three_exposures_penalty``,
    ``THREE_EXPOSURES``, not ``threefold``)."""
    joined = "|".join(re.escape(word) for word in words)
    return re.compile(rf"(?<![^\W_])({joined})(?![^\W_])", re.IGNORECASE)


def _identifiers(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every name the module defines or reads, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, (ast.arg, ast.keyword)) and node.arg is not None:
            yield node.lineno, node.arg
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.lineno, node.name
        elif isinstance(node, ast.alias):
            yield node.lineno, node.asname or node.name


def concept_namings(
    root: Path = ROOT,
    folders: Mapping[str, str] = FOLDERS,
    rules: tuple[str, ...] = RULE_FOLDERS,
    pages: tuple[str, ...] = PAGE_FILES,
    words: tuple[str, ...] = tuple(RULE_CONCEPTS),
) -> dict[str, list[Naming]]:
    """Every file outside the rule folders with a name built on a rule set's own concept
    (``RULE_CONCEPTS``), by its path from ``root``; page files count any occurrence outside a
    quoted string."""
    pattern = _concept_words(words)
    found: dict[str, list[Naming]] = {}
    for name, path in module_files(root, folders).items():
        if _rule_of_module(name, rules) is not None:
            continue
        shown = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(), filename=str(path))
        namings = sorted(
            {
                Naming(shown, line, f"the name {identifier}")
                for line, identifier in _identifiers(tree)
                if pattern.search(identifier)
            },
            key=lambda n: (n.line, n.how),
        )
        if namings:
            found[shown] = namings
    quoted = re.compile(r"""(["'`])(?:\\.|(?!\1).)*\1""")
    for folder in pages:
        for path in sorted((root / folder).glob("*")):
            if path.suffix not in (".js", ".html"):
                continue
            shown = path.relative_to(root).as_posix()
            lines = path.read_text().splitlines()
            page = [
                Naming(shown, number, f"the name {match.group(0)}")
                for number, text in enumerate(lines, start=1)
                for match in pattern.finditer(quoted.sub("", text))
            ]
            if page:
                found[shown] = page
    return found

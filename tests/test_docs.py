"""The docs stand alone: every document the tree cites is in it, every rules section cited
exists in docs/RULES.md, and every rules section there has a test named after it.

Code comments, tests and docs once cited a rules digest, contracts and notes kept outside the
repository; a reader of the repository alone could not follow them. These checks keep it so.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"

SKIPPED_DIRS = {".venv", ".git", "__pycache__", "node_modules", ".mypy_cache", ".ruff_cache"}
"""Folders that are tools' own, not the project's text."""

TEXT_SUFFIXES = {".py", ".md", ".sh", ".toml", ".cfg", ".txt", ".js", ".html", ".yaml", ".yml"}

MD_PATH = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*[\w-]+(?:/[\w.-]+)*\.md)\b")
"""A path naming a Markdown document: `README.md`, `docs/RULES.md`, `../docs/RULES.md`."""

SECTION_CITE = re.compile(r"RULES\.md ([AB]\d+(?:\.\d+)?(?:(?:/|, | and )[AB]\d+(?:\.\d+)?)*)")
"""`RULES.md A5`, `RULES.md A3/A7`, `RULES.md B5, B6`: the sections named after the file."""

SECTION_HEADING = re.compile(r"^### ([AB]\d+)\. ", re.M)


def project_files() -> Iterator[Path]:
    """Every text file of the project: code, tests, docs, scripts (extension-less included)."""
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(
            name
            for name in subfolders
            if name not in SKIPPED_DIRS and not name.endswith(".egg-info")
        )
        for name in sorted(files):
            path = Path(folder) / name
            in_scripts = path.parent == ROOT / "scripts" and path.suffix == ""
            if path.suffix in TEXT_SUFFIXES or in_scripts:
                yield path


def resolves(cited: str, citing: Path) -> bool:
    """The cited document is a file of the repository, read from the repository's root, from
    docs/, or from the citing file's own folder."""
    for base in (ROOT, ROOT / "docs", citing.parent):
        candidate = (base / cited).resolve()
        if candidate.is_relative_to(ROOT) and candidate.is_file():
            return True
    return False


def cited_sections() -> dict[str, list[str]]:
    """Each rules section id cited anywhere (`RULES.md X9`), with the files citing it."""
    found: dict[str, list[str]] = {}
    for path in project_files():
        for match in SECTION_CITE.finditer(path.read_text(errors="replace")):
            for section in re.split(r"/|, | and ", match.group(1)):
                major = section.split(".")[0]
                found.setdefault(major, []).append(str(path.relative_to(ROOT)))
    return found


def rules_sections() -> list[str]:
    """The section ids of docs/RULES.md, in order (`### A1. Tiles` gives A1)."""
    return SECTION_HEADING.findall(RULES.read_text())


def named_tests() -> set[str]:
    """The names of every test function of the suite, read with ast (no import)."""
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                node.name.startswith("test_")
            ):
                names.add(node.name)
    return names


def test_every_cited_document_is_in_the_repository() -> None:
    missing = [
        f"{path.relative_to(ROOT)}: {cited}"
        for path in project_files()
        for cited in MD_PATH.findall(path.read_text(errors="replace"))
        if not resolves(cited, path)
    ]
    assert missing == [], "documents cited but not in the repository:\n" + "\n".join(missing)


def test_the_rules_have_both_rule_sets_sections() -> None:
    sections = rules_sections()
    assert [s for s in sections if s.startswith("A")] == [f"A{n}" for n in range(1, 8)]
    assert [s for s in sections if s.startswith("B")] == [f"B{n}" for n in range(1, 7)]


def test_every_cited_rules_section_is_a_heading_of_docs_rules() -> None:
    headings = set(rules_sections())
    unknown = {
        section: files for section, files in cited_sections().items() if section not in headings
    }
    assert unknown == {}, f"sections cited but not in docs/RULES.md: {unknown}"


def test_the_section_citations_are_found() -> None:
    """The scan above sees the citations the code makes (a scan that found none would pass
    anything): the rule sets' own modules cite their sections."""
    found = cited_sections()
    assert "protocol/american/charleston.py" in found["A4"]
    assert "protocol/mcr/claims.py" in found["B4"]


def test_every_rules_section_has_a_test_named_after_it() -> None:
    names = named_tests()
    untested = [
        section
        for section in rules_sections()
        if not any(name.startswith(f"test_{section.lower()}_") for name in names)
    ]
    assert untested == [], f"rules sections with no test_<id>_... test: {untested}"

"""A rule set is one folder: only ``protocol/<rules>/`` and the registry name a rule set (issue 25).

Outside its folder, code reaches a rule set through the registry
(``protocol/table/rules/registry.py``) and never imports from ``protocol/american`` or
``protocol/mcr``, compares with ``"mcr"`` or ``"american"``, or reads a member such as ``Rules.MCR``
(``testkit/rule_names.py`` says exactly what counts).

The files that still did were listed in ``ALLOWED`` with the reason, and the list only shrank;
it is empty now. The check fails on a file that names a rule set and is not listed (a new
one) and on a listed file that no longer does (take it out).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.rule_names import RULE_CONCEPTS, concept_namings, rule_namings

REGISTRY = "protocol/table/rules/registry.py"
"""The one module outside the rule folders that names them: one line per rule set."""

ALLOWED: dict[str, str] = {}
"""Files outside the rule folders that still name a rule set, each with why (only shrinks):
none is left since the tournament asks the event's rule set too."""


@pytest.mark.slow
def test_only_the_rule_folders_and_the_registry_name_a_rule_set() -> None:
    found = rule_namings()
    found.pop(REGISTRY, None)
    new = [
        f"{path}:{n.line}: {n.how}"
        for path, namings in sorted(found.items())
        if path not in ALLOWED
        for n in namings
    ]
    gone = sorted(set(ALLOWED) - set(found))
    assert not new, (
        "these name a rule set outside its folder (ask the registry instead):\n" + "\n".join(new)
    )
    assert not gone, f"these no longer name a rule set; take them out of ALLOWED: {gone}"


def test_the_reader_sees_each_way_of_naming_a_rule_set(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "mcr").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "mcr" / "__init__.py").write_text("")
    (package / "mcr" / "engine.py").write_text("X = 'mcr'\n")
    (package / "plain.py").write_text(
        '"""About MCR and American tables: words, not a dependency."""\n'
        "X = 'MCR tables and American ones'\n"
    )
    (package / "a.py").write_text(
        "from .mcr import engine\n"
        "def late(rules: str) -> bool:\n"
        "    from fourwinds.protocol.mcr.engine import X\n"
        "    return rules == 'American'\n"
        "WHICH = RuleSet.MCR\n"
        "MODULE = 'american_score'\n"
    )
    pages = tmp_path / "static"
    pages.mkdir()
    (pages / "app.js").write_text('if (view.rules === "mcr") {}\n// MCR tables\n')
    found = rule_namings(tmp_path, {"fourwinds.protocol": "pkg"}, ("american", "mcr"), ("static",))
    assert sorted(found) == ["pkg/a.py", "static/app.js"]
    assert [(n.line, n.how) for n in found["pkg/a.py"]] == [
        (1, "imports fourwinds.protocol.mcr.engine"),
        (3, "imports fourwinds.protocol.mcr.engine"),
        (4, "the string 'American'"),
        (5, "the member .MCR"),
        (6, "the string 'american_score'"),
    ]
    assert [n.line for n in found["static/app.js"]] == [1]


@pytest.mark.slow
def test_a_rule_sets_own_concepts_are_named_only_in_its_folder() -> None:
    found = concept_namings()
    lines = [
        f"{path}:{n.line}: {n.how}" for path, namings in sorted(found.items()) for n in namings
    ]
    meanings = "\n".join(f"  {word}: {meaning}" for word, meaning in RULE_CONCEPTS.items())
    assert not lines, (
        "these name a rule set's own concept outside its folder:\n"
        + "\n".join(lines)
        + f"\nthe generic names:\n{meanings}"
    )


def test_the_concept_check_sees_names_not_strings_or_docstrings(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "mcr").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "mcr" / "__init__.py").write_text("")
    (package / "mcr" / "engine.py").write_text("def frobnicate_window() -> None: ...\n")
    (package / "a.py").write_text(
        '"""The frobnicate_window of old."""\n'
        "WIRE_KEY = 'frobnicate_window'\n"
        "def late(frobnicate_window: float) -> float:\n"
        "    return frobnicate_window\n"
        "class Frobnicate_Window: ...\n"
        "x = options.frobnicate_windows\n"
    )
    pages = tmp_path / "static"
    pages.mkdir()
    (pages / "app.js").write_text('send("frobnicate_window");\nconst frobnicate_window = 1;\n')
    found = concept_namings(
        tmp_path, {"fourwinds.protocol": "pkg"}, ("mcr",), ("static",), ("frobnicate_window",)
    )
    assert sorted(found) == ["pkg/a.py", "static/app.js"]
    assert [n.line for n in found["pkg/a.py"]] == [3, 4, 5]
    assert [n.line for n in found["static/app.js"]] == [2]

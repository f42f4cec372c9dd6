"""Rule sets that are not built in, named by the environment: ``FOURWINDS_RULESETS``.

The variable lists Python modules, separated by commas (``house.rules,tests.toyrules.ruleset``),
each holding a ``RULESET`` (a ``RuleSetAdapter``, protocol/table/rules/ruleset.py) and found on the
Python path. Every ``fourwinds`` process (the daemon, a bot seat, each command) loads them at
its start, before its command line is read, so ``--rules NAME`` takes their names and the
daemon hosts and joins their tables. A module that is refused (it cannot be imported, has no
``RULESET``, its ``RULESET`` is not a rule set, its name is taken) is told on standard error
in one line that names it, and the process goes on with the rest (the built-in rule sets
always). docs/DESIGN.md, "How to add a rule set".
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable, Mapping
from typing import TextIO

from fourwinds.protocol.table.rules import registry

VARIABLE = "FOURWINDS_RULESETS"
"""The environment variable that names the rule set modules."""


def modules_named(value: str) -> tuple[str, ...]:
    """The module names in the variable's value (commas between them, blanks ignored)."""
    return tuple(part.strip() for part in value.split(",") if part.strip())


def add_rulesets(modules: Iterable[str]) -> tuple[str, ...]:
    """Import these rule set modules by name and add their ``RULESET``s to the registry
    (``registry.add_rulesets``: the pure core checks them, this side does the importing);
    one line naming each one refused."""
    return registry.add_rulesets(modules, importlib.import_module)


def load_named_rulesets(
    environ: Mapping[str, str] = os.environ, err: TextIO | None = None
) -> tuple[str, ...]:
    """Load the rule sets ``FOURWINDS_RULESETS`` names; each refusal is written to ``err``
    (standard error) as ``fourwinds: ...`` and returned."""
    modules = modules_named(environ.get(VARIABLE, ""))
    if not modules:
        return ()
    problems = add_rulesets(modules)
    out = sys.stderr if err is None else err
    for problem in problems:
        print(f"fourwinds: {problem}; {VARIABLE} skips it", file=out)
    return problems

"""A rule set's own commands, as data and pure functions (``fourwinds score mcr``, ``card``).

Some commands exist once per rule set (``fourwinds score american``, ``hint mcr``, ``demo
mcr``) and some belong to one rule set alone (``fourwinds card check FILE``: American card
files). Each rule set declares its commands in its folder (``RuleSetAdapter.commands``, an
optional member: a rule set without it has none) and the frontends build the command line
from what the registry's rule sets declare (frontends/cli/ruleset_commands.py). That keeps the
rule set one folder and protocol/ sans-I/O:

* a ``RuleCommand`` says where it hangs (``verb`` and ``name``: ``fourwinds <verb> <name>``),
  its help, and its arguments as data (``Argument``: argparse's flags and keywords);
* its ``run`` is pure: it gets the parsed arguments and what I/O produced for it
  (``Given``: the text of each file argument, standard input's lines, a seeded random
  source) and returns what to do (``Lines`` to print and the exit status, ``TableDemo``
  for the frontend to play at its in-memory table, or ``TableAct``: an action at the
  player's table, which the frontend picks from the view and sends through the daemon, as
  the generic verbs do); a user's mistake is a ``CommandError``, which the command line
  prints as one line with exit status 2.

A rule concept the generic command line does not know stays the rule set's this way: the
Charleston is American's (``fourwinds charleston TILES``, protocol/american/commands.py).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, MutableSequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.registry import rule_names, ruleset_named

_T = TypeVar("_T")


class CommandError(FourwindsError):
    """A user's mistake in a rule set's command (a bad tile, a wrong count): one line."""


class Random(Protocol):
    """What a command needs of a seeded random source (``random.Random`` fits): the demo's
    practice shuffle, dice and bots. The frontend makes it from the seed given."""

    def random(self) -> float: ...

    def randint(self, a: int, b: int) -> int: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...


@dataclass(frozen=True)
class Argument:
    """One argument of a command: ``flags`` (``("tiles",)``, ``("--card",)``) and argparse's
    keywords for it (``help``, ``metavar``, ``nargs``, ``default``, ``action``, ``type``...).
    ``reads``: the argument names a file the frontend reads for the command, given as text in
    ``Given.files`` under the argument's name; the words say what it is ("card file": a file
    that cannot be read is "cannot read card file PATH: why")."""

    flags: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    reads: str | None = None

    @property
    def dest(self) -> str:
        """The name of the parsed value (argparse's rule: the first long flag, or the
        positional's name, unless ``dest`` is given)."""
        explicit = self.options.get("dest")
        if isinstance(explicit, str):
            return explicit
        longs = [f for f in self.flags if f.startswith("--")]
        return (longs[0] if longs else self.flags[0]).lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class Given:
    """What a command's ``run`` gets: the parsed ``args`` (by name), the text of each file
    argument that was given (``files``, by the argument's name), standard input's lines
    (read lazily: a JSON-lines command answers each as it comes) and ``random(seed)``, a
    seeded random source."""

    args: Mapping[str, Any]
    files: Mapping[str, str] = field(default_factory=dict)
    stdin: Iterable[str] = ()
    random: Callable[[int], Random] | None = None

    def arg(self, name: str, kind: type[_T]) -> _T:
        """The parsed argument ``name``, checked to be a ``kind``."""
        value = self.args[name]
        if not isinstance(value, kind):
            raise TypeError(f"argument {name} is {type(value).__name__}, not {kind.__name__}")
        return value

    def seeded(self, seed: int) -> Random:
        """The random source for ``seed`` (a command that plays asks for one)."""
        if self.random is None:
            raise TypeError("this command was given no random source")
        return self.random(seed)


@dataclass(frozen=True)
class Lines:
    """Print ``lines`` one by one as they come (a demo's log, JSON lines answered as they are
    read), then end with ``status``. ``answers``: each line answers one line of standard
    input, so each is written out at once (a program waits for it before its next line)."""

    lines: Iterable[str]
    status: int = 0
    answers: bool = False


@dataclass(frozen=True)
class TableDemo:
    """Play the demo (``seed``, ``hands``, ``quiet``, the table options) through four
    in-memory table sessions of this rule set: the frontend's table harness does, with the
    table's ``rules_text`` and the rule set's own table options (MCR's ``("flowers",
    False)``)."""

    rules_text: str = ""
    engine_options: tuple[tuple[str, str | int | bool], ...] = ()


@dataclass(frozen=True)
class TableAct:
    """Act at the player's table: the one legal action of the view whose type is one of
    ``types`` and whose label ``words`` pick, with ``tiles`` when it chooses; ``what`` names
    it in a refusal ("make a charleston pass"). The frontend reads the view from the daemon,
    picks the action (or says what is legal) and sends it."""

    types: tuple[str, ...]
    what: str
    words: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()


Outcome = Lines | TableDemo | TableAct
"""What a command's ``run`` returns."""


@dataclass(frozen=True)
class RuleCommand:
    """One command of a rule set: ``fourwinds <verb> <name> ARGS``. For the per-rule-set
    verbs (``score``, ``hint``, ``demo``) the name is the rule set's; a verb of the rule
    set's own (``card``) is declared in ``RuleCommands.verbs``, and a command of such a verb
    with the name ``""`` is the verb itself (``fourwinds charleston ARGS``). ``table_demo``:
    the command plays the demo at a table too (the frontend adds its table options:
    ``--deck``, ``--transcript``, ``--engine-only``). ``at_table``: the command acts at the
    player's table (its ``run`` returns a ``TableAct``; the frontend adds the options that
    find the daemon and the table)."""

    verb: str
    name: str
    help: str
    run: Callable[[Given], Outcome]
    description: str | None = None
    arguments: tuple[Argument, ...] = ()
    table_demo: bool = False
    at_table: bool = False


@dataclass(frozen=True)
class RuleCommands:
    """A rule set's commands, and the verbs that are its own (``{"card": "its help"}``)."""

    commands: tuple[RuleCommand, ...] = ()
    verbs: Mapping[str, str] = field(default_factory=dict)


NO_COMMANDS = RuleCommands()


def told(log: Generator[str, None, _T], out: Callable[[str], None]) -> _T:
    """Tell ``out`` each line a log gives and return what the log returns at its end (a demo's
    final match state): for a caller that wants lines as they come, not a generator."""
    while True:
        try:
            out(next(log))
        except StopIteration as done:
            result: _T = done.value
            return result


def commands_of(ruleset: object) -> RuleCommands:
    """The commands a rule set declares (its optional ``commands``); none when it has none or
    they are not ``RuleCommands``."""
    found = getattr(ruleset, "commands", None)
    return found if isinstance(found, RuleCommands) else NO_COMMANDS


def every_command() -> list[RuleCommand]:
    """Every command of the registry's rule sets, in the registry's order."""
    return [
        command for name in rule_names() for command in commands_of(ruleset_named(name)).commands
    ]


def own_verbs() -> dict[str, str]:
    """The verbs the registry's rule sets declare as their own, with their help (the first
    rule set to declare one wins)."""
    verbs: dict[str, str] = {}
    for name in rule_names():
        for verb, text in commands_of(ruleset_named(name)).verbs.items():
            verbs.setdefault(verb, text)
    return verbs

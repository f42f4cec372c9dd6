"""`fourwinds completion bash|zsh`: print a shell completion script.

bash: ``source <(fourwinds completion bash)`` (or save it in
``~/.local/share/bash-completion/completions/fourwinds``); zsh: ``source <(fourwinds
completion zsh)`` in ~/.zshrc.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.completion_scripts import SHELLS, script


def register(sub: Any) -> None:
    parser = sub.add_parser("completion", help="print a shell completion script (bash, zsh)")
    parser.add_argument("shell", choices=SHELLS)
    parser.set_defaults(handler=cmd_completion)


def cmd_completion(args: argparse.Namespace) -> int:
    from fourwinds.frontends.cli import build_parser

    print(script(args.shell, build_parser()), end="")
    return 0

"""The table picks glyphs or codes from the user's locale, as the terminal will show them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fourwinds.frontends.terminal.curses_table import _coerced_c_locale

_PROBE = (
    "import locale, os\n"
    "from fourwinds.frontends.terminal.curses_table import set_locale, utf8_terminal\n"
    "set_locale(os.environ)\n"
    "print(utf8_terminal())\n"
)


def _probe(**env: str) -> str:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("lang", ["C", "POSIX", ""])
def test_a_c_locale_gets_codes_although_python_coerces_it_to_utf8(lang: str) -> None:
    assert _probe(LANG=lang) == "False"


def test_a_utf8_locale_gets_glyphs() -> None:
    assert _probe(LANG="C.UTF-8") == "True"


def test_a_utf8_locale_this_machine_lacks_falls_back_to_c_utf8_not_a_traceback() -> None:
    assert _probe(LANG="xx_NOWHERE.UTF-8") == "True"


def test_a_missing_non_utf8_locale_gets_codes() -> None:
    assert _probe(LANG="xx_NOWHERE.ISO-8859-1") == "False"


def test_coercion_is_told_from_a_chosen_lc_ctype() -> None:
    assert _coerced_c_locale({"LANG": "C", "LC_CTYPE": "C.UTF-8"})
    assert not _coerced_c_locale({"LANG": "C.UTF-8", "LC_CTYPE": "C.UTF-8"})
    assert not _coerced_c_locale({"LC_ALL": "C.UTF-8", "LC_CTYPE": "C.UTF-8"})
    assert not _coerced_c_locale({"LANG": "C"})

# Shared by scripts/*: create .venv if missing and install fourwinds with its extras.
# Sourced, not run. Sets $PY to the virtualenv's python.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON_BIN="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON_BIN" -m venv "$VENV"
fi
PY="$VENV/bin/python"
STAMP="$VENV/.fourwinds-installed"
# Reinstall when pyproject.toml changed since the last install (editable install otherwise).
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ]; then
    "$PY" -m pip install --quiet --upgrade pip
    "$PY" -m pip install --quiet -e "$ROOT[${FOURWINDS_EXTRAS:-test}]"
    touch "$STAMP"
fi
# Write the project's bytecode once. Where PYTHONDONTWRITEBYTECODE is set (it is on these
# machines) every process would otherwise compile every fourwinds module again at its start:
# ~0.2 s of CPU per daemon, bot seat or command, and the suite starts hundreds of them.
# Unchanged files cost a stat each; an edited file is compiled again here.
"$PY" -m compileall -q "$ROOT/protocol" "$ROOT/daemon" "$ROOT/frontends" "$ROOT/testkit" \
    "$ROOT/benchmarks"

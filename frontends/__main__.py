"""``python -m fourwinds.frontends`` runs the `fourwinds` command."""

import sys

from fourwinds.frontends.cli import main

sys.exit(main())

"""``python -m fourwinds.frontends.cli`` runs the `fourwinds` command (how daemons and bot
seats are started as processes of their own: frontends/client/local_seats.py)."""

import sys

from fourwinds.frontends.cli import main

sys.exit(main())

"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.peers.reach``."""

from fourwinds.daemon.peers.reach import Source as Source
from fourwinds.daemon.peers.reach import usable as usable

"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.peers.identity``."""

from fourwinds.daemon.peers.identity import BadKey as BadKey
from fourwinds.daemon.peers.identity import checked_public_key as checked_public_key

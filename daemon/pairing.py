"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.peers.pairing``."""

from fourwinds.daemon.peers.pairing import CodeGuesses as CodeGuesses
from fourwinds.daemon.peers.pairing import new_code as new_code
from fourwinds.daemon.peers.pairing import normalize_code as normalize_code

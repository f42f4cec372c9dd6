"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.peers.transport``."""

from fourwinds.daemon.peers.transport import Sender as Sender
from fourwinds.daemon.peers.transport import TransportError as TransportError

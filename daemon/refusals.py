"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.peers.refusals``."""

from fourwinds.daemon.peers.refusals import Refusal as Refusal
from fourwinds.daemon.peers.refusals import Refused as Refused

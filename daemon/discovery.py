"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.peers.discovery``."""

from fourwinds.daemon.peers.discovery import EventAnnouncement as EventAnnouncement
from fourwinds.daemon.peers.discovery import SeenEvent as SeenEvent

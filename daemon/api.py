"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.local_api.server``."""

from fourwinds.daemon.local_api.server import ApiError as ApiError
from fourwinds.daemon.local_api.server import Message as Message

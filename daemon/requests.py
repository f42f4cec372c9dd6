"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.local_api.requests``."""

from fourwinds.daemon.local_api.requests import drop_table as drop_table
from fourwinds.daemon.local_api.requests import join_at as join_at
from fourwinds.daemon.local_api.requests import open_at as open_at

"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.api.requests``."""

from fourwinds.daemon.api.requests import drop_table as drop_table
from fourwinds.daemon.api.requests import join_at as join_at
from fourwinds.daemon.api.requests import open_at as open_at

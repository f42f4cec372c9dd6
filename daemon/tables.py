"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.table_runtimes.runtime``."""

from fourwinds.daemon.table_runtimes.runtime import TableRuntime as TableRuntime

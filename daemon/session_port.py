"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import
``fourwinds.daemon.table_runtimes.session_port``."""

from fourwinds.daemon.table_runtimes.session_port import final_scores as final_scores
from fourwinds.daemon.table_runtimes.session_port import ready_due as ready_due
from fourwinds.daemon.table_runtimes.session_port import scores_so_far as scores_so_far

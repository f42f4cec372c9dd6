"""The table runtimes: one ``runtime.TableRuntime`` per table this daemon sits at, the pure
session it drives through ``session_port`` (loaded by module name; ``real_session`` adapts
the real one), and what keeps a table going when something goes wrong: rebuilding a lost
copy (``rebuild``, driven by ``rebuilds``), resuming or setting aside a stored one at start
(``recovery``), catching up a returning seat (``catching_up``), checking our own sequence
against peers' (``own_seq``), what a view change shows (``view_changes``) and each seat's
secret entropy (``seat_secrets``). The daemon's side of a table: its Steps carried out
(``steps``), its metadata written behind (``meta_writes``), our tables read back at start
(``resumes``) and the loops that tick and sync them (``timers``).
"""

PUBLIC = (
    "runtime",
    "session_port",
    "rebuild",
    "rebuilds",
    "recovery",
    "catching_up",
    "own_seq",
    "view_changes",
    "seat_secrets",
    "real_session",
    "meta_writes",
    "steps",
    "resumes",
    "timers",
)
"""The modules other parts of the daemon may import; anything else here is internal."""

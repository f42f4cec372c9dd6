"""The bots: seats played by a program instead of a person.

``bot_seat`` is the loop acting on view events, with a pluggable brain: ``view_bot`` (from the
view alone), ``suggest_bot`` (the daemon's engine bot), ``exec_bot`` (any program over JSON
lines), ``botzone_seat`` with ``botzone_proc`` and ``botzone_io`` (a Botzone bot program);
``tournament_bot`` plays every round of a tournament; ``bot_pause`` and ``bot_level_option``
are the options people set for bot seats; ``table_demo`` plays four built-in bots in memory.
"""

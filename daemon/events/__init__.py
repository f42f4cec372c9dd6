"""The tournament events this daemon holds: the I/O around each event's pure session
(protocol/tournament/session). ``held`` hands each event's session its inputs and
``performing`` carries out the Steps it returns; ``host`` names what the part is given;
``runtime`` is one event's state and I/O bookkeeping; ``joins`` the joins under way;
``store`` and ``meta`` keep its record and what only this daemon knows on disk;
``describe`` tells an event to the local API; ``requests`` are the local API's tournament
requests; ``tables`` opens and plays our table of each round; ``clock`` keeps the round's
clock; ``faults`` gathers the signatures of a substitute or a new director.
"""

PUBLIC = (
    "held",
    "runtime",
    "store",
    "describe",
    "requests",
    "tables",
    "clock",
    "faults",
)
"""The modules other parts of the daemon may import; anything else here is internal."""

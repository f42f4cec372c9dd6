"""The table's step machine: the pure session, its frozen state and PHASE_MOVES.

A seat's session takes inputs (a peer's message, a local action, a tick) and returns a
``Step``: the lobby, the hash chains, the steps resolved on complete inputs, the commit-reveal
dice, the practice and masked walls, the problems detected, resuming from records and
rebuilding from peers, the in-memory harness of four seats.
"""

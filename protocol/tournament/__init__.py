"""Venue tournaments, the pure part: the seating method and the standings.

Nothing here does I/O, reads a clock or draws randomness of its own: every entrant's daemon
recomputes the seating and the standings from the same inputs and must reach the same
answer (docs/TOURNAMENT.md).
"""

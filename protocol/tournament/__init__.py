"""Venue tournaments, the pure part: the seating method, the standings, and the signed
tournament record with its check and export file.

Nothing here does I/O, reads a clock or draws randomness of its own: every entrant's daemon
recomputes the seating and the standings from the same records and must reach the same
answer (docs/TOURNAMENT.md).
"""

"""The fair deck: commit-reveal dice and the mental-poker (SRA-masked) wall.

Modules, one job each (docs/FAIRNESS.md explains the protocol and the threat model):

* ``group``: Curve25519 group operations over libsodium (X25519 u-coordinates), scalars;
* ``entropy``: deterministic randomness from passed-in entropy bytes;
* ``commit_reveal``: the shared seed (commit, echo, reveal);
* ``dice``: what the rules roll dice for, from the seed by rejection sampling;
* ``messages`` / ``events``: every message (frozen dataclasses) and every output of a step;
* ``masked_wall``: seat secrets, tile points, the shuffle and lock passes;
* ``operations``: private draws and the deal, public reveals, private transfers, complaints;
* ``audit``: the end-of-hand audit and the blame it assigns;
* ``blame`` / ``errors``: cheats, blame, ``DeckCheat``; this seat's own usage errors;
* ``deck``: the ``Deck`` interface a table drives, and ``MaskedDeck``;
* ``loopback``: four decks wired together in memory (tests, tutorials, replays, benchmarks).
"""

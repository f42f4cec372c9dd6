"""Botzone's "Chinese-Standard-Mahjong", MCR's own bot protocol: tile names (``tiles``), a
hand told as Botzone requests (``story``), a bot's answers judged (``answer``) and the game as
the seat asks for it (``game.GAME``, what ``RULESET.botzone`` offers)."""

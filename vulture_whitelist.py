"""Names vulture (scripts/dead_code.py) cannot see used, because they are reached dynamically.

Every group says how its names are reached; nothing that code calls by name belongs here. Add a
name only with the way it is reached: dead code is deleted, not listed.
"""

# ruff: noqa: B018  (vulture reads the names; the expressions do nothing)
# mypy: ignore-errors
_ = object()

# ZeroMQ socket options: set as attributes, which zmq.Socket.__setattr__ turns into
# setsockopt calls (daemon/peers/transport.py, daemon/local_api/server.py,
# frontends/client/client.py, web/link.py)
(_.linger, _.router_mandatory, _.immediate, _.zap_domain)
(_.curve_server, _.curve_serverkey, _.curve_secretkey, _.curve_publickey)
(_.handshake_ivl, _.heartbeat_ivl, _.heartbeat_timeout)
(_.reconnect_ivl, _.reconnect_ivl_max, _.connect_timeout)

# TypedDict keys of the seat views (protocol/table/views/view_types.py): written by the views and
# sent as JSON; the web page's script and the local API's clients read them by key
(_.concealed_count, _.winning_tile, _.winner_name, _.from_name, _.hands_detail)
(_.phase_detail, _.wall_remaining, _.hand_number, _.hands_in_match, _.waiting_for)

# Frozen dataclass fields set by the constructor and read by the generated __eq__ and
# __repr__ (a Suspect's complainer, a Botzone story's from_seat; the view's from_seat key)
(_.complainer, _.from_seat)

# Tile kinds (protocol/tiles.py Kind) no code names: reached by value, Kind(number), from
# count arrays, transcripts and the wire
(_.M5, _.M8, _.P8, _.S3, _.S4, _.S6, _.FLOWER_3, _.FLOWER_4, _.SEASON_2)

# argparse calls an Action as action(parser, namespace, values, option_string) by keyword
# (frontends/cli.py's version action must take the name)
_.option_string

# Each daemon part's __init__ names the modules other parts may import; tests/daemon/
# test_parts.py reads the tuple from the source
_.PUBLIC

"""Everything between this daemon and other daemons: who we are (``identity``), the frames on
the wire (``wire``), the authenticated sockets that carry them (``transport``, with its rate
limits ``limits``, refusal counts ``refusals`` and port checks ``port_owner``), who may
connect (``admission``), finding peers (``discovery``, ``mdns``, ``reach``) and where the
other seats are (``whereabouts``: their addresses, dialled, and the ``--peer`` daemons
probed), announcing the tables we host (``announcing``), pairing by code (``pairing``) and
routing the frames that arrive (``frames_in``, which reaches the daemon only through its
narrow ``FrameHost`` Protocol).
"""

PUBLIC = (
    "identity",
    "wire",
    "transport",
    "refusals",
    "discovery",
    "mdns",
    "reach",
    "pairing",
    "frames_in",
    "whereabouts",
    "admission",
    "announcing",
)
"""The modules other parts of the daemon may import; anything else here is internal."""

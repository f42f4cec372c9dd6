"""Old name kept only for the tournament modules (daemon/event*.py), which another branch
moves into daemon/events/; remove when they import ``fourwinds.daemon.peers.wire``."""

from fourwinds.daemon.peers.wire import EVENT_RECORDS_BYTES as EVENT_RECORDS_BYTES
from fourwinds.daemon.peers.wire import EVENT_RECORDS_MAX as EVENT_RECORDS_MAX
from fourwinds.daemon.peers.wire import PROTOCOL_VERSION as PROTOCOL_VERSION
from fourwinds.daemon.peers.wire import EventAsk as EventAsk
from fourwinds.daemon.peers.wire import EventCall as EventCall
from fourwinds.daemon.peers.wire import EventEnter as EventEnter
from fourwinds.daemon.peers.wire import EventFind as EventFind
from fourwinds.daemon.peers.wire import EventPeers as EventPeers
from fourwinds.daemon.peers.wire import EventRecords as EventRecords
from fourwinds.daemon.peers.wire import EventSubmit as EventSubmit
from fourwinds.daemon.peers.wire import Refuse as Refuse

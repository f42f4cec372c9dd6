"""What the daemon keeps on disk for its tables: the folder of table logs and metadata
(``disk``: append-only records, atomic writes, setting a damaged table aside) and the
write-behind that makes a table's records durable before its peers hear of them (``durable``).

``RECORDS``, ``StoreError``, ``TableLog`` and ``write_atomic`` are re-exported here for the
tournament modules (daemon/event*.py), which import them from ``fourwinds.daemon.store``.
"""

from fourwinds.daemon.store.disk import RECORDS as RECORDS
from fourwinds.daemon.store.disk import StoreError as StoreError
from fourwinds.daemon.store.disk import TableLog as TableLog
from fourwinds.daemon.store.disk import write_atomic as write_atomic

PUBLIC = ("disk", "durable")
"""The modules other parts of the daemon may import; anything else here is internal."""

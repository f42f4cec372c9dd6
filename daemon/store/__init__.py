"""What the daemon keeps on disk for its tables: the folder of table logs and metadata
(``disk``: append-only records, atomic writes, setting a damaged table aside) and the
write-behind that makes a table's records durable before its peers hear of them (``durable``).
"""

PUBLIC = ("disk", "durable")
"""The modules other parts of the daemon may import; anything else here is internal."""

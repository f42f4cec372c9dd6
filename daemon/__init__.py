"""The per-player daemon: an asyncio shell around the pure protocol core."""

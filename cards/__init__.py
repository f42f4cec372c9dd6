"""Card files shipped with fourwinds (data only; read with importlib.resources)."""

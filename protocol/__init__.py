"""fourwinds protocol core: pure, deterministic, no I/O. Time and randomness are passed in."""

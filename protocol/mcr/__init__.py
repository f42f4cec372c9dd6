"""Chinese Official (MCR) rules: hand shapes, fan calculator and game engine."""

"""American Mahjong (NMJL-style card): card format, matcher and game engine."""

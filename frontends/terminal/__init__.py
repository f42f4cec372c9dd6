"""The terminal: the interactive curses table and its screens as plain lines of text.

``curses_table`` draws and reads keys; everything else is pure: ``table_view`` (the screen of
a view), ``table_keys`` (what a key does), the panels and screens (``table_lobby``,
``table_result``, ``table_match``, ``table_sheet``, ``table_panels``, ``table_layout``),
``table_help`` (every key, once) and ``tile_text`` (tiles in terminal cells). The command line
prints some of the same text (a hand's result, a seat's label).
"""

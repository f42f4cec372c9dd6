"""The client of the local daemon that every frontend shares: the terminal, the command line,
the web page and the bots all reach their daemon through it.

``client`` is the synchronous Python client of the local API (docs/LOCAL-API.md);
``daemon_link`` the asynchronous link the table, the CLI and the bots hold; ``daemon_watch``
follows the daemon through a restart; ``local_seats`` starts the user's daemon and bot seats;
``acting`` says which decision a view asks for and how to answer it; ``stored`` reads stored
hands; ``ready_with_bots`` is the one rule for saying ready at a table of a player and bots;
``seen_wait`` the one wait of a join by name for the daemon to see what it names.
"""

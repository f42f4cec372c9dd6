"""The seat view every frontend renders, and the words and screens around it.

``contract_view`` builds the view and its legal actions (typed in ``view_types``) from a
session; ``rule_view`` is the contract with each rule set's half of it. The rest answers what
the view shows: the screen, the scoring sheet, what the table waits for, the hands revealed,
the lines of a table log, the built-in bot's suggestion among the offered actions.
"""

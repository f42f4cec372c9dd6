"""The rule-set interface: what the table and the rest of the code need of a rule set.

``RulesAdapter`` (``rules_adapter``) is what the session drives for a hand; ``RuleSetAdapter``
(``ruleset``) what everything else asks; the registry finds a rule set by name. Seatings,
rule-set labels and commands, the Botzone game and the engines' bot randomness sit here too.
"""

"""A third rule set that lives only here: "Pungs and a pair" (issue 25's proof that a rule set
is one folder plus one registry line). docs/DESIGN.md, "How to add a rule set"."""

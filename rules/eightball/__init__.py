"""8-ball (RULES Part 2): the rule core (core, state, shot) and the team match (match)."""

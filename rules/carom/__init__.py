"""Carom (RULES Part 1): the partie's rule core (core, state, corrections, errors, figures) and
the team match (match)."""

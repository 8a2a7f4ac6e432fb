"""Pure league logic: schedules, working days, Czech order, the checks of items and of the organiser's input. No I/O."""

"""The live board: the tables playing now, shown from the devices' signed snapshots (the latest per table kept a few minutes, never a record)."""

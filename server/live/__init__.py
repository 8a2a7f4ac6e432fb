"""The live board: the tables playing now, shown from the devices' signed snapshots, never stored."""

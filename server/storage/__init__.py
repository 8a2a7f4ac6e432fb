"""The database, its migrations and the store: the only place SQL lives."""

"""The pocitadlo service: main loop, journal, sync and the command line."""

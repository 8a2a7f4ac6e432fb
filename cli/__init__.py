"""``pocitadlo``, the command line: the device service, the emulator, tools and the league's receiver."""

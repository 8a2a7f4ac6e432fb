"""One module per ``pocitadlo`` subcommand.

Each module defines ``HELP`` (one line), ``configure(parser)`` and ``run(args) -> int``.
Modules import only the standard library at the top: heavy imports (luma, gpiozero, evdev,
pyserial) go inside ``run`` so ``pocitadlo --help`` and the service start stay fast.
"""

"""Where the service keeps its state under systemd; its own module, so the start's first step
(cli.launcher) reads it without importing cli.main and argparse."""
import os


def state_directory() -> str | None:
    """The service's state directory under systemd (StateDirectory=: $STATE_DIRECTORY, its first
    path), None outside it."""
    return os.environ.get("STATE_DIRECTORY", "").split(":")[0] or None

"""The device's config file: config.load with the readers of the parts that own a section.

config sits below display, input and delivery, so it cannot import their readers; the device
service, above them all, hands them over here.
"""
from config import load as config_load
from delivery.settings import read as read_sync
from display.settings import read as read_display
from firmware_host.live.settings import read as read_live
from input.settings import read as read_keypad

PART_READERS = {
    "display": read_display,
    "keypad": read_keypad,
    "sync": read_sync,
    "live": read_live,
}


def load(path, *, base_dir=None) -> config_load.Config:
    """The device's Config from ``path``; a ConfigError names file, section and option."""
    return config_load.load(path, readers=PART_READERS, base_dir=base_dir)

"""The counter lit at start, before the config is fully read and the rest of the service is
imported (docs/install.md, "Boot ordering"): the first picture from the raw [device] table, and the
counter that shows a config error while the service waits for a fixed file."""
import logging
import time

log = logging.getLogger("pocitadlo")

LIT = "counter lit, starting"


def boot_model(path) -> dict:
    """The first picture: the ready screen with the venue and the table as the file says them."""
    device = _raw_toml(path).get("device")
    device = device if isinstance(device, dict) else {}
    place = {key: device[key] for key in ("venue", "table") if isinstance(device.get(key), str)}
    return {"screen": "ready", "table": "1", **place}


class ErrorCounter:
    """The counter lit at start and showing a config error: the [display] section if it reads,
    defaults otherwise. ``hand_over`` gives it to the service once the config is loaded."""

    def __init__(self, path):
        self.path = path
        self.counter = None

    def show(self, model: dict) -> None:
        try:
            if self.counter is None:
                self.counter = _error_counter(self.path)
            self.counter.show(model, time.monotonic())
        except Exception as exc:       # noqa: BLE001 — no display either: the log has it
            log.error("cannot show the %s screen on the counter: %s", model.get("screen"), exc)

    def hand_over(self, settings):
        """The lit Counter if it was opened with ``settings`` (the loaded config's), else None
        (the display is freed and the service opens it anew)."""
        counter = self.counter
        if counter is not None and counter.device is not None and counter.settings == settings:
            self.counter = None
            return counter
        self.close()
        return None

    def close(self) -> None:
        """Free the display for the service."""
        device = getattr(self.counter, "device", None)
        if device is not None:
            try:
                device.cleanup()
            except Exception:          # noqa: BLE001
                pass
        self.counter = None


def _error_counter(path):
    from config.options import ConfigError, Section
    from display.counter import Counter
    from display.devices import open_device
    from display.settings import DisplaySettings, read

    doc = _raw_toml(path)
    display, device = doc.get("display", {}), doc.get("device", {})
    if isinstance(display, dict) and isinstance(device, dict) and "language" in device:
        display = {"language": device["language"], **display}     # as config.load does
    try:
        settings = read(Section(display, "display", path))
    except ConfigError:
        settings = DisplaySettings()
    return Counter(open_device(settings), settings)


def _raw_toml(path) -> dict:
    """The file's tables, unchecked, {} when it does not read (config.load, which says why, and the
    rule cores it imports come after the counter is lit)."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except (OSError, ValueError):      # missing, unreadable, not TOML, not UTF-8
        return {}

"""The counter lit at start, before the config is fully read and the rest of the service is
imported (docs/install.md, "Boot ordering"): the first picture from the raw [device] table, and the
counter that shows a config error while the service waits for a fixed file.

On a MAX7219 chain the first picture goes out before luma and Pillow are even imported
(display.boot_frame: the SPI transfers the previous start saved for the same tables); luma then
takes the lit chain over without a blank frame."""
import os
import time

LIT = "counter lit, starting"
DARK = "counter dark, starting"         # no frame reached a display: why follows


def service_log():
    """The service's logger. ``logging`` is imported at its first record (delivery.logs), not
    before: its import (re, traceback, threading, ...) was most of a raw start's CPU time before
    the lit counter, and ~7 % of it before READY=1."""
    from delivery.logs import Logger

    return Logger("pocitadlo")


def boot_model(path) -> dict:
    """The first picture: the ready screen with the venue and the table as the file says them."""
    device = _raw_toml(path).get("device")
    device = device if isinstance(device, dict) else {}
    place = {key: device[key] for key in ("venue", "table") if isinstance(device.get(key), str)}
    return {"screen": "ready", "table": "1", **place}


MAX7219_DRIVERS = ("max7219", "sevensegment")


class ErrorCounter:
    """The counter lit at start and showing a config error: the [display] section if it reads,
    defaults otherwise. ``hand_over`` gives it to the service once the config is loaded."""

    def __init__(self, path):
        self.path = path
        self.counter = None
        self.adopt = False      # the chain was lit by display.boot_frame: luma takes it over as it is
        self.fault: str | None = None       # why the last show reached no display

    def light_raw(self, model: dict) -> bool:
        """Show ``model`` without luma or Pillow, from the transfers ``remember`` saved for this
        config at an earlier start (MAX7219 chains); True when the counter is lit."""
        from display import boot_frame

        doc = _raw_toml(self.path)
        display = _display_table(doc)
        if display.get("driver", "max7219") not in MAX7219_DRIVERS:
            return False
        self.adopt = boot_frame.light(boot_frame.path_in(_data_dir(doc, self.path)), boot_frame.key_of(display, model))
        return self.adopt

    def remember(self, model: dict, *, spi: str | None = None, counter=None) -> None:
        """Save the transfers of ``model``'s picture for the next start's ``light_raw`` (MAX7219
        chains; ``spi``: the device written, /dev/spidevP.D by default; ``counter``: the one to
        draw it with, else this one's or one of the raw [display] table). Never fails the start."""
        try:
            doc = _raw_toml(self.path)
            display = _display_table(doc)
            if display.get("driver", "max7219") in MAX7219_DRIVERS:
                self._save_first_frame(doc, display, model, spi, counter)
        except Exception as exc:       # noqa: BLE001 — the next start lights the counter through luma
            service_log().warning("cannot save the first frame for the next start: %s", exc)

    def _save_first_frame(self, doc: dict, display: dict, model: dict, spi: str | None, counter) -> None:
        from display import boot_frame

        counter = counter or self.counter or _error_counter(self.path, device=False)
        settings = counter.settings
        rows = boot_frame.picture_rows(settings, counter.render(model, 0.0).image)
        transfers = boot_frame.register_writes(rows, len(rows[0]) // 2, settings.contrast)
        path, key = boot_frame.path_in(_data_dir(doc, self.path)), boot_frame.key_of(display, model)
        saved = boot_frame.read(path, key)
        if spi is None and saved is not None and saved[1:] == (settings.spi_bus_speed, transfers):
            return              # made for these tables (its device too: a stand-in in the bench)
        if boot_frame.save(path, key, spi or boot_frame.spi_path(settings), settings.spi_bus_speed, transfers):
            service_log().info("the first frame of the next start saved (display.boot_frame)")

    def show(self, model: dict) -> bool:
        """Draw ``model``; True when the frame reached a display (a fault is logged and kept in
        ``fault``: the start says "counter dark" with it, not "counter lit")."""
        try:
            if self.counter is None:
                self.counter = _error_counter(self.path, adopt=self.adopt)
            self.counter.show(model, time.monotonic())
        except Exception as exc:       # noqa: BLE001 — no display either: the log has it
            self.fault = str(exc) or type(exc).__name__
            service_log().error("cannot show the %s screen on the counter: %s", model.get("screen"), self.fault)
            return False
        self.fault = None
        return True

    def tick(self) -> float | None:
        """Turn the page of what is shown when it is due; when the picture next changes
        (time.monotonic()), or None."""
        try:
            return self.counter.tick(time.monotonic()) if self.counter is not None else None
        except Exception as exc:       # noqa: BLE001 — no display either: the log has it
            service_log().error("cannot turn the counter's page: %s", exc)
            return None

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
            except Exception:          # noqa: BLE001 — cleaning up a device that already failed
                pass
        self.counter = None


def _error_counter(path, *, adopt: bool = False, device: bool = True):
    """The Counter of the raw [display] table (defaults when it does not read); ``device=False``:
    without a device (pictures only); ``adopt``: see display.devices.open_device."""
    from config.options import ConfigError, Section
    from display.counter import Counter
    from display.devices import open_device
    from display.settings import DisplaySettings, read

    try:
        settings = read(Section(_display_table(_raw_toml(path)), "display", path))
    except ConfigError:
        settings = DisplaySettings()
    return Counter(open_device(settings, adopt=adopt) if device else None, settings)


def _display_table(doc: dict) -> dict:
    """The raw [display] table, the [device] language in it as config.load puts it."""
    display, device = doc.get("display", {}), doc.get("device", {})
    if not isinstance(display, dict):
        return {}
    if isinstance(device, dict) and "language" in device:
        display = {"language": device["language"], **display}
    return display


def _data_dir(doc: dict, path) -> str:
    """[device] data_dir as config.load resolves it (the config file's folder for a relative one)."""
    device = doc.get("device", {})
    value = device.get("data_dir") if isinstance(device, dict) else None
    value = value if isinstance(value, str) and value else "/var/lib/pocitadlo"
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), os.path.expanduser(value)))


def _raw_toml(path) -> dict:
    """The file's tables, unchecked, {} when it does not read (config.load, which says why, and the
    rule cores it imports come after the counter is lit). Under systemd its parse is kept for the
    next start (config.toml_files, from cli.commands.run.light)."""
    from config import toml_files

    try:
        return toml_files.read(path)
    except (OSError, ValueError, RecursionError):   # missing, unreadable, not UTF-8, not TOML
        return {}

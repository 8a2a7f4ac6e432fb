"""The ``[sync]`` config section: where finished partie go and how.

::

    [sync]
    transport = "http"                  # "http", "serial" or "none" (keep them in the outbox)
    url = "https://liga.example.cz/api/v1/records"
    allow_plain_http = false            # an http:// url needs this explicit opt-in (LAN receiver)
    ca_file = "/etc/pocitadlo/liga-ca.pem"   # optional: trust a self-signed receiver
    device_id = "hospoda-u-lva-1"
    secret_file = "/etc/pocitadlo/sync.secret"  # or: secret = "..."  (at least 16 characters)
    serial_port = "/dev/ttyUSB0"        # transport = "serial"
    baudrate = 115200
    timeout = 10.0                      # seconds for one delivery attempt (HTTP connect + answer)
    ack_timeout = 1.0                   # serial: seconds to wait for an ACK beyond the frame's own time
    frame_tries = 5                     # serial: sends of one frame before the attempt counts as failed
    backoff_initial = 2.0               # seconds after the first failure
    backoff_max = 600.0                 # the cap of the exponential backoff
    outbox = "/var/lib/pocitadlo/outbox"
    league_fetch = true                 # http: fetch the venue's league from the receiver (docs/sync.md)
    league_interval = 3600.0            # seconds between league fetches
"""
import os
from dataclasses import dataclass

from config.options import Section

TRANSPORTS = ("http", "serial", "none")
MIN_SECRET = 16
DEFAULT_OUTBOX = "/var/lib/pocitadlo/outbox"


@dataclass(frozen=True)
class SyncSettings:
    """[sync]: where finished partie go and how (the module's docstring lists every option)."""
    transport: str = "none"
    url: str | None = None
    allow_plain_http: bool = False
    ca_file: str | None = None
    device_id: str | None = None
    secret: bytes | None = None
    serial_port: str | None = None
    baudrate: int = 115200
    timeout: float = 10.0
    ack_timeout: float = 1.0
    frame_tries: int = 5
    backoff_initial: float = 2.0
    backoff_max: float = 600.0
    outbox: str = DEFAULT_OUTBOX
    league_fetch: bool = False
    league_interval: float = 3600.0


def read(section: Section) -> SyncSettings:
    """Read and check ``[sync]``; every error names the file, the section and the option."""
    transport = section.choice("transport", TRANSPORTS, "none")
    url = section.str("url", None)
    allow_plain_http = section.bool("allow_plain_http", False)
    ca_file = section.str("ca_file", None, nonempty=True)
    device_id = section.str("device_id", None)
    secret = _secret(section)
    serial_port = section.str("serial_port", None)
    settings = SyncSettings(
        transport=transport, url=url, allow_plain_http=allow_plain_http,
        ca_file=None if ca_file is None else _relative_to_config(section, ca_file),
        device_id=device_id, secret=secret, serial_port=serial_port,
        baudrate=section.int("baudrate", 115200, minimum=1200, maximum=4_000_000),
        timeout=section.float("timeout", 10.0, minimum=0.01, maximum=600.0),
        ack_timeout=section.float("ack_timeout", 1.0, minimum=0.01, maximum=60.0),
        frame_tries=section.int("frame_tries", 5, minimum=1, maximum=100),
        backoff_initial=section.float("backoff_initial", 2.0, minimum=0.01, maximum=3600.0),
        backoff_max=section.float("backoff_max", 600.0, minimum=0.01, maximum=86400.0),
        outbox=_relative_to_config(section, section.str("outbox", DEFAULT_OUTBOX, nonempty=True)),
        league_fetch=section.bool("league_fetch", transport == "http"),
        league_interval=section.float("league_interval", 3600.0, minimum=60.0, maximum=86400.0),
    )
    section.finish()
    _check_together(section, settings)
    _check_ca_file(section, settings.ca_file)
    return settings


def _check_host(section: Section, url: str) -> None:
    """The url names a receiver to connect to: a host, and a port if any that is one."""
    from urllib.parse import urlsplit  # for an http transport only, which parses it anyway

    try:
        parts = urlsplit(url)
        parts.port                      # noqa: B018 — a port out of range or not a number raises
    except ValueError as exc:
        raise section.error("url", f"not a usable URL ({exc}): \"{url}\"") from None
    if not parts.hostname:
        raise section.error("url", f"names no host: \"{url}\"")


def _check_ca_file(section: Section, path: str | None) -> None:
    """A CA file must be there and hold PEM certificates now, not fail at the first delivery."""
    if path is None:
        return
    import ssl  # here, not at the top: ssl is a good part of a Pi's start, and most configs name no CA

    try:
        ssl.create_default_context(cafile=path)
    except FileNotFoundError:
        raise section.error("ca_file", f"{path}: file not found") from None
    except ssl.SSLError:        # an OSError too: caught first
        raise section.error("ca_file", f"{path}: no PEM certificate in it "
                                       "(expected -----BEGIN CERTIFICATE-----)") from None
    except OSError as exc:
        raise section.error("ca_file", f"{path}: cannot read ({exc.strerror})") from None


def _secret(section: Section) -> bytes | None:
    if section.has("secret") and section.has("secret_file"):
        raise section.error("secret_file", "give either secret or secret_file, not both")
    if section.has("secret"):
        text = section.str("secret")
        option = "secret"
    elif section.has("secret_file"):
        path = _relative_to_config(section, section.str("secret_file", nonempty=True))
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read().strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise section.error("secret_file", f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
        option = "secret_file"
    else:
        return None
    if len(text) < MIN_SECRET:
        raise section.error(option, f"the secret must be at least {MIN_SECRET} characters long")
    return text.encode("utf-8")


def _relative_to_config(section: Section, path: str) -> str:
    if os.path.isabs(path):
        return path
    return os.path.join(os.path.dirname(str(section.path)), path)


def _check_together(section: Section, s: SyncSettings) -> None:
    if s.backoff_max < s.backoff_initial:
        raise section.error("backoff_max", f"must be at least backoff_initial ({s.backoff_initial:g})")
    if s.league_fetch and s.transport != "http":
        raise section.error("league_fetch", f"fetching the league needs transport = \"http\", not \"{s.transport}\"")
    if s.transport == "none":
        return
    if not s.device_id or not s.device_id.strip():
        raise section.error("device_id", f"required when transport is \"{s.transport}\"")
    if s.secret is None:
        raise section.error("secret", f"required when transport is \"{s.transport}\" (or give secret_file)")
    if s.transport == "http":
        if not s.url:
            raise section.error("url", "required when transport is \"http\"")
        if s.url.startswith("http://"):
            if not s.allow_plain_http:
                raise section.error("url", "plain http:// sends results unencrypted; use https:// "
                                           "or set allow_plain_http = true for a LAN receiver")
        elif not s.url.startswith("https://"):
            raise section.error("url", f"must start with https:// (or http://), got \"{s.url}\"")
        _check_host(section, s.url)
    if s.transport == "serial" and not s.serial_port:
        raise section.error("serial_port", "required when transport is \"serial\"")

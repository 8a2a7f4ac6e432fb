"""The ``[live]`` config section: the read-only live page of this table on the venue LAN.

::

    [live]
    enabled = false          # off unless asked for
    bind = "0.0.0.0"         # every IPv4 interface: phones and the bar's TV on the venue LAN;
                             # "127.0.0.1" keeps it on the device (a reverse proxy, a local browser)
    port = 8080              # systemd/pocitadlo.service allows binding only this port (SocketBindAllow)
    max_clients = 32         # open connections at once; more get 503 (a page retries by itself)
    push = false             # with [sync] transport = "http": post live snapshots to the league's /live
"""
from dataclasses import dataclass

from config.options import Section

DEFAULT_PORT = 8080


@dataclass(frozen=True)
class LiveSettings:
    """[live]: the live page on the venue's LAN and the push to the league's /live."""
    enabled: bool = False
    bind: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    max_clients: int = 32
    push: bool = False


def read(section: Section) -> LiveSettings:
    """Read and check ``[live]``; every error names the file, the section and the option."""
    settings = LiveSettings(
        enabled=section.bool("enabled", LiveSettings.enabled),
        bind=_address(section),
        port=section.int("port", LiveSettings.port, minimum=1, maximum=65535),
        max_clients=section.int("max_clients", LiveSettings.max_clients, minimum=1, maximum=1000),
        push=section.bool("push", LiveSettings.push))
    section.finish()
    return settings


def _address(section: Section) -> str:
    value = section.str("bind", LiveSettings.bind, nonempty=True)
    if value == LiveSettings.bind:      # valid: ipaddress is not imported for it at every start
        return value
    import ipaddress

    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise section.error("bind", f"not an IP address: {value!r} (e.g. \"0.0.0.0\" or \"127.0.0.1\")") from None

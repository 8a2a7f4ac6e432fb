"""sd_notify over $NOTIFY_SOCKET (READY, WATCHDOG, STATUS) with the standard library only.

Outside systemd (no $NOTIFY_SOCKET) every call does nothing. The C module ``_socket`` is used,
not ``socket``: importing socket.py (its constants made into enums) is a few per cent of the time
to the lit counter on a Pi-class core, and the first STATUS comes before anything else needs it.
"""
import _socket
import os


class Notifier:
    def __init__(self, address: str | None = None, watchdog_usec: str | None = None):
        self.address = address
        usec = int(watchdog_usec) if watchdog_usec and watchdog_usec.isdigit() else 0
        # ping at half the watchdog period, as sd_watchdog_enabled(3) advises
        self.interval = usec / 2_000_000 if usec else None

    @classmethod
    def from_env(cls, environ=os.environ) -> "Notifier":
        return cls(environ.get("NOTIFY_SOCKET"), environ.get("WATCHDOG_USEC"))

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        address = self.address
        if address.startswith("@"):
            address = "\0" + address[1:]           # abstract socket namespace
        try:
            sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_DGRAM | _socket.SOCK_CLOEXEC)
        except OSError:
            return False
        try:
            sock.sendto(message.encode("utf-8"), address)
            return True
        except OSError:
            return False
        finally:
            sock.close()

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

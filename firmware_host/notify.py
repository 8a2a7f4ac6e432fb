"""sd_notify over $NOTIFY_SOCKET (READY, WATCHDOG, STATUS) with the socket module only.

Outside systemd (no $NOTIFY_SOCKET) every call does nothing.
"""
import os
import socket


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
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message.encode("utf-8"), address)
            return True
        except OSError:
            return False

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

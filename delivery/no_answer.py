"""What venue staff read when a delivery got no answer: the fault in their words, not Python's
(``ConnectionRefusedError: [Errno 111] …``). The transports raise TransportError with these; the
exception's own words go to the log at debug level."""
import errno

from delivery.logs import Logger

log = Logger(__name__)

UNREACHABLE = (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN)
NO_PERMISSION = (errno.EACCES, errno.EPERM)


def http_words(url: str, host: str, timeout: float, exc: BaseException) -> str:
    """An HTTP request to the receiver at ``url`` failed with ``exc`` before any answer."""
    import http.client
    import socket
    import ssl

    log.debug("sync: %s: %s: %s", url, type(exc).__name__, exc)
    if isinstance(exc, ConnectionRefusedError):
        return f"the receiver at {url} refused the connection (is it running?)"
    if isinstance(exc, TimeoutError):
        return f"no answer from {url} within {timeout:g} s"
    if isinstance(exc, socket.gaierror):
        return f"{host}: no such server found (check [sync] url and the venue's internet connection)"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"the receiver at {url} has a certificate this device does not trust ({exc.verify_message})"
    if isinstance(exc, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError, http.client.RemoteDisconnected)):
        return f"the receiver at {url} closed the connection without an answer"
    if isinstance(exc, OSError) and exc.errno in UNREACHABLE:
        return f"no way to the receiver at {url} (is the network up?)"
    return f"{url}: {type(exc).__name__}: {exc}"     # rare: as Python says it


def serial_open_words(port: str, exc: BaseException) -> str:
    """The serial ``port`` could not be opened (pyserial's SerialException carries the errno)."""
    log.debug("serial: %s: %s: %s", port, type(exc).__name__, exc)
    code = getattr(exc, "errno", None)
    if code == errno.ENOENT:
        return f"serial port {port} does not exist (is the cable or its USB adapter plugged in?)"
    if code in NO_PERMISSION:
        return f"serial port {port}: no permission (the user must be in the dialout group)"
    if code == errno.EBUSY:
        return f"serial port {port} is in use by another program"
    return f"serial port {port} cannot be opened: {exc}"

"""What venue staff read when a delivery got no answer (delivery/no_answer.py): the fault in
their words — never Python's ``ConnectionRefusedError: [Errno 111] …``."""
import errno
import socket
import threading

import pytest

from delivery.no_answer import serial_open_words
from delivery.transport_http import HttpTransport
from wire.answer import TransportError
from wire.signing import Signer

BODY = b'{"id": "p-0", "kind": "partie", "record": "", "summary": {}}'


def failure(url: str, timeout: float = 5.0) -> str:
    transport = HttpTransport(url, Signer("u-lva-1", b"secret-0123456789abcdef"), timeout=timeout)
    try:
        with pytest.raises(TransportError) as caught:
            transport.send(BODY)
    finally:
        transport.close()
    return str(caught.value)


@pytest.fixture
def listening():
    """A port that takes connections (the kernel's backlog) and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        yield server


def test_a_receiver_not_running_is_said_as_refusing_the_connection():
    with socket.socket() as probe:           # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/api/v1/records"
    assert failure(url) == f"the receiver at {url} refused the connection (is it running?)"


def test_a_receiver_that_never_answers_is_said_with_the_timeout(listening):
    url = f"http://127.0.0.1:{listening.getsockname()[1]}/api/v1/records"
    assert failure(url, timeout=0.2) == f"no answer from {url} within 0.2 s"


def test_a_receiver_that_hangs_up_is_said_so(listening):
    def hang_up():
        peer, _ = listening.accept()
        with peer:
            peer.recv(65536)                # the request read, then closed without a word

    thread = threading.Thread(target=hang_up)
    thread.start()
    url = f"http://127.0.0.1:{listening.getsockname()[1]}/api/v1/records"
    try:
        assert failure(url) == f"the receiver at {url} closed the connection without an answer"
    finally:
        thread.join()


def test_a_server_name_that_does_not_resolve_is_said_so():
    assert failure("http://receiver.invalid/api/v1/records") == (
        "receiver.invalid: no such server found (check [sync] url and the venue's internet connection)")


@pytest.mark.parametrize("code, said", [
    (errno.ENOENT, "serial port /dev/ttyUSB9 does not exist (is the cable or its USB adapter plugged in?)"),
    (errno.EACCES, "serial port /dev/ttyUSB9: no permission (the user must be in the dialout group)"),
    (errno.EBUSY, "serial port /dev/ttyUSB9 is in use by another program"),
])
def test_a_serial_port_that_cannot_be_opened_is_said_by_why(code, said):
    assert serial_open_words("/dev/ttyUSB9", OSError(code, "could not open port /dev/ttyUSB9")) == said

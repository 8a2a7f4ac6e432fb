"""The receiver's serial end: frames in, the receiver's answer back in the ACK.

A DATA frame whose payload passed its CRC is handed to the Receiver and answered with an ACK
carrying the JSON answer (also for a refusal: sending it again would not help). A damaged frame
is answered with a NAK. A retransmitted frame (same sequence number, same bytes) gets the cached
ACK again without a second delivery, because its nonce was already used. A partial frame
followed by silence (the cable pulled mid-frame) is dropped; a failing port is reopened.
"""
import json
import logging
import threading
import time
import zlib

from delivery.transport_serial import Link
from wire import framing
from wire.answer import TransportError
from wire.signing import Signed

log = logging.getLogger("pocitadlo.server")


class SerialListener:
    def __init__(self, receiver, port: str, *, baudrate: int = 115200, quiet_gap: float = 0.5,
                 reopen_delay: float = 1.0, clock=time.monotonic):
        self.receiver = receiver
        self.link = Link(port, baudrate, clock=clock)
        self.quiet_gap, self.reopen_delay, self._clock = quiet_gap, reopen_delay, clock
        self._last: tuple | None = None     # (seq, crc of payload, ack frame) of the last DATA frame answered

    def answer(self, frame: framing.Frame) -> bytes | None:
        """The bytes to send back for one received frame (None for frames that need no answer)."""
        if frame.kind == framing.DAMAGED:
            return framing.encode(framing.NAK, frame.seq)
        if frame.kind != framing.DATA:
            return None
        fingerprint = (frame.seq, zlib.crc32(frame.payload), len(frame.payload))
        if self._last is not None and self._last[0] == fingerprint:
            return self._last[1]
        remote = f"serial:{self.link.port}"
        try:
            signed = Signed.unpack(frame.payload)
        except ValueError as exc:
            status, answer = self.receiver.refuse_unsigned(str(exc), status=401, via="serial", remote=remote)
        else:
            status, answer = self.receiver.handle(signed, via="serial", remote=remote)
        ack = framing.encode(framing.ACK, frame.seq, json.dumps(answer, ensure_ascii=False).encode("utf-8"))
        self._last = (fingerprint, ack)
        return ack

    def _answer_safely(self, frame: framing.Frame) -> bytes | None:
        try:
            return self.answer(frame)
        except Exception:     # a bug or a full disk must not end the listener: the device retries
            log.exception("serial listener: could not handle a frame")
            answer = {"code": 500, "status": "error", "reason": "internal error"}
            return framing.encode(framing.ACK, frame.seq, json.dumps(answer).encode("utf-8"))

    def serve(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                frames = self.link.read_frames()
                if not frames and self.link.decoder.partial and self._clock() - self.link.last_rx > self.quiet_gap:
                    frames = self.link.decoder.drop_partial()    # the cable was pulled mid-frame
                for frame in frames:
                    reply = self._answer_safely(frame)
                    if reply is not None:
                        self.link.write(reply)
            except TransportError as exc:
                log.warning("serial listener: %s; reopening in %.1f s", exc, self.reopen_delay)
                stop.wait(self.reopen_delay)
        self.link.close()

    def start(self) -> tuple[threading.Thread, threading.Event]:
        stop = threading.Event()
        thread = threading.Thread(target=self.serve, args=(stop,), name="receiver-serial", daemon=True)
        thread.start()
        return thread, stop

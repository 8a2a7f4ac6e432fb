"""The live endpoint: one thread, one asyncio loop, every viewer a coroutine (no thread per client).

The service thread calls ``observe(model)`` with each screen model it shows; the view is handed
to the loop with ``call_soon_threadsafe`` (a few microseconds, after the frame went out). The
loop sleeps in epoll between changes: 20 idle viewers cost a keep-alive comment each per
``HEARTBEAT`` seconds.

Bounds: at most ``max_clients`` connections (more get 503 once their head is read; beyond twice
that they are closed unread), a request head within ``header_deadline`` seconds and 8 KiB, a viewer's queue cut back to the newest state when it
lags (hub.Client), a viewer whose socket takes no data for ``write_deadline`` seconds dropped.
One client (address) holds at most PER_CLIENT event streams; a new stream past that, or past
``max_clients``, ends the idlest stream (its own, or of all: wire/streams.py) instead of a 503.
"""
import threading
from typing import TYPE_CHECKING

from delivery.logs import Logger
from firmware_host.live import http
from firmware_host.live.hub import QUEUE_LIMIT, Client, Hub
from firmware_host.live.state import live_view
from wire.streams import Streams

if TYPE_CHECKING:
    import asyncio

log = Logger("pocitadlo.live")

HEADER_LIMIT = 8192
HEARTBEAT = 20.0
PER_CLIENT = 4           # event streams of one address (a phone's tabs, the TV)


class LiveServer:
    def __init__(self, settings, identity: dict, *, context=lambda: None, header_deadline: float = 5.0,
                 write_deadline: float = 30.0, queue_limit: int = QUEUE_LIMIT, send_buffer: int | None = None):
        self.settings = settings
        self.hub = Hub(identity)
        self.context = context               # the service thread's match night, read with each model
        self.header_deadline, self.write_deadline = header_deadline, write_deadline
        self.queue_limit, self.send_buffer = queue_limit, send_buffer
        self.address: tuple | None = None    # (host, port) once listening
        self.error: str | None = None        # why it is not listening
        self.connections = 0
        self._lock = threading.Lock()
        self._latest: dict | None = None
        self._loop: "asyncio.AbstractEventLoop | None" = None
        self._thread: threading.Thread | None = None
        self._up = threading.Event()
        self._handlers: set = set()          # the connections' tasks (the loop thread's)
        self.streams: Streams[asyncio.StreamWriter] = Streams(settings.max_clients, PER_CLIENT)     # the /events viewers (the loop's)

    # -- the service thread ------------------------------------------------
    def observe(self, model: dict) -> None:
        """Called with every model the service shows; starts the server on the first (the first
        frame is out by then). Never raises into the service."""
        try:
            if self._thread is None:
                self.start()
            view = live_view(model, self.context())
            if view is None:
                return
            with self._lock:
                self._latest, loop = view, self._loop
            if loop is not None:
                loop.call_soon_threadsafe(self.hub.update, view)
        except Exception:
            log.exception("live page: a screen model could not be passed on")

    def start(self) -> None:
        """Start the loop thread (``observe`` does, with the first model)."""
        self._thread = threading.Thread(target=self._run, name="pocitadlo-live", daemon=True)
        self._thread.start()

    def listening(self, timeout: float) -> bool:
        """Wait until the server listens (True) or could not (False, ``error`` says why)."""
        return self._up.wait(timeout) and self.address is not None

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every model observed so far has reached the hub (tests, benches)."""
        loop = self._loop
        if loop is None:
            return False
        done = threading.Event()
        loop.call_soon_threadsafe(done.set)
        return done.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self._stop_event.set)
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the loop thread ---------------------------------------------------
    def _run(self) -> None:
        import asyncio

        try:
            asyncio.run(self._serve())
        except OSError as exc:
            self.error = f"cannot listen on {self.settings.bind}:{self.settings.port}: {exc.strerror or exc}"
            log.error("live page off, scoring goes on: %s", self.error)
        except Exception as exc:
            self.error = f"stopped by a fault: {exc!r}"
            log.exception("live page off, scoring goes on")
        finally:
            self._loop = None
            self._up.set()

    async def _serve(self) -> None:
        import asyncio

        self._stop_event = asyncio.Event()
        server = await asyncio.start_server(self._client, self.settings.bind, self.settings.port,
                                            limit=HEADER_LIMIT, reuse_address=True)
        self.address = server.sockets[0].getsockname()[:2]
        with self._lock:
            self._loop, first = asyncio.get_running_loop(), self._latest
        self.hub.update(first)
        log.info("live page on http://%s:%s/", *self.address)
        self._up.set()
        beat = asyncio.ensure_future(self._heartbeat())
        async with server:
            await self._stop_event.wait()
            beat.cancel()
            server.close()
            for client in list(self.hub.clients):
                client.push(b"")               # wake every writer: it sees the stop and ends
            if self._handlers:
                _, late = await asyncio.wait(self._handlers, timeout=1.0)
                for task in late:
                    task.cancel()
                await asyncio.wait(late, timeout=1.0) if late else None
        self.hub.clients.clear()

    async def _heartbeat(self) -> None:
        import asyncio

        while True:
            await asyncio.sleep(HEARTBEAT)
            self.hub.ping()

    async def _client(self, reader, writer) -> None:
        """One connection: its request head within the deadline, then one answer."""
        import asyncio

        if self.connections >= 2 * self.settings.max_clients:
            writer.transport.abort()           # a flood: not even a 503 (its head is not read)
            return
        task = asyncio.current_task()
        self._handlers.add(task)
        self.connections += 1
        try:
            head = await self._head(reader)
            if head is None:
                return                         # slow, truncated or oversized head: just close
            request: http.Request | http.BadRequest
            try:
                request = http.parse(head)
            except http.BadRequest as exc:
                request = exc
            full = self.connections > self.settings.max_clients
            if full and not (isinstance(request, http.Request) and request.path == "/events" and len(self.streams)):
                writer.write(http.error(503, "too many viewers, try again", extra=(("Retry-After", "5"),)))
                return                         # (a stream, though, ends the idlest to get in)
            if isinstance(request, http.BadRequest):
                writer.write(http.error(400, str(request)))
                return
            await self._answer(request, reader, writer)
        except (ConnectionError, asyncio.TimeoutError, asyncio.CancelledError):
            pass                               # the viewer left, stalled, or the server stops
        finally:
            self.connections -= 1
            self._handlers.discard(task)
            await _close(writer)

    async def _head(self, reader) -> bytes | None:
        import asyncio

        try:
            return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.header_deadline)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            return None

    async def _answer(self, request, reader, writer) -> None:
        from firmware_host.live import pages

        if request.method not in http.METHODS:
            writer.write(http.not_allowed())
        elif request.path == "/events":
            await self._events(request, reader, writer)
        elif request.path == "/state.json":
            writer.write(http.response(200, self.hub.body, "application/json; charset=utf-8",
                                       head_only=request.head_only))
        else:
            found = pages.page(request.path, self.hub.state)
            if found is None:
                writer.write(http.error(404, "no such page: try / or /overlay", head_only=request.head_only))
            else:
                writer.write(http.response(200, *found, head_only=request.head_only))
        await writer.drain()

    async def _events(self, request, reader, writer) -> None:
        import asyncio

        writer.write(http.stream_head())
        if request.head_only:
            return
        if self.send_buffer:                    # tests: a small socket buffer fills up at once
            import socket

            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)
            writer.transport.set_write_buffer_limits(high=self.send_buffer)
        client = Client(asyncio.Event(), self.queue_limit)
        client.push(self.hub.greeting())
        loop = asyncio.get_running_loop()
        for ended in self.streams.admit(writer, writer.get_extra_info("peername")[0], loop.time()):
            ended.transport.abort()            # its writer sees the connection gone and ends
        self.hub.clients.add(client)
        gone = asyncio.ensure_future(reader.read(1))       # EOF (or anything) when the viewer leaves
        try:
            while not self._stop_event.is_set():
                ready = asyncio.ensure_future(client.ready.wait())
                await asyncio.wait({gone, ready}, return_when=asyncio.FIRST_COMPLETED)
                if gone.done():
                    ready.cancel()
                    return
                for chunk in client.take():
                    writer.write(chunk)
                await asyncio.wait_for(writer.drain(), self.write_deadline)
                self.streams.sent(writer, loop.time())
        finally:
            self.hub.clients.discard(client)
            self.streams.leave(writer)
            gone.cancel()


async def _close(writer) -> None:
    try:
        writer.close()
        await writer.wait_closed()
    except (ConnectionError, OSError):
        pass


def attach(config, service) -> LiveServer:
    """The live endpoint of ``config``'s [live], told every model ``service`` shows; it starts
    listening with the first of them (after the first frame)."""
    from firmware_host.live.state import match_context

    device = config.device
    live = LiveServer(config.parts["live"], {"venue": device.venue, "table": device.table,
                                             "language": device.language},
                      context=lambda: match_context(service.night))
    service.observers.append(live.observe)
    return live

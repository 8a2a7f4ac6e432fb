"""The receiver's ASGI app served by uvicorn: on a socket bound at once (a port in use or a bad
certificate is an error of the constructor, before anything runs), in this thread or a background one.

``ReceiverServer`` keeps the shape the CLI, the tests and the bench use: ``port``, ``start()``,
``serve_forever()``, ``shutdown()``, ``server_close()``.
"""
import asyncio
import contextlib
import socket
import threading
import time

import uvicorn

from server.app import BODY_DEADLINE, create_app
from server.guard import HEADER_DEADLINE, MAX_CONNECTIONS, guarded

KEEP_ALIVE = 5           # seconds an idle kept-alive connection stays open
STARTUP_BOUND = 30.0     # seconds start() waits for the server to listen (a hang bound, not a timing)


class ReceiverServer:
    def __init__(self, address, receiver, *, certfile: str | None = None, keyfile: str | None = None,
                 header_deadline: float = HEADER_DEADLINE, body_deadline: float = BODY_DEADLINE,
                 max_connections: int = MAX_CONNECTIONS, proxies: list[str] | None = None, **app_options):
        """``proxies``: the addresses of the proxies in front (Caddy: 127.0.0.1), whose
        X-Forwarded-For and X-Forwarded-Proto are believed; none (the default): nobody's, the
        client is the address the connection comes from."""
        self.receiver = receiver
        self.app = create_app(receiver, body_deadline=body_deadline, **app_options)
        config = uvicorn.Config(self.app, ssl_certfile=certfile, ssl_keyfile=keyfile, lifespan="off",
                                proxy_headers=bool(proxies), forwarded_allow_ips=list(proxies or []),
                                access_log=False, log_level="warning", timeout_keep_alive=KEEP_ALIVE,
                                server_header=False, http=guarded(header_deadline, max_connections),
                                backlog=2048, timeout_graceful_shutdown=5)
        config.load()           # a certificate TLS cannot use fails here, with its ssl error
        host, port = address
        self._socket = socket.create_server((host, port), family=_family(host), backlog=2048)
        self._server = _Server(config, on_exit=self.app.state.live.close)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._socket.getsockname()[1]

    def serve_forever(self, on_started=None) -> None:
        """Serve in this thread until shutdown() (or SIGINT/SIGTERM when this is the main thread);
        ``on_started()`` once it accepts connections and handles those signals."""
        self._server.on_started = on_started
        self._server.run(sockets=[self._socket])

    def start(self, poll_interval: float = 0.01) -> threading.Thread:
        """Serve in a background thread (tests, benches); return once it accepts connections."""
        self._thread = threading.Thread(target=self.serve_forever, name="receiver-http", daemon=True)
        self._thread.start()
        waited = 0.0
        while not self._server.started and self._thread.is_alive() and waited < STARTUP_BOUND:
            time.sleep(poll_interval)
            waited += poll_interval
        if not self._server.started:
            raise RuntimeError("the receiver's HTTP server did not start")
        return self._thread

    def shutdown(self) -> None:
        self._server.handle_exit(None, None)
        if self._thread is not None:
            self._thread.join(STARTUP_BOUND)

    def server_close(self) -> None:
        self._socket.close()


class _Server(uvicorn.Server):
    """uvicorn's server that, told to exit (SIGINT, SIGTERM, shutdown()), first ends the endless
    /live/events streams: uvicorn waits for every running answer before it stops. And it stops
    at once: uvicorn looks at its exit flag every 0.1 s and sleeps another 0.1 s after asking its
    connections to close (a restart, and each of the suite's hundreds of served receivers, waited
    for both); here the flag wakes the loop, and the connections' closing is waited for as uvicorn
    waits for it, without the fixed sleep before."""

    def __init__(self, config, *, on_exit):
        super().__init__(config)
        self.on_exit = on_exit
        self.on_started = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken: asyncio.Event | None = None

    async def startup(self, sockets=None) -> None:
        self._loop, self._woken = asyncio.get_running_loop(), asyncio.Event()
        await super().startup(sockets=sockets)
        if self.started and self.on_started is not None:
            self.on_started()

    async def main_loop(self) -> None:
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            assert self._woken is not None
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._woken.wait(), 0.1)

    async def shutdown(self, sockets=None) -> None:
        """uvicorn 0.54's shutdown (pinned in pyproject) without its fixed 0.1 s sleep: a yield
        lets the idle connections' closing run before what is still open is waited for."""
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()       # idle ones close now, busy ones after their answer
        await asyncio.sleep(0)
        try:
            await asyncio.wait_for(self._wait_tasks_to_complete(), timeout=self.config.timeout_graceful_shutdown)
        except asyncio.TimeoutError:
            for task in self.server_state.tasks:
                task.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        if not self.force_exit:
            await self.lifespan.shutdown()

    def handle_exit(self, sig, frame) -> None:
        self.on_exit()
        if sig is None:
            self.should_exit = True
        else:
            super().handle_exit(sig, frame)
        if self._loop is not None and self._woken is not None:
            with contextlib.suppress(RuntimeError):      # the loop already closed
                self._loop.call_soon_threadsafe(self._woken.set)


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET

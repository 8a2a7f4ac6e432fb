"""One fetch of the venue's league from the receiver: a signed GET, the answer verified.

``LeagueFetcher.fetch()`` returns the receiver's verified answer (wire.league_answer.LeagueAnswer)
or raises ``FetchFailed`` with the reason in one line: no answer, refused (and why), not signed,
signed by someone else or altered, stale, or not a league. A device whose clock is off (a Pi
without network or RTC) learns the receiver's time from a refusal and asks again, as the Syncer
does. What to do with the answer (the venue check, the cache, the menus) is the device's business
(firmware_host.league_keeper).
"""
from typing import TYPE_CHECKING
from urllib.parse import urlencode, urljoin

from delivery.transport_http import HttpTransport
from wire.answer import Answer, TransportError
from wire.signing import Signed, Signer

if TYPE_CHECKING:
    import http.client

    from delivery.settings import SyncSettings
    from wire.league_answer import LeagueAnswer

CLOCK_OFF = 60          # seconds: a 401 with the receiver's time this far off ours means our clock is wrong


class FetchFailed(Exception):
    """No verified league this time; ``str()`` is the reason, for the log."""


def league_url(records_url: str, game: str | None = None) -> str:
    """The league endpoint beside the records one: ``…/api/v1/records`` → ``…/api/v1/league``,
    asking for the league of ``game`` (carom, 8ball) when given: a venue may host both."""
    return urljoin(records_url, "league") + (f"?{urlencode({'game': game})}" if game else "")


class LeagueFetcher:
    def __init__(self, transport: HttpTransport, secret: bytes):
        self.transport, self._secret = transport, secret

    @classmethod
    def from_settings(cls, settings: "SyncSettings", signer: Signer, game: str | None = None) -> "LeagueFetcher":
        """For [sync] settings with transport "http"; ``signer`` is the Syncer's (it shares the
        learned clock offset); ``game``: the device's, whose league it asks for."""
        assert settings.url is not None and settings.secret is not None     # delivery.settings.read: required
        transport = HttpTransport(league_url(settings.url, game), signer, timeout=settings.timeout,
                                  ca_file=settings.ca_file)
        return cls(transport, settings.secret)

    @property
    def signer(self) -> Signer:
        return self.transport.signer

    def fetch(self) -> "LeagueAnswer":
        """(wire.league_answer, the league document's checks: imported at the first fetch, after READY)"""
        from wire.league_answer import MAX_ANSWER, Unverified, verify_answer

        status, request, headers, data = self._ask()
        server_time = Answer.from_json(status, data).server_time if status == 401 else None
        if server_time is not None and abs(server_time - self.signer.now()) > CLOCK_OFF:
            self.signer.learn_time(server_time)
            status, request, headers, data = self._ask()
        if status != 200:
            answer = Answer.from_json(status, data)
            raise FetchFailed(f"the receiver refused: {status} {answer.message}")
        if len(data) > MAX_ANSWER:
            raise FetchFailed(f"the answer is larger than {MAX_ANSWER} bytes")
        try:
            signed = Signed.from_headers(headers, data)
        except ValueError as exc:
            raise FetchFailed(f"the answer is not signed by the receiver ({exc}): a captive portal or a proxy?") from None
        try:
            return verify_answer(signed, secret=self._secret, device=self.signer.device, nonce=request.nonce,
                                 now=self.signer.now())
        except Unverified as exc:
            raise FetchFailed(str(exc)) from None

    def _ask(self) -> "tuple[int, Signed, http.client.HTTPMessage, bytes]":
        from wire.league_answer import MAX_ANSWER

        request = self.signer.sign(b"")
        try:
            status, headers, data = self.transport.exchange("GET", None, request.headers(), limit=MAX_ANSWER + 1)
        except TransportError as exc:
            raise FetchFailed(f"no answer: {exc}") from None
        return status, request, headers, data

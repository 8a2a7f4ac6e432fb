"""GET /api/v1/league over real HTTP (issue 16, "devices fetch the league"): the device's signed
request is checked like a record post; the answer is its venue's league, signed by the receiver
with the device's own secret."""
import json

import pytest

from conftest import KOULE, LVA, SECRETS, Client, register_devices
from league_fetch_helpers import LeagueSource, league_document
from server.ingest.receiver import Receiver
from server.site.access import RefusalLimiter
from server.storage.store import Store
from wire.league import parse_document
from wire.league_answer import Unverified, verify_answer
from wire.signing import Signed, Signer

LEAGUE = "/api/v1/league"


@pytest.fixture
def store(store_place, evening):
    """The receiver's store on the test's evening (its clock: the window, the answer's time, today)."""
    s = register_devices(Store(store_place, clock=evening))
    yield s
    s.close()


@pytest.fixture
def source(evening):
    return LeagueSource({LVA: league_document(evening.today())})


@pytest.fixture
def server(store, source, serving):
    with serving(Receiver(store), league_source=source) as srv:
        yield srv


def signer(device, evening, secret=None):
    return Signer(device, secret or SECRETS[device], clock=evening.time)


def ask(server, headers):
    status, answer_headers, data = Client(server.port).request("GET", LEAGUE, headers=headers)
    return status, answer_headers, data


def answered(headers: dict, data: bytes) -> Signed:
    """The signed answer (Client gives the headers in lower case)."""
    return Signed.from_headers({name.title(): value for name, value in headers.items()}, data)


def fetch(server, device, evening):
    request = signer(device, evening).sign(b"")
    return request, ask(server, request.headers())


def test_a_registered_device_gets_its_venues_league_signed_for_it(server, source, evening):
    request, (status, headers, data) = fetch(server, "u-lva-1", evening)
    assert status == 200 and headers["cache-control"] == "no-store"
    answer = verify_answer(answered(headers, data), secret=SECRETS["u-lva-1"], device="u-lva-1",
                           nonce=request.nonce, now=evening.time())
    assert answer.venue == LVA and answer.today == evening.today()
    assert answer.document == parse_document(league_document(evening.today()))
    assert source.asked == [(LVA, evening.today())]     # the receiver's own date, from its clock


def test_a_tampered_answer_does_not_verify(server, evening):
    request, (status, headers, data) = fetch(server, "u-lva-1", evening)
    tampered = data.replace("Novák".encode(), "Nowak".encode())
    with pytest.raises(Unverified, match="bad signature"):
        verify_answer(answered(headers, tampered), secret=SECRETS["u-lva-1"], device="u-lva-1",
                      nonce=request.nonce, now=evening.time())


@pytest.mark.postgresql_once
@pytest.mark.parametrize("who, headers, status, reason", [
    ("nobody", lambda e: {}, 401, "missing header X-Pocitadlo-Device"),
    ("unknown", lambda e: Signer("u-stranger", b"stranger-secret-0123456789", clock=e.time).sign(b"").headers(),
     401, "unknown device 'u-stranger'"),
    ("forged", lambda e: signer("u-lva-1", e, b"forged-secret-0123456789abc").sign(b"").headers(), 401, "bad signature"),
    ("stale", lambda e: Signer("u-lva-1", SECRETS["u-lva-1"], clock=lambda: e.time() - 3600).sign(b"").headers(),
     401, "stale timestamp"),
    ("gateway", lambda e: signer("gw-lva", e).sign(b"").headers(), 401, "is a gateway"),
    ("no venue", lambda e: signer("u-nowhere", e).sign(b"").headers(), 403, "not registered for a venue"),
    ("no data", lambda e: signer("u-koule-1", e).sign(b"").headers(), 404, "no league data"),
])
def test_a_request_not_from_a_registered_device_of_a_venue_is_refused_with_the_reason(
        server, store, source, evening, who, headers, status, reason):
    got, answer_headers, data = ask(server, headers(evening))
    answer = json.loads(data)
    assert got == status and reason in answer["reason"] and answer["status"] == "refused"
    assert "x-pocitadlo-signature" not in answer_headers
    assert answer["server_time"] == pytest.approx(evening.time(), abs=60)  # a wrong device clock learns it
    assert store.refusals.report()["total"] == 1
    assert all(venue == KOULE for venue, _ in source.asked)    # no other venue's league was looked up


def test_a_replayed_request_is_refused(server, evening):
    request, (status, _, _) = fetch(server, "u-lva-1", evening)
    again, _, data = ask(server, request.headers())
    assert status == 200 and again == 401 and "replayed" in json.loads(data)["reason"]


def test_a_removed_device_is_refused_its_league_as_an_unknown_one(server, store, evening):
    """Audit report 11: after `server remove-device` its signed league request is refused (401)."""
    assert fetch(server, "u-lva-1", evening)[1][0] == 200
    store.devices.remove("u-lva-1")
    status, _, data = fetch(server, "u-lva-1", evening)[1]
    assert status == 401 and json.loads(data)["reason"] == "unknown device 'u-lva-1'"


def test_each_device_is_answered_for_its_own_registered_venue_only(server, source, evening):
    source.documents[KOULE] = league_document(evening.today(), venue=KOULE)
    request, (status, headers, data) = fetch(server, "u-koule-1", evening)
    answer = verify_answer(answered(headers, data), secret=SECRETS["u-koule-1"], device="u-koule-1",
                           nonce=request.nonce, now=evening.time())
    assert status == 200 and answer.venue == KOULE and source.asked == [(KOULE, evening.today())]
    with pytest.raises(Unverified, match="bad signature"):       # not valid with another device's secret
        verify_answer(answered(headers, data), secret=SECRETS["u-lva-1"], device="u-koule-1",
                      nonce=request.nonce, now=evening.time())


def test_refused_league_requests_are_rate_limited_like_other_refusals(store, source, serving, evening):
    with serving(Receiver(store), league_source=source, limiter=RefusalLimiter(burst=3, per_second=0.001)) as srv:
        statuses = [ask(srv, {})[0] for _ in range(5)]
    assert statuses == [401, 401, 401, 429, 429]


def test_without_league_data_the_answer_is_404(store, serving, evening):
    with serving(Receiver(store)) as srv:
        _, (status, _, data) = fetch(srv, "u-lva-1", evening)
    assert status == 404 and json.loads(data)["reason"] == "no league data"


def test_invalid_league_data_of_the_receiver_is_a_500_and_nothing_signed(store, source, serving, evening, caplog):
    source.documents[LVA] = {"teams": [{"name": "Sokol"}, {"name": "Sokol"}]}
    with serving(Receiver(store), league_source=source) as srv:
        _, (status, headers, _) = fetch(srv, "u-lva-1", evening)
    assert status == 500 and "x-pocitadlo-signature" not in headers
    assert "listed twice" in caplog.text


def test_a_league_request_with_a_body_is_refused(server, evening):
    request = signer("u-lva-1", evening).sign(b"")
    status, _, data = Client(server.port).request("GET", LEAGUE, b"{}", request.headers())
    assert status == 400 and "no body" in json.loads(data)["reason"]


def test_a_device_asks_for_its_games_league(server, source, evening):
    """A venue may host a carom and an 8-ball league: ``?game=`` (the device's [device] game)
    reaches the league source as its competition (the 8-ball season end-to-end test)."""
    request = signer("u-lva-1", evening).sign(b"")
    status, _, _ = Client(server.port).request("GET", LEAGUE + "?game=8ball", headers=request.headers())
    assert status == 200 and source.asked == [(LVA, evening.today(), "8ball")]


def test_a_league_request_for_an_unknown_game_is_refused(server, source, evening):
    request = signer("u-lva-1", evening).sign(b"")
    status, _, data = Client(server.port).request("GET", LEAGUE + "?game=snooker", headers=request.headers())
    assert status == 400 and "game must be one of carom, 8ball" in json.loads(data)["reason"]
    assert source.asked == []

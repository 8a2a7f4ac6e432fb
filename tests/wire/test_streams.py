"""Who holds the live streams (wire/streams.py): one client a share, the idlest ended for a newcomer."""
import pytest

from wire.streams import Streams, client_of


@pytest.mark.parametrize("address, client", [
    ("192.0.2.7", "192.0.2.7"),
    ("::ffff:192.0.2.7", "192.0.2.7"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),          # one machine's /64 is one client
    ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
    (None, "-"),
    ("not an address", "not an address"),
])
def test_a_client_is_an_address_or_an_ipv6_64(address, client):
    assert client_of(address) == client


def test_a_client_past_its_share_ends_its_own_idlest_stream():
    streams = Streams(most=10, per_client=2)
    assert streams.admit("a1", "10.0.0.1", 0) == [] and streams.admit("b1", "10.0.0.2", 1) == []
    assert streams.admit("a2", "10.0.0.1", 2) == []
    streams.sent("a1", 3)                            # a1 was sent something since: a2 is idler
    assert streams.admit("a3", "10.0.0.1", 4) == ["a2"]
    assert "b1" in streams and len(streams) == 3


def test_when_all_are_held_a_newcomer_ends_the_idlest_of_all():
    streams = Streams(most=2, per_client=2)
    streams.admit("a", "10.0.0.1", 0)
    streams.admit("b", "10.0.0.2", 1)
    streams.sent("a", 5)
    assert streams.admit("c", "10.0.0.3", 6) == ["b"]
    streams.leave("a")
    assert streams.admit("d", "10.0.0.4", 7) == [] and len(streams) == 2

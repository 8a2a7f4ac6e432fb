"""The league fetch's [sync] options (issue 16): on with an HTTP receiver, errors name file,
section and option."""
import pytest

from config.options import ConfigError, Section
from delivery.settings import read

HTTPS = {"transport": "http", "url": "https://liga.example/api/v1/records", "device_id": "u-lva-1",
         "secret": "s3cret-s3cret-s3cret"}


def sync(table):
    return read(Section(table, "sync", "/etc/pocitadlo/config.toml"))


def test_an_http_device_fetches_its_league_hourly_unless_told_not_to():
    assert (sync(HTTPS).league_fetch, sync(HTTPS).league_interval) == (True, 3600.0)
    assert not sync({**HTTPS, "league_fetch": False}).league_fetch
    assert not sync({}).league_fetch and not sync({"transport": "serial", "device_id": "d", "secret": HTTPS["secret"],
                                                   "serial_port": "/dev/ttyUSB0"}).league_fetch


@pytest.mark.parametrize("table, message", [
    ({"league_fetch": True}, r'\[sync\] league_fetch: fetching the league needs transport = "http", not "none"'),
    ({**HTTPS, "league_fetch": "yes"}, r"\[sync\] league_fetch: expected true or false"),
    ({**HTTPS, "league_interval": 10}, r"\[sync\] league_interval: .*at least 60"),
    ({**HTTPS, "league_interval": "hourly"}, r"\[sync\] league_interval: expected a number"),
])
def test_a_wrong_league_option_is_an_error_naming_file_section_and_option(table, message):
    with pytest.raises(ConfigError, match=r"^/etc/pocitadlo/config.toml: " + message):
        sync(table)

"""The [sync] config section (delivery/settings.py): errors name file, section and option."""
import pytest

from config.options import ConfigError, Section
from delivery.settings import read

SECRET = "s3cret-s3cret-s3cret"


def sync(table, path="/etc/pocitadlo/config.toml"):
    return read(Section(table, "sync", path))


HTTPS = {"transport": "http", "url": "https://liga.example/api/v1/records", "device_id": "d", "secret": SECRET}


def test_a_missing_ca_file_is_a_config_error_at_start(tmp_path):
    """Issue 12: found when the config is read, not at the first delivery of the night."""
    with pytest.raises(ConfigError, match=r"config.toml: \[sync\] ca_file: .*liga-ca.pem: file not found"):
        sync({**HTTPS, "ca_file": str(tmp_path / "liga-ca.pem")})


def test_a_ca_file_without_a_pem_certificate_is_a_config_error(tmp_path):
    junk = tmp_path / "liga-ca.pem"
    junk.write_text("not a certificate\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[sync\] ca_file: .*liga-ca.pem: no PEM certificate in it"):
        sync({**HTTPS, "ca_file": str(junk)})
    with pytest.raises(ConfigError, match=r"\[sync\] ca_file: .*: cannot read"):
        sync({**HTTPS, "ca_file": str(tmp_path)})                 # a folder


def test_defaults_keep_everything_in_the_outbox():
    s = sync({})
    assert s.transport == "none" and s.outbox == "/var/lib/pocitadlo/outbox"
    assert s.backoff_initial == 2.0 and s.backoff_max == 600.0


def test_https_needs_device_and_secret():
    s = sync({"transport": "http", "url": "https://liga.example/api/v1/records",
              "device_id": "u-lva-1", "secret": SECRET})
    assert s.secret == SECRET.encode() and s.device_id == "u-lva-1"


def test_plain_http_is_refused_without_the_explicit_opt_in():
    table = {"transport": "http", "url": "http://10.0.0.5:8080/api/v1/records",
             "device_id": "d", "secret": SECRET}
    with pytest.raises(ConfigError, match=r"config.toml: \[sync\] url: plain http://"):
        sync(table)
    assert sync({**table, "allow_plain_http": True}).allow_plain_http


@pytest.mark.parametrize("table, option", [
    ({"transport": "http", "url": "https://x/", "secret": SECRET}, "device_id"),
    ({"transport": "http", "url": "https://x/", "device_id": "d"}, "secret"),
    ({"transport": "http", "device_id": "d", "secret": SECRET}, "url"),
    ({"transport": "http", "url": "ftp://x/", "device_id": "d", "secret": SECRET}, "url"),
    ({"transport": "http", "url": "https://", "device_id": "d", "secret": SECRET}, "url"),
    ({"transport": "http", "url": "https:///api/v1/records", "device_id": "d", "secret": SECRET}, "url"),
    ({"transport": "http", "url": "https://liga.example:99999/", "device_id": "d", "secret": SECRET}, "url"),
    ({"transport": "http", "url": "https://liga.example:port/", "device_id": "d", "secret": SECRET}, "url"),
    ({"transport": "http", "url": "https://[::1/", "device_id": "d", "secret": SECRET}, "url"),
    ({"transport": "serial", "device_id": "d", "secret": SECRET}, "serial_port"),
    ({"transport": "serial", "device_id": "d", "secret": "short", "serial_port": "/dev/ttyUSB0"}, "secret"),
    ({"transport": "pigeon"}, "transport"),
    ({"backoff_initial": 10.0, "backoff_max": 5.0}, "backoff_max"),
    ({"baudrate": "fast"}, "baudrate"),
    ({"retries": 3}, "retries"),
    ({"secret": SECRET, "secret_file": "x"}, "secret_file"),
])
def test_bad_options_name_the_option(table, option):
    with pytest.raises(ConfigError, match=rf"\[sync\] {option}:"):
        sync(table)


def test_secret_file_is_read_relative_to_the_config_file(tmp_path):
    (tmp_path / "sync.secret").write_text(SECRET + "\n", encoding="utf-8")
    s = sync({"transport": "serial", "serial_port": "/dev/ttyUSB0", "device_id": "d",
              "secret_file": "sync.secret", "outbox": "outbox"}, path=tmp_path / "config.toml")
    assert s.secret == SECRET.encode()
    assert s.outbox == str(tmp_path / "outbox")


def test_missing_secret_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match=r"\[sync\] secret_file: cannot read"):
        sync({"secret_file": str(tmp_path / "nope")})

"""`[live] push`: the service's models become signed snapshots for the league (issue 15, part 2)."""
import json
import threading

from cli.commands.run import assemble
from firmware_host.live.push import attach_push
from firmware_host.settings import load

CONFIG = ('[device]\nvenue = "U Lva"\ntable = "3"\ndata_dir = "data"\n[display]\ndriver = "dummy"\n'
          '[keypad]\ndevices = []\n[sync]\noutbox = "outbox"\n{sync}[live]\npush = {push}\n')
HTTP = ('transport = "http"\nurl = "http://127.0.0.1:9/api/v1/records"\nallow_plain_http = true\n'
        'device_id = "lva-3"\nsecret = "0123456789abcdef0123"\n')


class Transport:
    def __init__(self):
        self.posted, self.arrived = [], threading.Event()

    def post(self, body):
        self.posted.append(json.loads(body))
        self.arrived.set()
        return 200, b"{}"


def service_for(tmp_path, *, sync=HTTP, push="true"):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG.format(sync=sync, push=push), encoding="utf-8")
    config = load(path)
    service, _, _ = assemble(config)
    return config, service


def test_the_shown_screen_goes_to_the_league_as_a_snapshot(tmp_path):
    config, service = service_for(tmp_path)
    transport = Transport()
    pusher = attach_push(config, service, transport)
    try:
        service.display.start(0.0)
        service.show()
        assert transport.arrived.wait(10)
        assert transport.posted[-1] | {"seq": 0} == {"venue": "U Lva", "table": "3", "seq": 0, "view": "ready",
                                                     "summary": None, "match": None, "record": None}
    finally:
        pusher.stop()


def test_push_is_off_by_default_and_needs_http(tmp_path, caplog):
    config, service = service_for(tmp_path, push="false")
    own = list(service.observers)           # the service's own (the journal's room top-up)
    assert attach_push(config, service, Transport()) is None and service.observers == own
    config, service = service_for(tmp_path, sync="", push="true")
    own = list(service.observers)
    assert attach_push(config, service, Transport()) is None and service.observers == own
    assert "[live] push needs [sync] transport = \"http\"" in caplog.text

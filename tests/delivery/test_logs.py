"""delivery.logs: loggers whose logging is set up at the first record of any of them (issue 27)."""
import logging
import threading

from delivery import logs


def test_the_first_record_sets_logging_up_once_and_every_record_comes_after(monkeypatch):
    events = []

    class Recorder(logging.Handler):
        def emit(self, record):
            events.append(record.getMessage())

    handler = Recorder()

    def setup():
        events.append("set up")
        logging.getLogger("pocitadlo.test-logs").addHandler(handler)

    monkeypatch.setattr(logs, "_setup", None)
    logs.set_up(setup)
    log = logs.Logger("pocitadlo.test-logs")
    start = threading.Barrier(8)

    def say(n):
        start.wait()
        log.warning("record %d", n)

    threads = [threading.Thread(target=say, args=(n,)) for n in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    finally:
        logging.getLogger("pocitadlo.test-logs").removeHandler(handler)
    assert events[0] == "set up" and events.count("set up") == 1
    assert sorted(events[1:]) == [f"record {n}" for n in range(8)]
    assert logs.ensure() is logging and events.count("set up") == 1      # not again


def test_a_logger_is_the_named_logging_logger():
    assert logs.Logger("pocitadlo.service").getEffectiveLevel() == logging.getLogger("pocitadlo.service").getEffectiveLevel()
    assert logs.Logger("pocitadlo.service").name == "pocitadlo.service"

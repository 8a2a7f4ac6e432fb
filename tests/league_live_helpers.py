"""Snapshots for the league's live board, and a bounded /live/events reader (live_helpers.Viewer)."""
import json

from live_helpers import Viewer
from wire.live import snapshot


def carom_view(a="Novák", b="Dvořák", points=(3, 1), inning=2, finished=False) -> dict:
    summary = {"game": "carom", "finished": finished, "result": None, "forfeit": None, "innings_limit": 15,
               "players": {"a": {"name": a, "points": points[0], "best_series": 3},
                           "b": {"name": b, "points": points[1], "best_series": 1}},
               "counter": {"at_table": "a", "inning": inning, "series": 0, "points_left": {"a": 1, "b": 1}}}
    return {"view": "carom", "summary": summary, "match": None}


def snap(venue: str, table="1", seq=1, record=None, **view) -> bytes:
    return snapshot(venue=venue, table=table, seq=seq, view=carom_view(**view), record=record)


def page_state(html: bytes) -> list:
    """The list embedded in /live (the page's first state)."""
    text = html.decode()
    start = text.index('<script id="live-data" type="application/json">') + len('<script id="live-data" type="application/json">')
    return json.loads(text[start:text.index("</script>", start)])


class Events(Viewer):
    """A /live/events client on a raw socket: ``next()`` is (event name, data) of the next event."""

    def __init__(self, port: int):
        super().__init__(("127.0.0.1", port), path="/live/events")

    def next(self) -> tuple[str, object]:
        fields = self.next_event()
        return fields["event"], json.loads(fields["data"])

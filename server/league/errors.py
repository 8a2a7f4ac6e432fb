"""The one refusal every check of the receiver raises."""


class Refused(Exception):
    """An item the receiver will not store: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason

    def __reduce__(self):       # as it was made (a check run in another process: server/ingest/prechecks.py)
        return Refused, (self.status, self.reason)

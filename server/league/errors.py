"""The one refusal every check of the receiver raises."""


class Refused(Exception):
    """An item the receiver will not store: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason

"""What a rule core is: the protocol rules.board plays a partie with, and the JSON it reads and writes."""
from typing import Any, Protocol

JSONObject = dict[str, Any]     # a record line (header or command), a summary: what json.loads gives


class Core(Protocol):
    """A game's rule core: pure functions over immutable states (its own settings and state types)."""

    name: str

    def parse_header(self, header: JSONObject) -> Any:
        """The settings a record header asks for (raises HeaderError)."""

    def initial(self, settings: Any) -> Any:
        """The state before the first command."""

    def step(self, state: Any, cmd: JSONObject) -> Any:
        """The state after one command (raises IllegalCommand, never mutates)."""

    def summary(self, state: Any) -> JSONObject:
        """The state as JSON (the ``replay`` output, the outbox item's summary)."""

    def finished(self, state: Any) -> bool: ...

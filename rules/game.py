"""What a game is to the device: the type of an entry of the game registry (rules.games).

A ``Game`` holds everything the layers above need to play it, so none of them names a game:
its rule core over one partie (the protocol of rules.board), its team match (partie, players,
team points, the lot draw or the first break, the match result), the counter's screen that
draws a partie of it, and its keys (``Keys``: the key map's defaults, which key enters which
record command). Texts follow the game by id: a text id may have the game's own wording under
``<id>_<game name>`` in the catalogs (input.messages.game_text), else the plain id is said.

Plain data and pure functions only: nothing here touches a device or a file.
"""
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from rules.core import Core, JSONObject

MAX_TEAM_POINTS = 100      # team points a partie (an individual match) may bring at most: A.5.3-A.5.5,
                           # RULES 2.9 (the league's admin allows 0-100)


def frozen(mapping: Mapping[str, str] | None = None) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping or {}))


class Drawn(Protocol):
    """One pairing of a lot draw (rules.carom.match.Pairing)."""

    def as_dict(self) -> JSONObject: ...


@dataclass(frozen=True)
class Keys:
    """A game's keys: what input.keymap adds to the keys every game shares (undo, redo, Enter,
    cancel, the menu on the held Enter)."""

    tap: Mapping[str, str]                  # key name → the action it fires when pressed
    actions: tuple[str, ...]                # every action of the game a key may be bound to, in
                                            # the order of the emulator's key line
    commands: Mapping[str, JSONObject]      # action → the record command it enters as it is; the
                                            # others ask first (a pocket, a group) or only say something
    hold: Mapping[str, str] = field(default_factory=frozen)    # key name → its action when held
    destructive: tuple[str, ...] = ()       # actions bound only to a long press, and confirmed
    menu: tuple[str, ...] = ()              # the game's items of the held-Enter menu, in order,
                                            # before the forfeits (input.referee builds them by name)
    stray_digit: str | None = None          # text id said for a digit no key binds (8-ball's
                                            # pocket digits outside a question)
    ahead: tuple[str, ...] = ()             # the everyday strokes (actions of ``commands``): the
                                            # counter draws their frames while it waits for a key


@dataclass(frozen=True)
class Game:
    """One registered game: all the device's layers need of it (rules.games)."""
    name: str                               # the record header's "game"
    core: Core                              # parse_header, initial, step, summary, finished (rules.board)
    partie_per_match: int                   # partie (8-ball: individual matches) in a team match by default
    players_per_team: int                   # players a team needs present to start a team match
    partie_points: Callable[[JSONObject], JSONObject | None]   # a partie summary → team points of "a" and "b"
    win_points: int                         # team points a partie won brings (a forfeited match: each partie)
    score: Callable[[JSONObject], JSONObject]   # a partie summary → its figure of "a" and "b" on the match's line
    screen: str                             # the counter layout's method that draws a partie (display/layouts)
    keys: Keys
    first_break: Callable[[str | None, int], str] | None = None   # (header "home", partie number) → "first_break"
    draw_lot: Callable[[list[str], list[str], int], Sequence[Drawn]] | None = None   # the lot draw of the
                                                        # pairs from the players present (home, away) and a seed
    match_facts: Callable[[JSONObject], JSONObject] | None = None   # what the night journal keeps of a
                                                        # closed partie for ``match_result`` (the summary is large)
    match_result: Callable[[Iterable[tuple[JSONObject, JSONObject]]], JSONObject] | None = None
    # ^ the kept facts of each closed partie, as (header, facts) → the match result; None: the
    #   closed partie's lines summed
    news: Callable[[JSONObject, JSONObject, JSONObject], tuple[str, str | None, str | None] | None] | None = None
    # ^ (command, summary before, after) → what it decided that the counter says
    protocol: bool = False                  # the partie record can be corrected on the counter
                                            # (commands "correct" and "insert")
    team_point_defaults: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # ^ the team-point rules of play (header key → the rule core's default: A.5.3-A.5.5, RULES
    #   2.9): a partie header carries one only when the competition's differs, so a partie played
    #   by the defaults is written as before they were rules of play

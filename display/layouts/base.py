"""The one interface every counter layout offers the Counter, whatever the board.

A layout has a method per screen, ``name(scene, model)``, under the same names on every kind of
board; ``draw`` picks it by the model's ``screen`` and ``message`` lays a transient message over
the picture. The screen of a partie in play is named for its game (the record header's ``game``);
the game's registry entry (rules.games) names the method that draws it.
"""
from display.scene import Scene

TEXT_SCREENS = ("ready", "menu", "prompt", "lotdraw", "match", "error", "keytest")
_REGISTRY: list[dict] = []      # rules.games.GAMES, once imported (see _games)


def _games() -> dict:
    """The game registry (rules.games.GAMES, one dict that ``register`` fills). It imports the rule
    cores, so not before the counter is lit (docs/install.md, "Boot ordering"): at the first game
    screen, then kept — a frame of the partie in play does not go through the import system."""
    if not _REGISTRY:
        from rules.games import GAMES

        _REGISTRY.append(GAMES)
    return _REGISTRY[0]


class Layout:
    message_covers = False      # a message hides the whole game screen (then its parts take turns with it)

    def screen(self, model: dict):
        """The method that draws ``model``; ``unknown`` for a screen this layout does not know."""
        name = model.get("screen")
        if name in TEXT_SCREENS:
            return getattr(self, name)
        game = _games().get(name) if isinstance(name, str) else None
        method = game.screen if game is not None and hasattr(self, game.screen) else "unknown"
        return getattr(self, method)

    def draw(self, scene: Scene, model: dict) -> None:
        self.screen(model)(scene, model)

    def message(self, scene: Scene, message: dict, part: int = 0) -> int:
        """Lay part ``part`` of ``message`` over the picture; return how many parts it has."""
        raise NotImplementedError

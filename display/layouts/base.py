"""The one interface every counter layout offers the Counter, whatever the board.

A layout has a method per screen, ``name(scene, model)``, under the same names on every kind of
board; ``draw`` picks it by the model's ``screen`` and ``message`` lays a transient message over
the picture. The screen of a partie in play is the game's: GAME_SCREENS, keyed by the record
header's ``game`` (rules.games), says which method draws it.
"""
from display.scene import Scene

TEXT_SCREENS = ("ready", "menu", "prompt", "lotdraw", "match", "error", "keytest")
GAME_SCREENS = {"carom": "carom", "8ball": "eightball"}


class Layout:
    message_covers = False      # a message hides the whole game screen (then its parts take turns with it)

    def screen(self, model: dict):
        """The method that draws ``model``; ``unknown`` for a screen this layout does not know."""
        name = str(model.get("screen"))
        return getattr(self, GAME_SCREENS.get(name) or (name if name in TEXT_SCREENS else "unknown"))

    def draw(self, scene: Scene, model: dict) -> None:
        self.screen(model)(scene, model)

    def message(self, scene: Scene, message: dict, part: int = 0) -> int:
        """Lay part ``part`` of ``message`` over the picture; return how many parts it has."""
        raise NotImplementedError

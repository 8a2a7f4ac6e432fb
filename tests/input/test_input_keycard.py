"""``pocitadlo keycard --png``: the key reference card from the active key map."""
from PIL import Image, ImageChops

from cli.main import main
from input.keycard import find_font, render
from input.keymap import default_keymap
from input.settings import KeypadSettings

CONFIG = """
[device]
venue = "U Koule"
table = "1"
game = "8ball"
[keypad]
devices = ["evdev", "matrix"]
[keypad.8ball]
"5" = "scratch"
"""


def test_cli_writes_a_png_from_the_built_in_map(tmp_path, capsys):
    out = tmp_path / "card.png"
    assert main(["keycard", "--png", str(out)]) == 0
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 1000
    assert "carom key card" in capsys.readouterr().out


def test_cli_uses_the_config_game_and_devices(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    plain, configured = tmp_path / "plain.png", tmp_path / "configured.png"
    assert main(["keycard", "--png", str(plain), "--game", "8ball"]) == 0
    assert main(["keycard", "--png", str(configured), "--config", str(config)]) == 0
    assert "8ball key card" in capsys.readouterr().out
    with Image.open(plain) as a, Image.open(configured) as b:
        assert b.height > a.height                     # the matrix keypad is drawn too


def test_a_changed_binding_changes_the_card():
    settings = KeypadSettings()
    default = render(default_keymap("carom"), settings)
    changed = render(default_keymap("carom").with_overrides({"5": "score1"}, {}), settings)
    assert default.size == changed.size
    assert ImageChops.difference(default, changed).getbbox() is not None


def test_bad_config_is_one_line_and_status_2(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.replace('"scratch"', '"score1"'), encoding="utf-8")
    assert main(["keycard", "--png", str(tmp_path / "x.png"), "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and '[keypad.8ball] 5: unknown action "score1"' in err


def test_default_font_when_no_truetype_font_is_given():
    assert render(default_keymap("8ball"), KeypadSettings(), "en", font_path="").width > 1000
    assert find_font() is None or find_font().endswith(".ttf")


def test_the_8ball_card_maps_the_pockets_as_rules_2_1_numbers_them():
    """Seen from the breaking end: 1 top left, 2 left middle, 3 bottom left, 4 bottom right, 5 right
    middle, 6 top right — each labelled with the key that enters that pocket."""
    from input.keycard import pocket_map

    assert pocket_map(default_keymap("8ball")) == [(1, (0, 0), "1"), (2, (0, 1), "2"), (3, (0, 2), "3"),
                                             (4, (1, 2), "4"), (5, (1, 1), "5"), (6, (1, 0), "6")]


def test_a_rebound_pocket_key_is_what_the_pocket_map_shows():
    from input.keycard import pocket_map

    keymap = default_keymap("8ball").with_overrides({"1": "none", "7": "pocket1"}, {})
    assert pocket_map(keymap)[0] == (1, (0, 0), "7")
    settings = KeypadSettings()
    default, rebound = render(default_keymap("8ball"), settings), render(keymap, settings)
    assert ImageChops.difference(default.crop((0, 1000, default.width, 1500)),
                                 rebound.crop((0, 1000, rebound.width, 1500))).getbbox() is not None


def test_only_the_8ball_card_has_a_pocket_map():
    settings = KeypadSettings()
    assert render(default_keymap("8ball"), settings).height > render(default_keymap("carom"), settings).height + 400

"""Keypads → referee commands.

devices (evdev_keypad, matrix, buttons, terminal) → KeyEvent → referee.Referee (debounce, long
press, prompts, key maps) → checked record commands, prompts and UI actions for the service.
Config: input.settings.read([keypad] section).
"""

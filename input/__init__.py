"""Keypads → referee commands.

    settings.read([keypad])  → KeypadSettings (devices, timing, key maps per game)
    devices.open_devices()   → evdev_keypad / matrix / buttons / terminal devices
    device.start(callback)   → events.KeyEvent and events.DeviceStatus, from any thread
    referee.Referee.press()  → overlays.Outcome: checked record commands, a prompt/menu/keytest
                               model, a message (messages.py) or a UI action for the service
Debouncing and long presses: debounce.py. Default key maps: keymap.py. Key card: keycard.py.
Scripted tests of all this: testing.Desk.
"""

"""The LED wall counter on luma.led_matrix (docs/display.md).

settings (the [display] config section) · devices (open the luma device; DisplayFault) ·
counter (Counter: show/tick, frames only on change) · layouts (per size and kind) · scene, fonts,
text (drawing helpers, bitmap fonts with Czech letters, the display's own words) · terminal
(a luma device that draws on any text stream) · boot_frame (a MAX7219 chain's first frame at start, without luma or Pillow).

Nothing is imported here, so ``from display.settings import read`` stays light.
"""

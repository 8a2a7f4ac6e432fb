"""The live score on the venue LAN: a read-only web endpoint of this table (issue 15, part 1).

Off by default (``[live] enabled``). The service hands every screen model it shows to
``LiveServer.observe`` (one call, after the frame went to the counter); a single thread runs an
asyncio loop serving ``/`` (the live page), ``/overlay`` (a score bug for OBS/vMix),
``/state.json`` and ``/events`` (Server-Sent Events). Nothing here can change a partie: GET and
HEAD only. docs/live.md.
"""

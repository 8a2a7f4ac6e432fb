"""The device service: the main loop (service) that takes the referee's keys to the counter, the
match night (match_night with night_store, night_menus, night_screens, night_take_back,
night_orphans), the fsync'd journal, the league file and the league fetched from the receiver
(league, league_keeper), the display link that rides out display faults, systemd notification,
the device config with every part's reader (settings) and the live page (live/).

The command line is cli/, the outbox and its delivery delivery/."""

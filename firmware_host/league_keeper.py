"""The league the night's menus use: fetched from the receiver and cached, else league.toml.

With ``[sync]`` transport "http" (and ``league_fetch``, on by default) the device fetches its
venue's league (teams, rosters, the venue's fixtures for the coming weeks) from the receiver in
a background thread: at start, every ``league_interval`` seconds, and when the setup menu opens
and the last try is more than ``SETUP_REFRESH`` seconds old. A fetch never delays a frame or a
key: the menus read whatever league is in force at that moment.

An answer counts only when it verifies (signed by the receiver with this device's secret, for
this request, fresh: wire.league_answer), is for this device's venue ([device] venue, matched
without regard to case and spacing) and, when it names its competition, for this device's game
([device] game: the fetch asks for it, as a venue may host a carom and an 8-ball league). Then it is written to ``<data_dir>/league-cache.json``
(durably: temp file, fsync, rename, folder fsync) and used from the next setup menu on. Anything
else changes nothing and is logged once with its reason (again only when the reason changes).

Precedence — the newest verified source:
1. the league fetched during this run;
2. else the cache of the last verified fetch, whose signature and venue are checked again at start
   (so a night without network still has the real rosters and tonight's fixture);
3. else the hand-edited league.toml ([device] league), the offline fallback; else no league.
Delete the cache file to go back to league.toml while the receiver cannot be reached.
"""
import json
import os
import threading
from typing import TYPE_CHECKING

from delivery.fsync import write_durably
from delivery.logs import Logger
from firmware_host.league import League, league_from_document, same_venue
from wire.signing import Signed

if TYPE_CHECKING:
    from wire.league_answer import LeagueAnswer

log = Logger("pocitadlo.league")

CACHE = "league-cache.json"
SETUP_REFRESH = 600.0      # seconds: opening the setup menu fetches again when the last try is older


class LeagueKeeper:
    def __init__(self, fallback: League, *, cache_path, venue: str, device: str, secret: bytes,
                 fetcher=None, interval: float = 3600.0, monotonic=None, game: str | None = None):
        self.cache_path, self.venue, self.device, self._secret = str(cache_path), venue, device, secret
        self.game = game
        self.fetcher, self.interval = fetcher, interval
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._wake, self._stopping = threading.Event(), threading.Event()
        self._thread: threading.Thread | None = None
        self._last_try: float | None = None
        self._said: str | None = None
        self.league, self.source = fallback, "league.toml" if fallback.teams or fallback.fixtures else "none"
        cached = self._read_cache()
        if cached is not None:
            self.league, self.source = league_from_document(cached.document), "cache"

    @classmethod
    def from_config(cls, config, fallback: League, signer, clock) -> "LeagueKeeper | None":
        """The keeper for a device whose [sync] fetches the league (None otherwise)."""
        sync = config.parts["sync"]
        if not sync.league_fetch or signer is None:
            return None
        from delivery.league_fetch import LeagueFetcher

        game = config.device.game
        return cls(fallback, cache_path=os.path.join(config.device.data_dir, CACHE), venue=config.device.venue,
                   device=sync.device_id, secret=sync.secret, fetcher=LeagueFetcher.from_settings(sync, signer, game),
                   interval=sync.league_interval, monotonic=clock.monotonic, game=game)

    # -- what the menus read ----------------------------------------------------
    def current(self) -> League:
        with self._lock:
            return self.league

    def for_setup(self) -> League:
        """The league for a match about to be set up; asks the receiver again if the last try is old."""
        if self._monotonic is not None and self._last_try is not None \
                and self._monotonic() - self._last_try > SETUP_REFRESH:
            self._wake.set()
        return self.current()

    # -- fetching -------------------------------------------------------------------
    def refresh(self) -> bool:
        """One fetch: True when a verified league for this venue is now in force (and cached)."""
        from delivery.league_fetch import FetchFailed  # http.client, ssl: in the fetch's thread, not at start
        from wire.league_answer import Unverified

        if self._monotonic is not None:
            self._last_try = self._monotonic()
        try:
            answer = self.fetcher.fetch()
            self._check_venue(answer)
            league = league_from_document(answer.document)
            os.makedirs(os.path.dirname(self.cache_path) or ".", exist_ok=True)
            write_durably(self.cache_path, json.dumps(answer.signed.to_json(), ensure_ascii=False).encode("utf-8"))
        except (FetchFailed, Unverified) as exc:
            self._say(f"league not fetched, keeping the {self.source} league: {exc}")
            return False
        except OSError as exc:
            self._say(f"league fetched but not cached ({self.cache_path}: {exc.strerror or exc}); "
                      f"keeping the {self.source} league")
            return False
        with self._lock:
            self.league, self.source = league, "receiver"
        self._said = None
        log.info("league fetched from the receiver: %d teams, %d fixtures of %s", len(league.teams),
                 len(league.fixtures), answer.venue)
        return True

    def start(self) -> threading.Thread:
        self._thread = threading.Thread(target=self._run, name="pocitadlo-league", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self.refresh()
            except Exception as exc:        # noqa: BLE001 — the league must never stop the counter
                self._say(f"league not fetched (internal error {exc.__class__.__name__}: {exc})")
            self._wake.wait(self.interval)
            self._wake.clear()

    # -- the cache ------------------------------------------------------------------
    def _read_cache(self) -> "LeagueAnswer | None":
        try:
            with open(self.cache_path, "rb") as fh:
                data = fh.read()
            from wire.league_answer import verify_cached  # the league document's checks: for a cache there

            answer = verify_cached(Signed.from_json(json.loads(data.decode("utf-8"))), secret=self._secret,
                                   device=self.device)
            self._check_venue(answer)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError) as exc:     # Unverified, JSON and Unicode errors included
            self._say(f"league cache {self.cache_path} not used, keeping the {self.source} league: {exc}")
            return None
        return answer

    def _check_venue(self, answer: "LeagueAnswer") -> None:
        """The answer is for this device's venue and, when it names its competition, its game."""
        from wire.league_answer import Unverified

        if not same_venue(answer.venue, self.venue):
            raise Unverified(f"the receiver sent the league of {answer.venue!r}, this device is at {self.venue!r} "
                             "([device] venue; pocitadlo server add-device --venue)")
        competition = answer.document["league"].get("competition")
        if None not in (self.game, competition) and competition != self.game:
            raise Unverified(f"the receiver sent the {competition} league, this device counts {self.game} "
                             "([device] game)")

    def _say(self, reason: str) -> None:
        """Log a failure once: again only when its reason changes."""
        if reason != self._said:
            log.warning("%s", reason)
            self._said = reason

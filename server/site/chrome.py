"""What every page of the league's site has around its content: the header with the league's name
and season, the competition switcher (carom / 8-ball), the earlier seasons, the site's navigation,
and the footer with the time of the last change.

``frame(store, …)`` reads what it needs from the store (three small queries); ``PRINTABLE`` is the
frame of a page printed by the command line (no navigation, nothing read).
"""
from dataclasses import dataclass, field

from server.site import czech
from server.site.games import DEFAULT, LABELS, in_address, site_game
from server.site.language import N_
from server.site.links import query
from server.tables import sums

GAME_NAMES = LABELS
SITE = N_("Liga")


@dataclass(frozen=True)
class Frame:
    league: str = SITE
    game: str | None = None
    season: str | None = None
    games: tuple = ()          # ({"label", "href", "current"}, …): the competition switcher
    seasons: tuple = ()        # ({"label", "href", "current"}, …): every season, latest first
    nav: tuple = ()            # ({"label", "href", "current"}, …)
    updated: str | None = None          # "út 13. 10. 2026 21:14" (Prague)
    updated_iso: str = ""
    navigation: bool = True
    admin: bool = False                 # the organiser's pages: no "last change", a way back to the site
    read: bool = True                   # built from the store: no ``updated`` then means nothing played yet
    extra: dict = field(default_factory=dict)


PRINTABLE = Frame(navigation=False)


def table_href(game: str, season: str | None = None) -> str:
    return site_game(game).table_path + query(None, season)


def schedule_href(game: str, season: str | None = None) -> str:
    args = query(None, season)
    if in_address(game):
        args += ("&" if args else "?") + f"competition={game}"
    return "/schedule" + args


NAV = (("home", N_("Domů"), lambda g, s: "/"),
       ("schedule", N_("Rozpis"), schedule_href),
       ("table", N_("Tabulka"), table_href),
       ("players", N_("Hráči"), lambda g, s: "/players.html" + query(in_address(g), s)),
       ("rankings", N_("Žebříčky"), lambda g, s: "/rankings.html" + query(in_address(g), s)),
       ("live", N_("Živě"), lambda g, s: "/live"),
       ("rules", N_("Pravidla"), lambda g, s: "/rules.html"))


def last_update(store) -> str | None:
    """When the last item arrived (UTC ISO), the time the footer shows."""
    return store.items.last_received()


def frame(store, *, here: str, game: str | None, season: str | None, switch=None, asked: bool = False) -> Frame:
    """The frame of a page of ``game`` and ``season`` (None: not tied to one); ``switch(game,
    season) -> href``: the same page in another competition or season (default: its table);
    ``asked``: the season was asked for, so the navigation keeps it."""
    switch = switch or table_href
    shown_game = game or DEFAULT
    names = store.league.competitions()
    seasons = sums.all_seasons(store)
    kept = season if asked else None
    updated = last_update(store)
    return Frame(
        league=names.get(shown_game, SITE), game=game, season=season,
        games=tuple({"label": GAME_NAMES[g], "href": switch(g, season), "current": g == game} for g in GAME_NAMES),
        seasons=tuple({"label": s, "href": switch(shown_game, s), "current": s == season} for s in seasons),
        nav=tuple({"label": label, "href": href(shown_game, kept), "current": key == here}
                  for key, label, href in NAV),
        updated=czech.moment(updated) if updated else None, updated_iso=czech.iso_local(updated) if updated else "")


# The frame of a page built without asking the store (an unknown address, a failure).
BARE = Frame(games=tuple({"label": GAME_NAMES[g], "href": table_href(g), "current": False} for g in GAME_NAMES),
             nav=tuple({"label": label, "href": href(DEFAULT, None), "current": False} for _, label, href in NAV),
             read=False)

ADMIN_NAV = (("admin", N_("Přehled"), "/admin"), ("audit", N_("Záznam změn"), "/admin/audit"),
             ("site", N_("Web ligy"), "/"))


def admin_frame(here: str = "admin", *, league: str = N_("Správa ligy")) -> Frame:
    """The frame of the admin's pages: its own navigation, no seasons to switch."""
    return Frame(league=league, admin=True, nav=tuple({"label": label, "href": href, "current": key == here}
                                          for key, label, href in ADMIN_NAV))

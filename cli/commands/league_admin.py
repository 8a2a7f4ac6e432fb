"""``pocitadlo server …`` subcommands that administer the league (docs/league.md):

    season add 2026/27 [--autumn F..L] [--spring F..L]     a season and its halves (A.2.1)
        [--from 2025/26 [--competition C]]                  … with the teams, rosters and rules of a season
    venue add NAME [--days po,st]                           a venue and the weekdays it is open
    venues                                                  the venues, their days and devices
    team add NAME --season S --venue V --captain C --phone P [--days po,út] [--competition carom]
    team edit NAME --season S [--captain C] [--phone P] [--days po,út]   correct a team (what is not given stays)
    team withdraw NAME --season S --reason R [--expel]     the team withdraws, or (--expel) the organiser expels
                                                            it by decision (A.1.2): as an A.3.7 expulsion
    team reinstate NAME --season S                          undo a withdrawal or an expulsion (A.3.7's too)
    teams --season S                                        the teams with captains and rosters
    player add|remove NAME --team T --season S              a roster (one team a season, A.3.4)
    player rename NAME NEW --team T --season S              correct the spelling of a name on a roster
    competition show|set --season S [KEY=VALUE …]           a competition's rules (A.1.2; defaults: the counters')
    fixture …, schedule …, postpone, no-show, withdraw-…, unassigned, assign, rule
                                                            the schedule (cli/commands/league_schedule.py)

A refused change prints its reason (exit status 2) and changes nothing.
"""
from cli.commands import league_schedule
from cli.commands.league_args import group, in_season

CREATING = ("season", "venue")      # actions that may start a new store


def configure(sub, leaf) -> None:
    """Add the league's actions to ``sub`` (the ``server`` subparsers); ``leaf(parser)`` adds what
    every action takes (--db)."""
    season = group(sub, "season", "seasons and their halves (A.2.1)")
    add = leaf(season.add_parser("add", help="add a season with its autumn and spring halves"))
    add.add_argument("name", help="like 2026/27")
    add.add_argument("--autumn", help="FIRST..LAST within October-November (default: the whole months)")
    add.add_argument("--spring", help="FIRST..LAST within March-April (default: the whole months)")
    add.add_argument("--from", dest="source", metavar="SEASON",
                     help="carry over that season's teams (not those expelled), their rosters and the competition's "
                          "rules; into a season already there too, while its competition has no teams")
    add.add_argument("--competition", choices=("carom", "8ball"), default="carom",
                     help="with --from: the competition carried over")
    leaf(season.add_parser("list", help="the seasons and their halves"))
    venue = group(sub, "venue", "venues")
    add = leaf(venue.add_parser("add", help="add a venue, or set its opening days"))
    add.add_argument("name")
    add.add_argument("--days", default="", help="weekdays it is open for matches: po,út,st,čt,pá (default: any)")
    leaf(sub.add_parser("venues", help="the venues, their opening days and the devices registered there"))
    team = group(sub, "team", "teams")
    add = in_season(leaf(team.add_parser("add", help="add a team with its venue and captain (A.3.2)")))
    add.add_argument("name")
    add.add_argument("--venue", required=True, help="its home venue (venue add)")
    add.add_argument("--captain", required=True, help="the captain's name (A.3.2)")
    add.add_argument("--phone", required=True, help="the captain's phone (A.3.2)")
    add.add_argument("--days", default="", help="weekdays it asks to play on: po,út,st,čt,pá (A.2.4)")
    edit = in_season(leaf(team.add_parser("edit", help="correct a team's captain, phone or days (what is not given "
                                                       "stays)")))
    edit.add_argument("name")
    edit.add_argument("--captain", help="the captain's name (A.3.2)")
    edit.add_argument("--phone", help="the captain's phone (A.3.2)")
    edit.add_argument("--days", help="weekdays it asks to play on: po,út,st,čt,pá (A.2.4; \"\": any)")
    leave = in_season(leaf(team.add_parser("withdraw", help="a team withdraws, or is expelled by the organiser's "
                                                            "decision: its results annulled, its fixtures cancelled")))
    leave.add_argument("name")
    leave.add_argument("--reason", required=True, help="why (kept with the team, shown on the site)")
    leave.add_argument("--expel", action="store_true", help="the organiser expels the team by decision (A.1.2); "
                                                            "without it: the team withdraws")
    back = in_season(leaf(team.add_parser("reinstate", help="undo a team's withdrawal or expulsion (A.3.7's too)")))
    back.add_argument("name")
    in_season(leaf(sub.add_parser("teams", help="the teams of a season, captains and rosters")))
    player = group(sub, "player", "rosters (a player plays for one team a season, A.3.4)")
    for verb, what in (("add", "put a player on a team's roster"), ("remove", "take a player off a roster")):
        action = in_season(leaf(player.add_parser(verb, help=what)))
        action.add_argument("name")
        action.add_argument("--team", required=True)
    rename = in_season(leaf(player.add_parser("rename", help="correct the spelling of a name on a roster, for the "
                                                           "whole season (as the web admin's \"opravit jméno\")")))
    rename.add_argument("name")
    rename.add_argument("new")
    rename.add_argument("--team", required=True)
    competition = group(sub, "competition", "a season's competition and its rules (A.1.2)")
    in_season(leaf(competition.add_parser("show", help="the competition's rules, each with its default and clause")))
    change = in_season(leaf(competition.add_parser("set", help="change rules of the competition")))
    change.add_argument("settings", nargs="+", metavar="KEY=VALUE",
                        help="e.g. innings_limit=20 win_points=3 entry_fee=500 (KEY= sets it back to its default "
                             "where it may be empty); `competition show` lists the keys")
    league_schedule.configure(sub, leaf)

def run(args, store) -> int:
    """Run a league action; a refusal is a user error with its reason."""
    from cli.commands import user_error
    from server.league.admin_fields import LeagueError

    name = f"{args.action} {args.verb}" if getattr(args, "verb", None) else args.action
    try:
        return ACTIONS[name](args, store)
    except LeagueError as exc:
        raise user_error(f"{name}: {exc}") from None


def check_season(args, store) -> None:
    """``--season`` of any ``server`` action, as the league writes it: a season the league has, or
    one with stored matches; anything else is refused naming the seasons there are (rather than an
    empty list printed for a mistyped "2026/2027")."""
    from cli.commands import user_error
    from server.league.admin_fields import LeagueError, season_name
    from server.tables.sums import all_seasons

    if getattr(args, "season", None) is None:
        return
    name = f"{args.action} {args.verb}" if getattr(args, "verb", None) else args.action
    known = sorted(all_seasons(store))
    try:
        args.season = season_name(args.season)
    except LeagueError as exc:
        raise user_error(f"{name}: {exc}") from None
    if args.season not in known:
        raise user_error(f"{name}: no season {args.season!r}; the seasons: {', '.join(known) or 'none yet (season add)'}")


def check_venue(store, venue: str | None) -> str | None:
    """``add-device --venue``: once the league has venues, a device is registered at one of them,
    under the league's spelling of it ("na  růžku" is the venue "Na Růžku", server.league.names)."""
    from cli.commands import user_error
    from server.league.names import cleaned

    if venue is None:
        return None
    names = [v["name"] for v in store.league.venues()]
    known = store.league.venue_named(venue)
    if names and known is None:
        raise user_error(f"add-device: no venue {venue!r} in the league; the venues: {', '.join(names)} "
                         "(venue add adds one)")
    return known or cleaned(venue)


def _season_add(args, store) -> int:
    if args.source is None:
        season = store.league.add_season(args.name, args.autumn, args.spring)
        print(f"season {season['name']}: {_halves(season)}; it starts empty: no teams, rosters or rules of its own "
              "(--from SEASON carries them over from a season)")
        return 0
    done = store.league.carry_over(args.name, args.source, args.competition, args.autumn, args.spring)
    print(f"season {done['season']['name']}: {_halves(done['season'])}; from {args.competition} {done['source']}: "
          f"{done['teams']} team(s), {done['players']} player(s) on their rosters, {done['rules']} rule(s) set; "
          "no fixtures, results, no-shows or postponements")
    if done["left_out"]:
        print(f"left out (expelled, A.3.7): {', '.join(done['left_out'])}")
    return 0


def _halves(season) -> str:
    (a1, a2), (s1, s2) = season["autumn"], season["spring"]
    return f"autumn {a1}..{a2}, spring {s1}..{s2}"


def _season_list(args, store) -> int:
    for season in store.league.seasons():
        print(f"{season['name']}\t{_halves(season)}")
    return 0


def _venue_add(args, store) -> int:
    from server.league.admin_fields import days_label

    venue = store.league.add_venue(args.name, args.days)
    print(f"venue {venue['name']}: open {days_label(venue['days'])}")
    return 0


def _venues(args, store) -> int:
    from server.league.admin_fields import days_label

    for venue in store.league.venues():
        print(f"{venue['name']}\t{days_label(venue['days'])}\t{', '.join(venue['devices']) or 'no device'}")
    return 0


def _team_add(args, store) -> int:
    team = store.league.add_team(args.season, args.competition, args.name, venue=args.venue, captain=args.captain,
                          phone=args.phone, days=args.days)
    print(f"team {team['name']} ({args.competition} {args.season}) at {team['venue']}, captain {team['captain']}")
    return 0


def _teams(args, store) -> int:
    from server.league.admin_fields import days_label
    from server.storage.league import DEPARTURES

    for team in store.league.teams(args.season, args.competition):
        expelled = (f"\t{DEPARTURES[team['expelled_how'] or 'no-shows']} {team['expelled'][:10]}"
                    + (f": {team['expelled_reason']}" if team["expelled_reason"] else "") if team["expelled"] else "")
        print(f"{team['name']}\t{team['venue']}\t{team['captain']} {team['phone']}\t{days_label(team['days'])}\t"
              f"{', '.join(team['players'])}{expelled}")
    return 0


def _team_edit(args, store) -> int:
    from server.league.admin_fields import days_label

    team = store.league.team(args.season, args.competition, args.name)
    team = store.league.edit_team(args.season, args.competition, team["name"],
                                  captain=team["captain"] if args.captain is None else args.captain,
                                  phone=team["phone"] if args.phone is None else args.phone,
                                  days=team["days"] if args.days is None else args.days)
    print(f"team {team['name']} ({args.competition} {args.season}): captain {team['captain']} {team['phone']}, "
          f"{days_label(team['days'])}")
    return 0


def _player_rename(args, store) -> int:
    from server.league.admin_fields import name

    store.league.rename_player(args.season, args.competition, args.team, args.name, args.new)
    print(f"{args.name} of {args.team} ({args.season}) is now {name(args.new, 'the player')}")
    return 0


def _team_withdraw(args, store) -> int:
    from server.storage.league import DEPARTURES

    done = store.departures.withdraw_team(args.season, args.competition, args.name, reason=args.reason,
                                        expel=args.expel)
    print(f"{done['team']} {DEPARTURES[done['how']]}, {args.competition} {args.season}: its {done['annulled']} "
          f"result(s) annulled, {len(done['cancelled'])} fixture(s) cancelled: {', '.join(done['cancelled']) or '-'}")
    return 0


def _team_reinstate(args, store) -> int:
    done = store.departures.reinstate_team(args.season, args.competition, args.name)
    print(f"{done['team']} is back in {args.competition} {args.season}: its results count again "
          f"({done['no_shows']} no-show(s) stay recorded, A.3.7); {len(done['scheduled'])} fixture(s) scheduled "
          f"again: {', '.join(done['scheduled']) or '-'}")
    for fixture, why in done["postponed"]:
        print(f"{fixture}: postponed, waiting for a new date (schedule move): {why}")
    return 0


def _player(args, store) -> int:
    change = store.league.add_player if args.verb == "add" else store.league.remove_player
    change(args.season, args.competition, args.team, args.name)
    print(f"{args.name} {'added to' if args.verb == 'add' else 'removed from'} {args.team} ({args.season})")
    return 0


def _competition_show(args, store) -> int:
    from server.league.competition_rules import described

    for rule in described(args.competition, store.league.rules(args.season, args.competition)):
        default = "" if rule["value"] == rule["default"] else f"\t(default {_shown(rule['default'])})"
        print(f"{rule['key']}\t{_shown(rule['value'])}\t{rule['clause']}\t{rule['label']}{default}")
    return 0


def _shown(value) -> str:
    return "-" if value in (None, "") else str(value)


def _competition_set(args, store) -> int:
    from server.league.admin_fields import LeagueError

    changes = {}
    for setting in args.settings:
        key, sep, value = setting.partition("=")
        if not sep:
            raise LeagueError(f"a rule is set as KEY=VALUE, got {setting!r}")
        changes[key.strip()] = value
    store.league.set_rules(args.season, args.competition, changes)
    print(f"{args.competition} {args.season}: " + ", ".join(f"{k} {_shown(v)}" for k, v in
                                                            store.league.rules(args.season, args.competition).items()
                                                            if k in changes))
    return 0


ACTIONS = {"season add": _season_add, "season list": _season_list, "venue add": _venue_add, "venues": _venues,
           "team add": _team_add, "team edit": _team_edit, "team withdraw": _team_withdraw,
           "team reinstate": _team_reinstate, "teams": _teams, "player add": _player,
           "player remove": _player, "player rename": _player_rename,
           "competition show": _competition_show, "competition set": _competition_set, **league_schedule.ACTIONS}
NAMES = {name.split()[0] for name in ACTIONS}

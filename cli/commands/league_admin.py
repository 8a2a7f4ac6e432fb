"""``pocitadlo server …`` subcommands that administer the league (docs/league.md):

    season add 2026/27 [--autumn F..L] [--spring F..L]     a season and its halves (A.2.1)
        [--from 2025/26 [--competition C]]                  … with the teams, rosters and rules of a season
    venue add NAME [--days po,st]                           a venue and the weekdays it is open
    venues                                                  the venues, their days and devices
    team add NAME --season S --venue V --captain C --phone P [--days po,út] [--competition carom]
    team edit NAME --season S [--captain C] [--phone P] [--days po,út]   correct a team (what is not given stays)
    teams --season S                                        the teams with captains and rosters
    player add|remove NAME --team T --season S              a roster (one team a season, A.3.4)
    player rename NAME NEW --team T --season S              correct the spelling of a name on a roster
    competition show|set --season S [KEY=VALUE …]           a competition's rules (A.1.2; defaults: the counters')
    fixture list --season S [--overdue]                     the schedule with statuses and results
                                                            (--overdue: past their day with no result)
    fixture add HOME AWAY DATE --season S [--time 17:00] [--override R]
                                                            one match added by hand (its date checked as a move's)
    schedule generate --season S [--lot L] [--replace]      draw and store it; prints what it could not honour
    schedule move FIXTURE DATE [--override R]               move a match to another day (R: despite the rules, A.3.3)
    postpone FIXTURE --team T [--to DATE] [--reason R] [--override R]
                                                            a team's postponement (at most 2 a season, A.3.3)
    no-show FIXTURE --team T [--expel]                      an unexcused no-show on or after the match's day
                                                            (forfeit; the second expels, A.3.7: --expel confirms it)
    withdraw-no-show FIXTURE                                undo a no-show recorded by mistake (not one that expelled)
    withdraw-postponement FIXTURE --team T                  undo a postponement recorded by mistake (A.3.3)
    unassigned --season S                                   league matches off the schedule (they count nowhere)
    assign MATCH FIXTURE                                    make a stored match the fixture's result (a correction)
    rule FIXTURE award|replay --reason R [--points H:A] [--to DATE [--override R]]
                                                            the ruling on an interrupted match (A.6.5), or
                                                            an irregular one (A.3.6, A.6.1: award only)

A refused change prints its reason (exit status 2) and changes nothing.
"""
CREATING = ("season", "venue")      # actions that may start a new store


def configure(sub, leaf) -> None:
    """Add the league's actions to ``sub`` (the ``server`` subparsers); ``leaf(parser)`` adds what
    every action takes (--db)."""
    season = _group(sub, "season", "seasons and their halves (A.2.1)")
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
    venue = _group(sub, "venue", "venues")
    add = leaf(venue.add_parser("add", help="add a venue, or set its opening days"))
    add.add_argument("name")
    add.add_argument("--days", default="", help="weekdays it is open for matches: po,út,st,čt,pá (default: any)")
    leaf(sub.add_parser("venues", help="the venues, their opening days and the devices registered there"))
    team = _group(sub, "team", "teams")
    add = _in_season(leaf(team.add_parser("add", help="add a team with its venue and captain (A.3.2)")))
    add.add_argument("name")
    add.add_argument("--venue", required=True, help="its home venue (venue add)")
    add.add_argument("--captain", required=True, help="the captain's name (A.3.2)")
    add.add_argument("--phone", required=True, help="the captain's phone (A.3.2)")
    add.add_argument("--days", default="", help="weekdays it asks to play on: po,út,st,čt,pá (A.2.4)")
    edit = _in_season(leaf(team.add_parser("edit", help="correct a team's captain, phone or days (what is not given "
                                                        "stays)")))
    edit.add_argument("name")
    edit.add_argument("--captain", help="the captain's name (A.3.2)")
    edit.add_argument("--phone", help="the captain's phone (A.3.2)")
    edit.add_argument("--days", help="weekdays it asks to play on: po,út,st,čt,pá (A.2.4; \"\": any)")
    _in_season(leaf(sub.add_parser("teams", help="the teams of a season, captains and rosters")))
    player = _group(sub, "player", "rosters (a player plays for one team a season, A.3.4)")
    for verb, what in (("add", "put a player on a team's roster"), ("remove", "take a player off a roster")):
        action = _in_season(leaf(player.add_parser(verb, help=what)))
        action.add_argument("name")
        action.add_argument("--team", required=True)
    rename = _in_season(leaf(player.add_parser("rename", help="correct the spelling of a name on a roster (the "
                                                            "statistics keep the names the records carry)")))
    rename.add_argument("name")
    rename.add_argument("new")
    rename.add_argument("--team", required=True)
    competition = _group(sub, "competition", "a season's competition and its rules (A.1.2)")
    _in_season(leaf(competition.add_parser("show", help="the competition's rules, each with its default and clause")))
    change = _in_season(leaf(competition.add_parser("set", help="change rules of the competition")))
    change.add_argument("settings", nargs="+", metavar="KEY=VALUE",
                        help="e.g. innings_limit=20 win_points=3 entry_fee=500 (KEY= sets it back to its default "
                             "where it may be empty); `competition show` lists the keys")
    fixture = _group(sub, "fixture", "fixtures")
    listing = _in_season(leaf(fixture.add_parser("list", help="the schedule: date, start, teams, venue, status, "
                                                              "result")))
    listing.add_argument("--overdue", action="store_true",
                         help="only the matches whose day has passed with no result, postponement, no-show or "
                              "cancellation: chase the result, record a no-show or move them")
    add = _in_season(leaf(fixture.add_parser("add", help="add one match by hand (a team admitted late); its date "
                                                         "checked as schedule move checks one")))
    add.add_argument("home")
    add.add_argument("away")
    add.add_argument("date", help="YYYY-MM-DD")
    add.add_argument("--time", default="17:00", help="its start (default 17:00, A.2.2)")
    _override(add)
    schedule = _group(sub, "schedule", "the schedule (A.2.2-A.2.5)")
    generate = _in_season(leaf(schedule.add_parser("generate", help="draw the double round robin and store it")))
    generate.add_argument("--replace", action="store_true", help="draw again a schedule not yet begun")
    generate.add_argument("--lot", help="the lot that orders the teams (A.2.3; default: \"SEASON COMPETITION\"); "
                                        "publish it, the same lot gives the same schedule")
    move = leaf(schedule.add_parser("move", help="move a match to another working day"))
    move.add_argument("fixture")
    move.add_argument("date", help="YYYY-MM-DD")
    _override(move)
    postpone = leaf(sub.add_parser("postpone", help="a team's postponement of a match (at most 2 a season, A.3.3)"))
    postpone.add_argument("fixture")
    postpone.add_argument("--team", required=True, help="the team that asks")
    postpone.add_argument("--to", help="the new date (default: postponed until `schedule move`)")
    postpone.add_argument("--reason", default="")
    _override(postpone)
    no_show = leaf(sub.add_parser("no-show", help="a team did not turn up (forfeit; the second expels it, A.3.7)"))
    no_show.add_argument("fixture")
    no_show.add_argument("--team", required=True, help="the team that did not turn up")
    no_show.add_argument("--expel", action="store_true", help="confirm that this no-show expels the team (A.3.7): "
                                                              "its results annulled, its fixtures cancelled, for good")
    withdraw = leaf(sub.add_parser("withdraw-no-show", help="undo a no-show recorded by mistake (not one that "
                                                            "expelled the team)"))
    withdraw.add_argument("fixture")
    withdraw = leaf(sub.add_parser("withdraw-postponement", help="undo a postponement recorded by mistake (it no "
                                                                 "longer counts against the team's allowance, A.3.3)"))
    withdraw.add_argument("fixture")
    withdraw.add_argument("--team", required=True, help="the team whose postponement it was")
    _in_season(leaf(sub.add_parser("unassigned", help="matches of two league teams off the schedule (count nowhere)")))
    assign = leaf(sub.add_parser("assign", help="make a stored match a fixture's result (replacing the one before)"))
    assign.add_argument("match")
    assign.add_argument("fixture")
    rule = leaf(sub.add_parser("rule", help="rule on an interrupted match (A.6.5): award it, or replay the rest; "
                                            "on an irregular one (A.3.6, A.6.1): award it"))
    rule.add_argument("fixture")
    rule.add_argument("kind", choices=("award", "replay"))
    rule.add_argument("--reason", required=True)
    rule.add_argument("--points", help="award: the team points HOME:AWAY, e.g. 6:2")
    rule.add_argument("--to", help="replay: the date the rest is played on")
    _override(rule)


def _group(sub, name: str, what: str):
    parser = sub.add_parser(name, help=what)
    return parser.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=type(parser))


def _in_season(parser):
    parser.add_argument("--season", required=True, help="like 2026/27")
    parser.add_argument("--competition", choices=("carom", "8ball"), default="carom")
    return parser


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


def _override(parser) -> None:
    parser.add_argument("--override", metavar="REASON", help="the organiser's reason to take a date the rules refuse "
                                                             "(past, busy, outside the half: A.3.3); the schedule shows it")


def _teams(args, store) -> int:
    from server.league.admin_fields import days_label

    for team in store.league.teams(args.season, args.competition):
        expelled = f"\texpelled {team['expelled'][:10]}" if team["expelled"] else ""
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


def _fixture_list(args, store) -> int:
    listed = (store.fixtures.overdue if args.overdue else store.fixtures.of)(args.season, args.competition)
    if args.overdue and not listed:
        print(f"no {args.competition} {args.season} fixture is overdue (today is {store.clock.today().isoformat()})")
    for f in listed:
        result = f"{f['points_home']}:{f['points_away']}" if f["points_home"] is not None else "-"
        notes = [f"override: {f['override']}"] if f["override"] else []
        if f["forfeited_to"]:
            notes.append(f"forfeited to {f['forfeited_to']}")
        print("\t".join((f["id"], f["date"], f["start"], f["home"], f["away"], f["venue"], f["status"], result, *notes)))
    return 0


def _fixture_add(args, store) -> int:
    fixture = store.fixtures.add(args.season, args.competition, args.home, args.away, args.date, start=args.time,
                                 override=args.override)
    print(f"added {fixture['id']} ({fixture['home']} – {fixture['away']}) on {fixture['date']} {fixture['start']} at "
          f"{fixture['venue']}, round {fixture['round']}" + _overridden(fixture))
    return 0


def _overridden(fixture: dict) -> str:
    return f" (override: {fixture['override']})" if fixture["override"] else ""


def _generate(args, store) -> int:
    plan = store.fixtures.generate(args.season, args.competition, lot=args.lot, replace=args.replace)
    print(f"stored {plan['fixtures']} fixtures of {args.competition} {args.season} (lot {plan['lot']!r})")
    for sentence in plan["unmet"]:
        print(f"not honoured: {sentence}")
    for sentence in plan["short"]:
        print(f"warning: {sentence}")
    return 0


def _move(args, store) -> int:
    fixture = store.fixtures.move(args.fixture, args.date, override=args.override)
    print(f"{fixture['id']} ({fixture['home']} – {fixture['away']}) now on {fixture['date']} {fixture['start']}"
          + _overridden(fixture))
    return 0


def _postpone(args, store) -> int:
    done = store.fixtures.postpone(args.fixture, args.team, to=args.to, reason=args.reason, override=args.override)
    fixture = done["fixture"]
    when = f"moved to {fixture['date']}" if fixture["status"] == "scheduled" else "postponed (schedule move sets its date)"
    print(f"{fixture['id']} {when}; {args.team} has {done['left']} postponement(s) left this season (A.3.3)")
    return 0


def _no_show(args, store) -> int:
    done = store.fixtures.no_show(args.fixture, args.team, expel=args.expel)
    print(f"{done['fixture']}: forfeited to {done['forfeited_to']} ({args.team}'s no-show {done['no_shows']})")
    if done["expelled"]:
        print(f"{args.team} is expelled (A.3.7): its results are annulled, {len(done['cancelled'])} fixture(s) "
              f"cancelled: {', '.join(done['cancelled']) or '-'}")
    return 0


def _withdraw_no_show(args, store) -> int:
    fixture = store.fixtures.withdraw_no_show(args.fixture)
    print(f"{fixture['id']}: no-show withdrawn; {fixture['status']} on {fixture['date']} {fixture['start']}")
    return 0


def _withdraw_postponement(args, store) -> int:
    done = store.fixtures.withdraw_postponement(args.fixture, args.team)
    fixture = done["fixture"]
    when = (f"{fixture['status']} on {fixture['date']} {fixture['start']}" if fixture["status"] != "postponed"
            else "still postponed until schedule move gives it a date")
    kept = f" (its earlier date is not back: {done['kept']})" if done["kept"] else ""
    print(f"{fixture['id']}: {args.team}'s postponement withdrawn (A.3.3); {when}{kept}")
    return 0


def _unassigned(args, store) -> int:
    for m in store.fixtures.unassigned(args.season, args.competition):
        print("\t".join((m["match"], m["date"] or "-", m["home"], m["away"], m["venue"] or "-",
                         f"{m['points_home']}:{m['points_away']}")))
    return 0


def _assign(args, store) -> int:
    done = store.fixtures.assign(args.match, args.fixture)
    replaced = f" (replacing {', '.join(done['replaced'])})" if done["replaced"] else ""
    print(f"{done['match']} is the result of {done['fixture']}{replaced}")
    return 0


def _rule(args, store) -> int:
    from server.league.irregular import ruled_under

    fixture = store.fixtures.rule(args.fixture, args.kind, to=args.to, points=args.points, reason=args.reason,
                                  override=args.override)
    ruling = fixture["ruling"]
    what = (f"awarded {ruling['points_home']}:{ruling['points_away']}" if ruling["kind"] == "award"
            else f"the rest replayed on {fixture['date']}")
    print(f"{fixture['id']} ({fixture['home']} – {fixture['away']}): {what} ({ruled_under(fixture)})")
    return 0


ACTIONS = {"season add": _season_add, "season list": _season_list, "venue add": _venue_add, "venues": _venues,
           "team add": _team_add, "team edit": _team_edit, "teams": _teams, "player add": _player,
           "player remove": _player, "player rename": _player_rename, "withdraw-postponement": _withdraw_postponement,
           "competition show": _competition_show, "competition set": _competition_set,
           "fixture list": _fixture_list, "fixture add": _fixture_add, "schedule generate": _generate, "schedule move": _move,
           "postpone": _postpone, "no-show": _no_show, "withdraw-no-show": _withdraw_no_show,
           "unassigned": _unassigned, "assign": _assign,
           "rule": _rule}
NAMES = {name.split()[0] for name in ACTIONS}

"""``pocitadlo server …`` subcommands on the league's schedule (docs/league.md "Command line"):

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

A refused change prints its reason (exit status 2) and changes nothing (league_admin.run).
"""
from cli.commands.league_args import group, in_season


def configure(sub, leaf) -> None:
    """Add the schedule's actions to ``sub`` (the ``server`` subparsers); ``leaf(parser)`` adds what
    every action takes (--db)."""
    fixture = group(sub, "fixture", "fixtures")
    listing = in_season(leaf(fixture.add_parser("list", help="the schedule: date, start, teams, venue, status, "
                                                             "result")))
    listing.add_argument("--overdue", action="store_true",
                         help="only the matches whose day has passed with no result, postponement, no-show or "
                              "cancellation: chase the result, record a no-show or move them")
    add = in_season(leaf(fixture.add_parser("add", help="add one match by hand (a team admitted late); its date "
                                                        "checked as schedule move checks one")))
    add.add_argument("home")
    add.add_argument("away")
    add.add_argument("date", help="YYYY-MM-DD")
    add.add_argument("--time", default="17:00", help="its start (default 17:00, A.2.2)")
    _override(add)
    schedule = group(sub, "schedule", "the schedule (A.2.2-A.2.5)")
    generate = in_season(leaf(schedule.add_parser("generate", help="draw the double round robin and store it")))
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
    in_season(leaf(sub.add_parser("unassigned", help="matches of two league teams off the schedule (count nowhere)")))
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


def _override(parser) -> None:
    parser.add_argument("--override", metavar="REASON", help="the organiser's reason to take a date the rules refuse "
                                                             "(past, busy, outside the half: A.3.3); the schedule shows it")


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
    done = store.departures.no_show(args.fixture, args.team, expel=args.expel)
    print(f"{done['fixture']}: forfeited to {done['forfeited_to']} ({args.team}'s no-show {done['no_shows']})")
    if done["expelled"]:
        print(f"{args.team} is expelled (A.3.7): its results are annulled, {len(done['cancelled'])} fixture(s) "
              f"cancelled: {', '.join(done['cancelled']) or '-'}")
    return 0


def _withdraw_no_show(args, store) -> int:
    fixture = store.departures.withdraw_no_show(args.fixture)
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
    for m in store.results.unassigned(args.season, args.competition):
        print("\t".join((m["match"], m["date"] or "-", m["home"], m["away"], m["venue"] or "-",
                         f"{m['points_home']}:{m['points_away']}")))
    return 0


def _assign(args, store) -> int:
    done = store.results.assign(args.match, args.fixture)
    replaced = f" (replacing {', '.join(done['replaced'])})" if done["replaced"] else ""
    print(f"{done['match']} is the result of {done['fixture']}{replaced}")
    return 0


def _rule(args, store) -> int:
    from server.league.irregular import ruled_under

    fixture = store.results.rule(args.fixture, args.kind, to=args.to, points=args.points, reason=args.reason,
                                  override=args.override)
    ruling = fixture["ruling"]
    what = (f"awarded {ruling['points_home']}:{ruling['points_away']}" if ruling["kind"] == "award"
            else f"the rest replayed on {fixture['date']}")
    print(f"{fixture['id']} ({fixture['home']} – {fixture['away']}): {what} ({ruled_under(fixture)})")
    return 0


ACTIONS = {"fixture list": _fixture_list, "fixture add": _fixture_add, "schedule generate": _generate,
           "schedule move": _move, "postpone": _postpone, "no-show": _no_show, "withdraw-no-show": _withdraw_no_show,
           "withdraw-postponement": _withdraw_postponement, "unassigned": _unassigned, "assign": _assign,
           "rule": _rule}

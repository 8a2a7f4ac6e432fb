"""The league's web admin (docs/league.md "Web admin"): a login with the admin token, then one page
with the league's seasons, venues, teams, rosters and fixtures and the forms that change them.

    GET  /admin/login, POST /admin/login     the login form (the admin token)
    POST /admin/logout                        end the session
    GET  /admin?season=…&competition=…        the league and its forms
    POST /admin/<action>                      season, venue, team, rules, player-add, player-remove,
                                              generate, move, postpone, no-show, assign, rule

Every POST carries the session's CSRF token (server.site.admin_session); a refused change is answered
400 with its reason on the page, and changes nothing. Store calls run in the thread pool.
"""
from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Route

from server.league import admin_fields as fields
from server.league import competition_rules
from server.league.admin_fields import LeagueError
from server.league.errors import Refused
from server.site.admin_session import COOKIE, FormRefused, Sessions, read_form, token_matches
from server.site.answers import log_refusal, remote, too_many
from server.site.pages import render
from server.site.schedule_web import STATUSES, page
from server.tables import figures


def routes(admin_token: str | None, clock) -> list[Route]:
    sessions = Sessions(clock)
    return [Route("/admin/login", _login_page(sessions), methods=["GET"]),
            Route("/admin/login", _login(sessions, admin_token), methods=["POST"]),
            Route("/admin/logout", _logout(sessions), methods=["POST"]),
            Route("/admin", _dashboard(sessions), methods=["GET"]),
            Route("/admin/{action}", _change(sessions), methods=["POST"])]


def _refused(reason: str, status: int) -> HTMLResponse:
    return page(render("admin_refused.html", title="Správa ligy", reason=reason), status)


def _secure(request) -> bool:
    return request.url.scheme == "https"


def _session(sessions, request) -> dict | None:
    return sessions.get(request.cookies.get(COOKIE))


def _login_page(sessions):
    async def endpoint(request):
        session = _session(sessions, request)
        if session and session["admin"]:
            return RedirectResponse("/admin", status_code=303)
        return _login_answer(sessions, request, session or sessions.new(admin=False))
    return endpoint


def _login_answer(sessions, request, session, error: str | None = None, status: int = 200):
    answer = page(render("admin_login.html", title="Správa ligy: přihlášení", csrf=session["csrf"], error=error),
                  status)
    sessions.set_cookie(answer, session, secure=_secure(request))
    return answer


def _login(sessions, admin_token):
    async def endpoint(request):
        limiter, client = request.app.state.limiter, remote(request)
        if not limiter.allow(client):
            return too_many(limiter)
        session = _session(sessions, request)
        store = request.app.state.receiver.store
        try:
            form = await read_form(request, session)
        except FormRefused as exc:
            await run_in_threadpool(log_refusal, store, Refused(exc.status, str(exc)), via="http-admin",
                                    what="a login", remote=client)
            return _login_answer(sessions, request, sessions.new(admin=False), str(exc), exc.status)
        if not token_matches(admin_token, form.get("token", "")):
            reason = ("the admin token is not right" if admin_token else
                      "the web admin is off (serve --admin-token-file turns it on)")
            await run_in_threadpool(log_refusal, store, Refused(401, reason), via="http-admin", what="a login",
                                    remote=client)
            return _login_answer(sessions, request, session, reason, 401)
        answer = RedirectResponse("/admin", status_code=303)
        sessions.set_cookie(answer, sessions.logged_in(session), secure=_secure(request))    # a new CSRF token
        return answer
    return endpoint


def _logout(sessions):
    async def endpoint(request):
        session = _session(sessions, request)
        try:
            await read_form(request, session)
        except FormRefused as exc:
            return _refused(str(exc), exc.status)
        sessions.end(session)           # its cookie, wherever copied, opens nothing now
        answer = RedirectResponse("/admin/login", status_code=303)
        sessions.set_cookie(answer, None, secure=_secure(request))
        return answer
    return endpoint


def _dashboard(sessions):
    async def endpoint(request):
        session = _session(sessions, request)
        if not session or not session["admin"]:
            return RedirectResponse("/admin/login", status_code=303)
        store = request.app.state.receiver.store
        context = {"season": request.query_params.get("season", ""),
                   "competition": request.query_params.get("competition", "carom")}
        return page(await run_in_threadpool(_page, store, session, context))
    return endpoint


def _change(sessions):
    async def endpoint(request):
        session = _session(sessions, request)
        action = ACTIONS.get(request.path_params["action"])
        if action is None:
            return _refused("no such admin action", 404)
        if not session or not session["admin"]:
            return RedirectResponse("/admin/login", status_code=303)
        try:
            form = await read_form(request, session)
        except FormRefused as exc:
            return _refused(str(exc), exc.status)
        store = request.app.state.receiver.store
        context = {"season": form.get("season", ""), "competition": form.get("competition", "carom")}
        try:
            done = await run_in_threadpool(settled, action, store, form)
        except LeagueError as exc:
            return page(await run_in_threadpool(_page, store, session, context, None, str(exc)), 400)
        return page(await run_in_threadpool(_page, store, session, context, done))
    return endpoint


def settled(action, store, form):
    """An admin change, once the figures of every item answered before are computed (it may read
    them: a no-show refused for a fixture already played, A.3.7); then the figures it made due (an
    expulsion's annulled matches, a rule's team points)."""
    figures.settle(store)
    done = action(store, form)
    figures.settle(store)
    return done


def _page(store, session, context, done: str | None = None, error: str | None = None) -> str:
    figures.settle(store)       # the fixtures' results: every item answered before included
    seasons = store.league.seasons()
    names = [s["name"] for s in seasons]
    season = context["season"] if context["season"] in names else (names[-1] if names else "")
    competition = context["competition"] if context["competition"] in fields.COMPETITIONS else "carom"
    teams = store.league.teams(season, competition) if season else []
    fixtures = store.fixtures.of(season, competition) if season else []
    for f in fixtures:
        f["status_text"] = STATUSES.get(f["status"], f["status"])
    rules = competition_rules.described(competition, store.league.rules(season, competition)) if season else []
    # issue 22: what the organiser must look at: short rosters (A.3.1), matches off the schedule
    warnings = store.league.short_rosters(season, competition) if season else []
    unassigned = store.fixtures.unassigned(season, competition) if season else []
    flagged = store.figures.flagged(competition, season) if season else []
    return render("admin.html", title="Správa ligy", csrf=session["csrf"], done=done, error=error,
                  seasons=seasons, season=season, competition=competition, competitions=store.league.competitions(),
                  rules=rules, warnings=warnings, unassigned=unassigned, flagged=flagged,
                  venues=[dict(v, days_text=fields.days_label(v["days"])) for v in store.league.venues()],
                  teams=teams, fixtures=fixtures, weekdays=fields.WEEKDAYS)


def _field(form: dict, name: str, what: str) -> str:
    value = form.get(name, "")
    if not value.strip():
        raise LeagueError(f"{what} must not be empty")
    return value


def _days(form: dict) -> str:
    """The weekdays ticked (checkboxes day0 … day4), as "0,2"."""
    return ",".join(str(n) for n in range(len(fields.WEEKDAYS)) if form.get(f"day{n}"))


def _season(store, form) -> str:
    season = store.league.add_season(_field(form, "name", "the season"), form.get("autumn") or None,
                              form.get("spring") or None)
    return f"Sezóna {season['name']} přidána."


def _venue(store, form) -> str:
    venue = store.league.add_venue(_field(form, "name", "the venue"), _days(form))
    return f"Herna {venue['name']} uložena."


def _team(store, form) -> str:
    team = store.league.add_team(form.get("season", ""), form.get("competition", ""), _field(form, "name", "the team"),
                          venue=form.get("venue", ""), captain=form.get("captain", ""), phone=form.get("phone", ""),
                          days=_days(form))
    return f"Družstvo {team['name']} přidáno."


def _player(add: bool):
    def change(store, form) -> str:
        name = fields.text(form.get("name", ""), "the player")
        team = _field(form, "team", "the team")
        (store.league.add_player if add else store.league.remove_player)(form.get("season", ""), form.get("competition", ""),
                                                           team, name)
        return f"{name}: {'přidán do' if add else 'odebrán z'} {team}."
    return change


def _rules(store, form) -> str:
    """The competition's rules (A.1.2): every field of the form (rule_KEY) as the organiser left it."""
    competition = fields.competition(form.get("competition", ""))
    changes = {s.key: form[f"rule_{s.key}"] for s in competition_rules.settings(competition)
               if f"rule_{s.key}" in form}
    store.league.set_rules(form.get("season", ""), competition, changes)
    return f"Pravidla soutěže {competition} {form.get('season', '')} uložena."


def _generate(store, form) -> str:
    plan = store.fixtures.generate(form.get("season", ""), form.get("competition", ""), lot=form.get("lot") or None,
                                   replace=bool(form.get("replace")))
    unmet = "".join(f" Nevyhověno: {sentence}" for sentence in plan["unmet"])
    short = "".join(f" Upozornění: {sentence}" for sentence in plan["short"])
    return f"Rozlosováno {plan['fixtures']} utkání (los „{plan['lot']}“).{unmet}{short}"


def _move(store, form) -> str:
    fixture = store.fixtures.move(_field(form, "fixture", "the fixture"), form.get("date", ""),
                                  override=form.get("override") or None)
    noted = f" Výjimka: {fixture['override']}" if fixture["override"] else ""
    return f"Utkání {fixture['home']} – {fixture['away']} přesunuto na {fixture['date']}.{noted}"


def _postpone(store, form) -> str:
    done = store.fixtures.postpone(_field(form, "fixture", "the fixture"), form.get("team", ""), to=form.get("date") or None,
                          reason=form.get("reason", ""), override=form.get("override") or None)
    return f"Utkání {done['fixture']['id']} odloženo; {form.get('team')}: zbývá odkladů {done['left']} (A.3.3)."


def _no_show(store, form) -> str:
    done = store.fixtures.no_show(_field(form, "fixture", "the fixture"), form.get("team", ""))
    text = f"Utkání {done['fixture']} kontumováno ve prospěch {done['forfeited_to']}."
    if done["expelled"]:
        text += f" {form.get('team')} vyřazen ze soutěže (A.3.7), zrušeno utkání: {len(done['cancelled'])}."
    return text


def _assign(store, form) -> str:
    done = store.fixtures.assign(_field(form, "match", "the match"), _field(form, "fixture", "the fixture"))
    replaced = f" (místo {', '.join(done['replaced'])})" if done["replaced"] else ""
    return f"Utkání {done['match']} je výsledkem {done['fixture']}{replaced}."


def _rule(store, form) -> str:
    """The organiser's ruling on an interrupted match (A.6.5): award it, or replay the rest."""
    fixture = store.fixtures.rule(_field(form, "fixture", "the fixture"), form.get("kind", ""),
                                  to=form.get("date") or None, points=form.get("points") or None,
                                  reason=form.get("reason", ""), override=form.get("override") or None)
    ruling = fixture["ruling"]
    what = (f"kontumováno {ruling['points_home']} : {ruling['points_away']}" if ruling["kind"] == "award"
            else f"zbytek se dohraje {fixture['date']}")
    return f"Utkání {fixture['home']} – {fixture['away']}: {what} (A.6.5)."


ACTIONS = {"season": _season, "venue": _venue, "team": _team, "rules": _rules, "player-add": _player(True),
           "player-remove": _player(False), "generate": _generate, "move": _move, "postpone": _postpone,
           "no-show": _no_show, "assign": _assign, "rule": _rule}

"""The league's web admin (docs/league.md "Web admin"): a login with the admin token, then the
league's seasons, venues, teams, rosters and fixtures and the forms that change them.

    GET  /admin/login, POST /admin/login     the login form (the admin token)
    POST /admin/logout                        end the session
    GET  /admin?season=…&competition=…        the league and its forms
    GET  /admin/venue?name=…                  a venue's form, showing its opening days; its devices, each
                                              with its removal
    GET  /admin/fixture?id=…                  a fixture's forms: move, postpone, no-show (its two teams),
                                              withdraw a postponement or a no-show made by mistake, rule on an
                                              interrupted match (A.6.5)
    GET  /admin/team?season=…&competition=…&team=…   a team's captain, phone and days; its roster; its
                                              withdrawal or expulsion by decision, its reinstatement
    GET  /admin/audit                         the audit log: who changed what, when (newest first)
    POST /admin/<action>                      season, venue, team, team-edit, team-withdraw,
                                              team-reinstate, rules, player-add,
                                              player-rename, player-remove, generate, fixture-add, move, postpone,
                                              postponement-delete, no-show, no-show-delete, rule,
                                              assign, device-remove

Every POST carries the session's CSRF token (server.site.admin_session). A change done is answered
with a redirect to the page it was made on (Post/Redirect/Get: reloading that page repeats
nothing), which says what was done: the text rides in the address sealed with the session's CSRF
token, so no link from elsewhere can make the admin say anything. A refused change is answered 400
with its reason on the same page, the form showing what was sent; it changes nothing.
A deletion needs its form's box ticked ("confirm"). Each change done is kept in the audit log in
the same transaction (server/storage/audit.py): both or neither; in Czech, the league's language.
Store calls run in the thread pool.

Every page, refusal and "done" text is Czech, or English for an organiser who chose it (the
``lang`` cookie of server/site/language.py, its switch in the header): the texts are the msgids of
the site's one catalog, pages.po; a store's refusal is its English text or its Czech one from
site.po (server/site/words.py ``said``).
"""
import base64
import binascii
import hashlib
import hmac
from collections import defaultdict
from urllib.parse import parse_qsl, quote, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.responses import RedirectResponse
from starlette.routing import Route

from server.league import admin_fields as fields
from server.league import competition_rules
from server.league.admin_fields import LeagueError
from server.league.errors import Refused
from server.league.irregular import ruled_under
from server.site import chrome, czech, language, links, pages, words
from server.site.admin_session import COOKIE, FormRefused, Sessions, read_form, token_matches
from server.site.answers import html_page as page
from server.site.answers import log_refusal, remote, too_many
from server.site.language import N_, say
from server.site.pages import render
from server.site.schedule_web import departure_word, override_text, status_word
from server.tables import figures

MAX_DONE = 600        # characters of a sealed "done" text
BACK = ((N_("Zpět do správy ligy"), "/admin"),)


def routes(admin_token: str | None, clock) -> list[Route]:
    sessions = Sessions(clock)
    return [Route("/admin/login", _spoken(_login_page(sessions)), methods=["GET"]),
            Route("/admin/login", _spoken(_login(sessions, admin_token)), methods=["POST"]),
            Route("/admin/logout", _spoken(_logout(sessions)), methods=["POST"]),
            Route("/admin", _spoken(_view(sessions, _dashboard)), methods=["GET"]),
            Route("/admin/venue", _spoken(_view(sessions, _venue_page)), methods=["GET"]),
            Route("/admin/fixture", _spoken(_view(sessions, _fixture_page)), methods=["GET"]),
            Route("/admin/team", _spoken(_view(sessions, _team_page)), methods=["GET"]),
            Route("/admin/audit", _spoken(_view(sessions, _audit_page)), methods=["GET"]),
            Route("/admin/{action}", _spoken(_change(sessions)), methods=["POST"])]


def _spoken(endpoint):
    """``endpoint`` answered in the organiser's language (server/site/language.py)."""
    async def answered(request):
        with language.reading(language.chosen(request.scope), _address(request)):
            return await endpoint(request)
    return answered


def _address(request) -> str:
    """Where the language switch leads back to: the page without the "done" it says (said once);
    from a form's answer, the login form or the front page (a refused change: its form's page)."""
    if request.method != "GET":
        return "/admin/login" if request.url.path == "/admin/login" else "/admin"
    kept = [(k, v) for k, v in parse_qsl(request.url.query, keep_blank_values=True) if k != "done"]
    return quote(request.url.path) + ("?" + urlencode(kept) if kept else "")


def _refused(reason, status: int):
    return page(pages.error(status, chrome.admin_frame(""), words.said(reason), title=say("Správa ligy: odmítnuto"),
                            back=BACK), status)


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
    answer = page(render("admin_login.html", frame=chrome.admin_frame(""), title=say("Správa ligy: přihlášení"),
                         csrf=session["csrf"], error=words.said(error) if error else None), status)
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


# -- what a change done says, sealed in the address it redirects to ---------------------------
def seal(text: str, session: dict) -> str:
    data = base64.urlsafe_b64encode(text[:MAX_DONE].encode()).decode().rstrip("=")
    return f"{data}.{_mac(data, session)}"


def unseal(value: str | None, session: dict) -> str | None:
    """The text a redirect of this session sealed; None for anything else."""
    if not value or "." not in value or len(value) > 4 * MAX_DONE:
        return None
    data, mac = value.rsplit(".", 1)
    if not hmac.compare_digest(mac, _mac(data, session)):
        return None
    try:
        return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None


def _mac(data: str, session: dict) -> str:
    return hmac.new(session["csrf"].encode(), b"done:" + data.encode(), hashlib.sha256).hexdigest()[:32]


# -- the pages ----------------------------------------------------------------------------------
def _view(sessions, build):
    """A GET page of the admin: logged in, built in the thread pool from the query's fields."""
    async def endpoint(request):
        session = _session(sessions, request)
        if not session or not session["admin"]:
            return RedirectResponse("/admin/login", status_code=303)
        fields_ = dict(request.query_params)
        done = unseal(fields_.pop("done", None), session)
        store = request.app.state.receiver.store
        try:
            text = await run_in_threadpool(build, store, session, fields_, done=done)
        except LeagueError as exc:
            return _refused(exc, 404)
        return page(text)
    return endpoint


def _context(store, asked: dict) -> tuple[str, str]:
    names = [s["name"] for s in store.league.seasons()]
    season = asked.get("season", "")
    season = season if season in names else (names[-1] if names else "")
    competition = asked.get("competition", "carom")
    return season, competition if competition in fields.COMPETITIONS else "carom"


def _sent(form: dict | None):
    return defaultdict(str, form or {})


def _ticked(form: dict) -> tuple[int, ...]:
    return tuple(n for n in range(len(fields.WEEKDAYS)) if form.get(f"day{n}"))


def _dashboard(store, session, asked: dict, *, done=None, error=None, action=None, sent=None) -> str:
    figures.settle(store)       # the fixtures' results: every item answered before included
    season, competition = _context(store, asked)
    teams = store.league.teams(season, competition) if season else []
    fixtures = store.fixtures.of(season, competition) if season else []
    for f in fixtures:
        f["status_text"] = _status(f)
        f["when"] = czech.fixture_time(f["date"], f["start"])
    for t in teams:
        t["days_text"] = czech.weekdays(t["days"])
    venues = [dict(v, days_text=czech.weekdays(v["days"])) for v in store.league.venues()]
    rules = competition_rules.described(competition, store.league.rules(season, competition)) if season else []
    rules = [dict(r, label=language.gettext(r["label"])) for r in rules]        # the league's Czech labels
    if sent and action == "rules":
        rules = [dict(r, value=sent.get(f"rule_{r['key']}", r["value"])) for r in rules]
    # issue 22: what the organiser must look at: short rosters (A.3.1), league matches off the
    # schedule (not counted until assigned), partie played by names on neither roster (A.3.4)
    warnings = [words.said(w) for w in store.league.short_rosters(season, competition)] if season else []
    unassigned = store.results.unassigned(season, competition) if season else []
    overdue = [dict(f, title=czech.match_name(f["home"], f["away"], f["date"])) for f in store.fixtures.overdue()]
    flagged = store.figures.flagged(competition, season) if season else []
    for m in unassigned + flagged:
        m["title"] = czech.match_name(m["home"], m["away"], m["date"])
    for m in flagged:
        m.setdefault("unrostered", [])
        m["irregular"] = [pages.irregular_text(entry, m) for entry in m.get("irregular", [])]
    return render("admin.html", frame=chrome.admin_frame(), title=say("Správa ligy"), csrf=session["csrf"], done=done,
                  error=error, action=action, sent=_sent(sent), sent_days=_ticked(sent or {}),
                  seasons=store.league.seasons(), season=season, competition=competition, competitions=store.league.competitions(),
                  venues=venues, venue_options=[(v["name"], v["name"]) for v in venues], teams=teams,
                  team_options=[(t["name"], t["name"]) for t in teams if not t["expelled"]],
                  fixtures=fixtures, weekdays=czech.weekday_names()[:len(fields.WEEKDAYS)],
                  rules=rules, warnings=warnings, unassigned=unassigned, flagged=flagged, overdue=overdue,
                  match_options=[(m["match"], f"{m['title']} ({m['match']})") for m in unassigned],
                  fixture_options=[(f["id"], czech.match_name(f["home"], f["away"], f["date"])) for f in fixtures
                                   if f["status"] != "cancelled"])


def _status(fixture: dict) -> str:
    """What became of a fixture, as the admin lists it: its status, for whom a forfeit counts, the
    organiser's override of a refused date (A.3.3)."""
    text = status_word(fixture)
    if fixture.get("forfeited_to"):
        text += say(" ve prospěch družstva {team}", team=fixture["forfeited_to"])
    if fixture.get("override"):
        text += say("; výjimka: {override}", override=override_text(fixture["override"]))
    return text


def _venue_page(store, session, asked: dict, *, done=None, error=None, action=None, sent=None) -> str:
    name = asked.get("name", "")
    venue = next((v for v in store.league.venues() if v["name"] == name), None)
    if venue is None:
        raise LeagueError(f"no venue {name[:100]!r}")
    checked = _ticked(sent) if sent and action == "venue" else tuple(sorted(fields.days(venue["days"])))
    return render("admin_venue.html", frame=chrome.admin_frame(""), title=say("Herna: {name}", name=venue["name"]),
                  csrf=session["csrf"], done=done, error=error, venue=venue, checked=checked,
                  weekdays=czech.weekday_names()[:len(fields.WEEKDAYS)])


def _fixture_page(store, session, asked: dict, *, done=None, error=None, action=None, sent=None) -> str:
    figures.settle(store)
    fixture = store.fixtures.get(asked.get("id", "") or asked.get("fixture", ""))
    sides = [(fixture[side], fixture[side]) for side in ("home", "away")]
    allowance, postponed = [], []
    for team in (fixture["home"], fixture["away"]):
        asked = store.fixtures.postponements(fixture["season"], fixture["competition"], team)
        allowance.append(say("{team} odložilo {n}×", team=team, n=len(asked)))
        postponed += [{"team": team, "text": say("na žádost družstva {team} {at}, původně {was}", team=team,
                                                 at=czech.moment(p["at"]), was=czech.day(p["was"], year=True))
                       + (f": {p['reason']}" if p["reason"] else "")}
                      for p in asked if p["fixture"] == fixture["id"]]
    back = "/admin?" + urlencode({"season": fixture["season"], "competition": fixture["competition"]})
    return render("admin_fixture.html", frame=chrome.admin_frame(""),
                  title=say("Utkání {match}", match=czech.match_name(fixture["home"], fixture["away"], fixture["date"])),
                  csrf=session["csrf"], done=done, error=error, action=action, sent=_sent(sent), fixture=fixture,
                  sides=sides, allowance=allowance, back=back, postponements=postponed,
                  league=store.league.competitions().get(fixture["competition"], fixture["competition"]),
                  when=czech.fixture_time(fixture["date"], fixture["start"]), status=_status(fixture),
                  interruption=_interruption(fixture))


def _interruption(fixture: dict) -> dict | None:
    """A match awaiting the organiser's ruling, interrupted (A.6.5) or irregular (A.3.6, A.6.1):
    the points of the partie played, its zápis (which says why and when it stopped), what it broke."""
    if fixture["status"] not in ("interrupted", "irregular") or not fixture["match"]:
        return None
    return {"points": f"{fixture['points_home']} : {fixture['points_away']}",
            "href": links.match_href(fixture["match"]),
            "irregular": [pages.irregular_text(entry, fixture) for entry in fixture["irregular"]],
            "clauses": ruled_under(fixture)}


def _team_page(store, session, asked: dict, *, done=None, error=None, action=None, sent=None) -> str:
    team = store.league.team(asked.get("season", ""), asked.get("competition", ""), asked.get("team", ""))
    checked = _ticked(sent) if sent and action == "team-edit" else tuple(sorted(fields.days(team["days"])))
    values = dict(team, **{k: sent[k] for k in ("captain", "phone") if sent and action == "team-edit" and k in sent})
    back = "/admin?" + urlencode({"season": team["season"], "competition": team["competition"]})
    return render("admin_team.html", frame=chrome.admin_frame(""), title=say("Družstvo: {name}", name=team["name"]),
                  csrf=session["csrf"], done=done, error=error, action=action, sent=_sent(sent), team=values,
                  checked=checked, back=back, weekdays=czech.weekday_names()[:len(fields.WEEKDAYS)],
                  departure=departure_word(team["expelled_how"]) if team["expelled"] else None,
                  leaving=[(how, language.shown(text)) for how, text in LEAVING.items()],
                  league=store.league.competitions().get(team["competition"], team["competition"]))


def _audit_page(store, session, asked: dict, *, done=None, **_) -> str:
    changes = [dict(c, when=czech.moment(c["at"]), iso=czech.iso_local(c["at"])) for c in store.audit.latest()]
    return render("admin_audit.html", frame=chrome.admin_frame("audit"), title=say("Správa ligy: záznam změn"),
                  csrf=session["csrf"], done=done, error=None, changes=changes)


# -- the changes ----------------------------------------------------------------------------------
def _change(sessions):
    async def endpoint(request):
        session = _session(sessions, request)
        name = request.path_params["action"]
        action = ACTIONS.get(name)
        if action is None:
            return _refused("no such admin action", 404)
        if not session or not session["admin"]:
            return RedirectResponse("/admin/login", status_code=303)
        try:
            form = await read_form(request, session)
        except FormRefused as exc:
            return _refused(str(exc), exc.status)
        store = request.app.state.receiver.store
        change, where = action
        try:
            done = await run_in_threadpool(settled, change, store, form, audit=(_who(request), name))
        except LeagueError as exc:
            reason = await run_in_threadpool(_named, words.said(exc), store, form)
            with language.reading(language.current(), _back(where, form)):       # the switch: the form's page
                try:
                    return page(await run_in_threadpool(PAGES[where], store, session, form, error=reason,
                                                        action=name, sent=form), 400)
                except LeagueError:             # the page itself is not there (no such fixture or team)
                    return _refused(reason, 400)
        if name == "season":                # the organiser goes on in the season just added
            form = {**form, "season": form.get("name", "").strip()}
        return RedirectResponse(_back(where, form, seal(done, session)), status_code=303)
    return endpoint


def _named(text: str, store, form: dict) -> str:
    """A refusal with the fixtures it names by their ids named as people name a match
    ("Lvi – Orli, út 13. 10. 2026"): those of the form's fixture's (or season's) competition."""
    try:
        fixture = store.fixtures.get(form["fixture"]) if form.get("fixture") else None
    except LeagueError:
        fixture = None
    season, competition = ((fixture["season"], fixture["competition"]) if fixture else
                           (form.get("season", ""), form.get("competition", "")))
    if not season or competition not in fields.COMPETITIONS:
        return text
    for f in sorted(store.fixtures.of(season, competition), key=lambda f: -len(f["id"])):
        text = text.replace(f["id"], czech.match_name(f["home"], f["away"], f["date"]))
    return text


def _who(request) -> str:
    return f"web, {remote(request) or '?'}"


def _back(where: str, form: dict, sealed: str | None = None) -> str:
    """The page a change was made on, saying what was done (``sealed``)."""
    if where == "fixture":
        path, asked = "/admin/fixture", {"id": form.get("fixture", "")}
    elif where == "venue":
        path, asked = "/admin/venue", {"name": form.get("name", "")}
    elif where == "team":
        path, asked = "/admin/team", {key: form.get(key, "") for key in ("season", "competition", "team")}
    else:
        path, asked = "/admin", {key: form[key] for key in ("season", "competition") if form.get(key)}
    asked |= {"done": sealed} if sealed else {}
    return path + ("?" + urlencode(asked) if asked else "")


def settled(action, store, form, *, audit: tuple[str, str] | None = None):
    """An admin change, once the figures of every item answered before are computed (it may read
    them: a no-show refused for a fixture already played, A.3.7); then the figures it made due (an
    expulsion's annulled matches, a rule's team points, a ruling). ``audit``: (who, action) kept in
    the audit log with what was done, in the change's own transaction: in Czech, the league's
    language, whichever the organiser was told it in."""
    figures.settle(store)
    with store.transaction():
        done = action(store, form)
        if audit:
            store.audit.add(*audit, language.in_language(done, language.CZECH))
    figures.settle(store)
    return done


# the values a "done" text words in the reader's language, said again in Czech for the audit log
_weekdays, _fixture_time = language.speaks(czech.weekdays), language.speaks(czech.fixture_time)
_match_name, _said = language.speaks(czech.match_name), language.speaks(words.said)
_override_text, _departure_word = language.speaks(override_text), language.speaks(departure_word)


def _field(form: dict, name: str, what: str) -> str:
    value = form.get(name, "")
    if not value.strip():
        raise LeagueError(f"{what} must not be empty")
    return value


def _days(form: dict) -> str:
    """The weekdays ticked (checkboxes day0 … day4), as "0,2"."""
    return ",".join(str(n) for n in _ticked(form))


def _season(store, form) -> str:
    name, halves = _field(form, "name", "the season"), (form.get("autumn") or None, form.get("spring") or None)
    if not form.get("source"):
        season = store.league.add_season(name, *halves)
        return say("sezóna {name} přidána. Začíná prázdná: bez družstev, soupisek a vlastních pravidel (převezme je "
                   "volba „Převzít ze sezóny“).", name=season["name"])
    done = store.league.carry_over(name, form["source"], form.get("competition", ""), *halves)
    left = say(" Vyřazená družstva vynechána: {teams}.", teams=", ".join(done["left_out"])) if done["left_out"] else ""
    return say("sezóna {name} přidána ze sezóny {source}: družstev {teams}, hráčů na soupiskách {players}, pravidel "
               "{rules}; bez rozpisu a výsledků.{left}", name=done["season"]["name"], source=done["source"],
               teams=done["teams"], players=done["players"], rules=done["rules"], left=left)


def _venue(store, form) -> str:
    venue = store.league.add_venue(_field(form, "name", "the venue"), _days(form))
    return say("herna {name} uložena, hrací dny: {days}.", name=venue["name"], days=_weekdays(venue["days"]))


def _team(store, form) -> str:
    team = store.league.add_team(form.get("season", ""), form.get("competition", ""), _field(form, "name", "the team"),
                          venue=form.get("venue", ""), captain=form.get("captain", ""), phone=form.get("phone", ""),
                          days=_days(form))
    return say("družstvo {name} přidáno.", name=team["name"])


def _player(add: bool):
    def change(store, form) -> str:
        name = fields.text(form.get("name", ""), "the player")
        team = _field(form, "team", "the team")
        (store.league.add_player if add else store.league.remove_player)(form.get("season", ""), form.get("competition", ""),
                                                           team, name)
        return say("{name} přidán do družstva {team}." if add else "{name} odebrán z družstva {team}.", name=name,
                   team=team)
    return change


def _confirmed(form: dict) -> None:
    if form.get("confirm") != "1":
        raise LeagueError("a deletion is confirmed by ticking its box")


def _team_edit(store, form) -> str:
    team = store.league.edit_team(form.get("season", ""), form.get("competition", ""), form.get("team", ""),
                                  captain=form.get("captain", ""), phone=form.get("phone", ""), days=_days(form))
    return say("družstvo {name}: kapitán {captain}, telefon {phone}, hrací dny: {days}.", name=team["name"],
               captain=team["captain"], phone=team["phone"], days=_weekdays(team["days"]))


LEAVING = {"withdrew": N_("odstupuje"), "decision": N_("vyřazeno organizátorem (A.1.2)")}


def _team_withdraw(store, form) -> str:
    """The team withdraws, or the organiser expels it by decision: as an A.3.7 expulsion, confirmed."""
    if form.get("confirm") != "1":
        raise LeagueError("a withdrawal or expulsion is confirmed by ticking its box")
    if form.get("how") not in LEAVING:
        raise LeagueError("choose whether the team withdraws or is expelled")
    done = store.departures.withdraw_team(form.get("season", ""), form.get("competition", ""), form.get("team", ""),
                                        reason=form.get("reason", ""), expel=form["how"] == "decision")
    return say("družstvo {team} {left}; anulováno výsledků: {annulled}, zrušeno utkání: {cancelled}.", team=done["team"],
               left=_departure_word(done["how"]), annulled=done["annulled"], cancelled=len(done["cancelled"]))


def _team_reinstate(store, form) -> str:
    if form.get("confirm") != "1":
        raise LeagueError("a reinstatement is confirmed by ticking its box")
    done = store.departures.reinstate_team(form.get("season", ""), form.get("competition", ""), form.get("team", ""))
    waiting = language.joined(say(" Čeká na nový termín: {match} ({why}).",
                                  match=_match_name(f["home"], f["away"], f["date"]), why=_said(why))
                              for f, why in ((store.fixtures.get(fixture), why) for fixture, why in done["postponed"]))
    return say("družstvo {team} vráceno do soutěže, jeho výsledky opět platí; znovu v rozpisu utkání: {count}.{waiting}",
               team=done["team"], count=len(done["scheduled"]), waiting=waiting)


def _player_rename(store, form) -> str:
    old, new = form.get("name", ""), form.get("new", "")
    store.league.rename_player(form.get("season", ""), form.get("competition", ""), form.get("team", ""), old, new)
    return say("hráč {old} družstva {team} přejmenován na {new}; jeho zápisy a statistiky sezóny ho uvádějí pod "
               "novým jménem.", old=old, team=form.get("team"), new=fields.text(new, "the player"))


def _player_remove(store, form) -> str:
    _confirmed(form)
    return _player(False)(store, form)


def _device_remove(store, form) -> str:
    """A venue's device unregistered (lost, stolen, the venue left): refused from then on."""
    _confirmed(form)
    return device_removed(store.devices.remove(_field(form, "device", "the device")))


def device_removed(gone: dict) -> str:
    """What removing a device did (``gone``: the device removed), as the audit log keeps it; the
    command line's ``remove-device`` keeps it too."""
    return say("počítadlo {device} odebráno: jeho další záznamy ani žádosti o ligu se nepřijmou; co už poslalo, "
               "zůstává.", device=gone["id"])


def _postponement_delete(store, form) -> str:
    _confirmed(form)
    done = store.fixtures.withdraw_postponement(_field(form, "fixture", "the fixture"), form.get("team", ""))
    fixture = done["fixture"]
    when = (say("termín {when}", when=_fixture_time(fixture["date"], fixture["start"]))
            if fixture["status"] != "postponed" else say("utkání dál čeká na nový termín"))
    kept = say(" (původní termín se nevrací: {why})", why=_said(done["kept"])) if done["kept"] else ""
    return say("odklad utkání {home} – {away} na žádost družstva {team} smazán; {when}{kept}.",
               home=fixture["home"], away=fixture["away"], team=form.get("team"), when=when, kept=kept)


def _rules(store, form) -> str:
    """The competition's rules (A.1.2): every field of the form (rule_KEY) as the organiser left it."""
    competition = fields.competition(form.get("competition", ""))
    changes = {s.key: form[f"rule_{s.key}"] for s in competition_rules.settings(competition)
               if f"rule_{s.key}" in form}
    store.league.set_rules(form.get("season", ""), competition, changes)
    return say("pravidla soutěže {competition} {season} uložena.",
               competition=store.league.competitions().get(competition, competition), season=form.get("season", ""))


def _generate(store, form) -> str:
    plan = store.fixtures.generate(form.get("season", ""), form.get("competition", ""), lot=form.get("lot") or None,
                                   replace=bool(form.get("replace")))
    unmet = language.joined(say(" Nevyhověno: {reason}.", reason=_said(sentence)) for sentence in plan["unmet"])
    short = language.joined(say(" Upozornění: {warning}", warning=_said(sentence)) for sentence in plan["short"])  # A.3.1
    return say("rozlosováno {n} utkání (los „{lot}“).{unmet}{short}", n=plan["fixtures"], lot=plan["lot"],
               unmet=unmet, short=short)


def _override_of(form: dict) -> str | None:
    return form.get("override") or None


def _fixture_add(store, form) -> str:
    fixture = store.fixtures.add(form.get("season", ""), form.get("competition", ""), _field(form, "home", "the team"),
                                 _field(form, "away", "the team"), form.get("date", ""),
                                 start=form.get("time") or "17:00", override=_override_of(form))
    return say("utkání {home} – {away} přidáno na {when} ({venue}).{noted}", home=fixture["home"], away=fixture["away"],
               when=_fixture_time(fixture["date"], fixture["start"]), venue=fixture["venue"], noted=_noted(fixture))


def _move(store, form) -> str:
    fixture = store.fixtures.move(_field(form, "fixture", "the fixture"), form.get("date", ""),
                                  override=_override_of(form))
    return say("utkání {home} – {away} přesunuto na {when}.{noted}", home=fixture["home"], away=fixture["away"],
               when=_fixture_time(fixture["date"], fixture["start"]), noted=_noted(fixture))


def _noted(fixture: dict) -> str:
    """The override of the rules a fixture's date was given with (A.3.3), as a done text's last sentence."""
    return say(" Výjimka: {override}.", override=_override_text(fixture["override"])) if fixture["override"] else ""


def _postpone(store, form) -> str:
    done = store.fixtures.postpone(_field(form, "fixture", "the fixture"), form.get("team", ""), to=form.get("date") or None,
                                   reason=form.get("reason", ""), override=_override_of(form))
    fixture = done["fixture"]
    return say("utkání {home} – {away} odloženo na žádost družstva {team}; zbývá mu odkladů: {left} (A.3.3).",
               home=fixture["home"], away=fixture["away"], team=form.get("team"), left=done["left"])


def _no_show(store, form) -> str:
    done = store.departures.no_show(_field(form, "fixture", "the fixture"), form.get("team", ""),
                                  expel=form.get("expel") == "1")
    expelled = (say(" {team} vyřazeno ze soutěže (A.3.7), zrušeno utkání: {n}.", team=form.get("team"),
                    n=len(done["cancelled"])) if done["expelled"] else "")
    return say("utkání kontumováno ve prospěch družstva {team}.{expelled}", team=done["forfeited_to"],
               expelled=expelled)


def _no_show_delete(store, form) -> str:
    _confirmed(form)
    fixture = store.departures.withdraw_no_show(_field(form, "fixture", "the fixture"))
    return say("nedostavení k utkání {home} – {away} smazáno; termín {when}.", home=fixture["home"],
               away=fixture["away"], when=_fixture_time(fixture["date"], fixture["start"]))


def _assign(store, form) -> str:
    """A league match off the schedule made a fixture's result (issue 22)."""
    done = store.results.assign(_field(form, "match", "the match"), _field(form, "fixture", "the fixture"))
    fixture = store.fixtures.get(done["fixture"])
    replaced = say(" (místo záznamu {records})", records=", ".join(done["replaced"])) if done["replaced"] else ""
    return say("záznam {match} je výsledkem utkání {fixture}{replaced}.", match=done["match"],
               fixture=_match_name(fixture["home"], fixture["away"], fixture["date"]), replaced=replaced)


def _rule(store, form) -> str:
    """The organiser's ruling on an interrupted match (A.6.5): award it, or replay the rest; on an
    irregular one (A.3.6, A.6.1): award it."""
    fixture = store.results.rule(_field(form, "fixture", "the fixture"), form.get("kind", ""),
                                  to=form.get("date") or None, points=form.get("points") or None,
                                  reason=form.get("reason", ""), override=_override_of(form))
    ruling = fixture["ruling"]
    awarded = say("přiznán výsledek" if fixture["irregular"] else "kontumováno")
    what = (language.joined((awarded, f" {ruling['points_home']} : {ruling['points_away']}")) if ruling["kind"] == "award"
            else say("zbytek se dohraje {when}", when=_fixture_time(fixture["date"], fixture["start"])))
    return say("utkání {home} – {away}: {what} ({clauses}).", home=fixture["home"], away=fixture["away"], what=what,
               clauses=ruled_under(fixture))


# action -> (the change, the page its form is on)
ACTIONS = {"season": (_season, "dashboard"), "venue": (_venue, "dashboard"), "team": (_team, "dashboard"),
           "team-edit": (_team_edit, "team"), "team-withdraw": (_team_withdraw, "team"),
           "team-reinstate": (_team_reinstate, "team"), "rules": (_rules, "dashboard"), "player-add": (_player(True), "dashboard"),
           "player-rename": (_player_rename, "team"), "player-remove": (_player_remove, "team"),
           "generate": (_generate, "dashboard"), "fixture-add": (_fixture_add, "dashboard"), "move": (_move, "fixture"),
           "postpone": (_postpone, "fixture"),
           "postponement-delete": (_postponement_delete, "fixture"), "no-show": (_no_show, "fixture"),
           "no-show-delete": (_no_show_delete, "fixture"),
           "rule": (_rule, "fixture"), "assign": (_assign, "dashboard"), "device-remove": (_device_remove, "venue")}
PAGES = {"dashboard": _dashboard, "fixture": _fixture_page, "team": _team_page, "venue": _venue_page}

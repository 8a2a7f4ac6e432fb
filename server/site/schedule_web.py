"""The league's public schedule with results (A.2.3): ``/schedule?season=…&competition=…`` (HTML,
readable on a phone) and ``/schedule.json``. A result comes from the stored match items under the
fixture's id (the match id the device records it with) and links to its match record; each team
links to its page (from the season's start, before anything is played)."""
from server.league.irregular import ruled_under
from server.site import chrome, language, words
from server.site.answers import JSONAnswer, html_page
from server.site.language import N_, say
from server.site.pages import fixture_card, render
from server.tables import results

STATUSES = {"scheduled": N_("naplánováno"), "played": N_("odehráno"), "postponed": N_("odloženo"),
            "forfeited": N_("kontumováno"), "cancelled": N_("zrušeno"), "interrupted": N_("přerušeno"),
            "irregular": N_("nesrovnalost v zápisu, čeká na rozhodnutí")}
DEPARTURES = {"no-shows": N_("vyřazeno ze soutěže (A.3.7)"), "withdrew": N_("odstoupilo ze soutěže"),
              "decision": N_("vyřazeno ze soutěže rozhodnutím organizátora (A.1.2)")}     # teams.expelled_how


def _awarded(fixture: dict) -> bool:
    """Played, with the result the organiser awarded (A.6.5, A.3.6, A.6.1)."""
    return fixture["status"] == "played" and (fixture.get("ruling") or {}).get("kind") == "award"


def status_word(fixture: dict) -> str:
    """A fixture's status in words: a match held names the clauses it broke (A.3.6, A.6.1); a
    result the organiser awarded says so."""
    text = language.shown(STATUSES.get(fixture["status"], fixture["status"]))
    if fixture["status"] == "irregular":
        return f"{text} ({ruled_under(fixture)})"
    if _awarded(fixture):
        return say("výsledek přiznal organizátor soutěže ({clauses})", clauses=ruled_under(fixture))
    return text


def shown_status(fixture: dict) -> str:
    """``status_word`` where a card shows it: not for a fixture simply to be played or played."""
    plain = fixture["status"] in ("scheduled", "played") and not _awarded(fixture)
    return "" if plain else status_word(fixture)


def schedule(html: bool):
    """The GET endpoint's builder: ``build(store, request)`` (server.site.routes._page runs it)."""
    return lambda store, request: _schedule(store, request, html=html)


def status_text(fixture: dict) -> str:
    """What became of a fixture, when it is not simply to be played or played (a forfeit: for whom),
    and the organiser's override of the rules for its date (A.3.3)."""
    said = []
    text = shown_status(fixture)
    if text:
        said.append(say("{status} ve prospěch {team}", status=text, team=fixture["forfeited_to"])
                    if fixture.get("forfeited_to") else text)
    if fixture.get("override"):
        said.append(say("termín povolen výjimkou z pravidel (A.3.3): {override}",
                        override=override_text(fixture["override"])))
    return "; ".join(said)


def override_text(text: str) -> str:
    """An override as the store keeps it ("REASON (REFUSAL)", server.storage.fixtures), the refusal
    it overrode said in Czech (on an English page as the store keeps it)."""
    if language.english():
        return text
    start = text.find(" (")
    while start != -1 and text.endswith(")"):
        refusal = text[start + 2:-1]
        said = words.czech(refusal)
        if said != refusal:
            return f"{text[:start]} ({said.rstrip('.')})"
        start = text.find(" (", start + 1)
    return text


def departure_word(how: str | None) -> str:
    """How a team left its competition (teams.expelled_how), in words."""
    return language.shown(DEPARTURES[how or "no-shows"])


def expelled_notes(store, season: str | None, competition: str) -> list[str]:
    """The teams out of the season's competition, said where the schedule and the table leave their
    results out: those expelled after their no-shows (A.3.7) together, each team that withdrew or
    was expelled by the organiser's decision (A.1.2) with the organiser's reason."""
    gone = [t for t in store.league.teams(season, competition) if t["expelled"]] if season else []
    expelled = [t["name"] for t in gone if t["expelled_how"] in (None, "no-shows")]
    notes = [say("{team} {left}, výsledky anulovány; důvod: {reason}", team=t["name"],
                 left=departure_word(t["expelled_how"]), reason=t["expelled_reason"] or "–")
             for t in gone if t["name"] not in expelled]
    if not expelled:
        return notes
    # A.1.5 / A.3.7: an expelled team's entry fee, where the competition set one, is not returned
    fee = store.league.rules(season, competition)["entry_fee"] is not None
    return [say("Vyřazeno ze soutěže (A.3.7), výsledky anulovány, bez náhrady startovného: {teams}" if fee else
                "Vyřazeno ze soutěže (A.3.7), výsledky anulovány: {teams}", teams=", ".join(expelled)), *notes]


def _schedule(store, request, *, html: bool):
    competition = request.query_params.get("competition", "carom")
    competition = competition if competition in store.league.competitions() else "carom"
    season = request.query_params.get("season", "")
    asked = season in [s["name"] for s in store.league.seasons()]
    season = season if asked else (results.table_season(store, competition, None) or "")     # as the table's
    fixtures = store.fixtures.of(season, competition) if season else []
    if not html:
        return JSONAnswer({"season": season or None, "competition": competition, "fixtures": fixtures})
    rounds: dict[int, list[dict]] = {}
    for f in fixtures:
        card = fixture_card(dict(f, status_text=status_text(f)))      # a forfeit's score links to its zápis (A.3.7)
        rounds.setdefault(f["round"], []).append(card)
    notes = expelled_notes(store, season, competition)
    frame = chrome.frame(store, here="schedule", game=competition, season=season or None,
                         switch=chrome.schedule_href, asked=asked)
    title = (say("Rozpis utkání: {game}, sezóna {season}", game=chrome.GAME_NAMES[competition], season=season)
             if season else say("Rozpis utkání"))
    return html_page(render("schedule.html", frame=frame, title=title, fixtures=fixtures, notes=notes,
                            rounds=[{"number": n, "fixtures": rounds[n]} for n in sorted(rounds)],
                            description=say("Rozpis utkání soutěže {league}, sezóna {season}: kolo po kole, s výsledky "
                                            "odehraných utkání.", league=frame.league, season=season or "–")))

"""The audit log is the league's, so it is kept in Czech (server/site/language.py ``Said``): an
organiser reading the admin in English is told what was done in English, and the audit log keeps
the same change in Czech, its values (weekdays, dates, a refusal's reason) said in Czech too; a
Czech organiser's entries are what they were told."""
import copy
import html
import re

from league_admin_helpers import SEASON, before_the_season, fixture_between, on_the_day, set_up_league

from server.site import czech, language

CONTEXT = {"season": SEASON, "competition": "carom"}


def _told(page: str) -> str:
    return html.unescape(re.search(r'<p class="done" role="status">(.*?)</p>', page, re.S)[1])


def test_a_said_text_says_itself_again_in_czech_with_the_values_said_in_it():
    with language.reading(language.ENGLISH):
        days = language.speaks(czech.weekdays)("0,2")
        saved = language.say("herna {name} uložena, hrací dny: {days}.", name="Na Růžku", days=days)
        both = language.joined((saved, language.say(" Výjimka: {override}.", override=language.N_("odstupuje"))))
    assert both == "venue Na Růžku saved, playing days: Monday, Wednesday. Exception: withdraws."
    assert language.in_language(both, language.CZECH) == ("herna Na Růžku uložena, hrací dny: pondělí, středa. "
                                                          "Výjimka: odstupuje.")
    assert language.in_language("not said", language.CZECH) == "not said"
    assert copy.copy(both) == both and language.in_language(copy.copy(both), language.CZECH) == both


def test_an_english_organisers_changes_are_told_in_english_and_kept_in_czech_A_3_7(logged_in_english, logged_in,
                                                                                   store):
    set_up_league(store)
    change, orli = logged_in_english.change, CONTEXT | {"team": "Orli", "confirm": "1"}
    told = [change("/admin/venue", {"name": "Na Růžku", "day0": "1", "day2": "1"}),
            change("/admin/generate", CONTEXT | {"lot": "x"})]
    for home, away in (("Orli", "Sokoli"), ("Sokoli", "Orli")):          # the second no-show expels (A.3.7)
        fixture = fixture_between(store, home, away)["id"]
        on_the_day(store, fixture)
        page = change("/admin/no-show", {"fixture": fixture, "team": "Orli", "expel": "1"})
    told = [_told(page) for page in told + [page, change("/admin/team-reinstate", orli)]]
    assert told[0] == "Done: venue Na Růžku saved, playing days: Monday, Wednesday."
    assert told[1].startswith("Done: matches drawn: 12 (lot “x”). Not met: round 3, Jiskra – Lvi: Lvi (away) asked for")
    assert told[2].startswith("Done: the match forfeited in favour of Sokoli. Orli expelled from the competition (A.3.7)")
    assert told[3].startswith("Done: team Orli reinstated, its results count again;")
    kept = [entry["what"] for entry in reversed(store.audit.latest())]
    venue, drawn, _, expelled, reinstated = kept                            # _: the first no-show
    assert venue == "herna Na Růžku uložena, hrací dny: pondělí, středa."
    assert drawn.startswith("rozlosováno 12 utkání (los „x“). Nevyhověno: 3. kolo, Jiskra – Lvi: hosté Lvi žádali "
                            "pondělí, úterý nebo středa")                            # a refusal said in Czech within
    assert expelled.startswith("utkání kontumováno ve prospěch družstva Sokoli. Orli vyřazeno ze soutěže (A.3.7), "
                               "zrušeno utkání: ")
    assert reinstated.startswith("družstvo Orli vráceno do soutěže, jeho výsledky opět platí; znovu v rozpisu utkání: ")
    assert not [text for text in kept if re.search(r"\b(saved|drawn|asked|forfeited|expelled|reinstated)\b", text)]
    page = html.unescape(logged_in.get("/admin/audit")[1])
    assert all(text in page for text in kept) and "Na Růžku saved" not in page


def test_a_czech_organisers_changes_are_kept_as_they_were_told(logged_in, store):
    before_the_season(store)
    set_up_league(store)
    told = [_told(logged_in.change("/admin/venue", {"name": "Na Růžku", "day1": "1"})),
            _told(logged_in.change("/admin/generate", CONTEXT | {"lot": "x"})),
            _told(logged_in.change("/admin/team-withdraw", CONTEXT | {"team": "Orli", "how": "withdrew",
                                                                      "reason": "nemají hráče", "confirm": "1"}))]
    assert told[0] == "Hotovo: herna Na Růžku uložena, hrací dny: úterý."
    assert told[2].startswith("Hotovo: družstvo Orli odstoupilo ze soutěže; anulováno výsledků: 0")
    assert [f"Hotovo: {entry['what']}" for entry in reversed(store.audit.latest())] == told

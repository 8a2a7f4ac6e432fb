"""The league's site in English (server/site/language.py): Czech stays the default; the switch in
the page chrome (/language) keeps the reader's choice in a cookie and leads back to the same page;
every public page and every page of the organiser's web admin read in English shows no Czech but
the league's own names (teams, players, venues, the competitions' names), in its <html lang>; so
do the admin's "done" texts and its refusals; the kept page of one language is never answered for
the other; any other cookie is Czech; the switch never leads to another site. Every text the
site's code and templates write has its English entry in the catalog pages.po (→ pages.mo), the
msgids being the Czech texts themselves, and no Czech text is written unmarked."""
import datetime as dt
import html
import http.client
import json
import re
from urllib.parse import quote, urlsplit

import pytest
from english_helpers import in_the_code, in_the_templates, unmarked
from league_admin_helpers import LVA, before_the_season, fixture_between, free_working_day, on_the_day, set_up_league

from admin_http_helpers import AdminClient
from server.site import czech, language, language_web
from site_helpers import ADMIN_TOKEN, SEASON

PO = language.LOCALE_DIR / "en" / "LC_MESSAGES" / "pages.po"
DIACRITICS = re.compile(r"[áčďéěíňóřšťúůýž]", re.I)
# common Czech words of the site written without diacritics (those with them are found by DIACRITICS)
CZECH_WORDS = {"kolo", "body", "rozpis", "tabulka", "tabulky", "pravidla", "nebo", "podle", "jsou", "ligy", "liga",
               "soupiska", "konec", "sety", "hry", "prohry", "forma", "herna", "sezona", "zatim", "partii", "dnes",
               "hledat", "nalezeno", "stav", "celkem", "datum", "soutez", "zapis", "vitez"}
ATTRIBUTES = re.compile(r'\b(?:aria-label|title|alt|content|placeholder)="([^"]*)"')
ENGLISH = {"Cookie": "lang=en"}


def po_entries() -> dict:
    """msgid → msgstr (a plural entry: (msgid, msgid_plural) → its msgstr[0])."""
    entries, key, field = {}, None, None
    fields: dict[str, str] = {}
    for line in PO.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith('"'):
            fields[field] += json.loads(line)
            continue
        if not line.strip() and fields:
            key = (fields["msgid"], fields["msgid_plural"]) if "msgid_plural" in fields else fields["msgid"]
            entries[key] = fields.get("msgstr", fields.get("msgstr[0]"))
            fields = {}
        elif line and not line.startswith("#"):
            field, value = line.split(" ", 1)
            fields[field] = json.loads(value)
    entries.pop("", None)
    return entries


def get(site, path: str, headers: dict | None = None) -> tuple[int, dict, str]:
    parts = urlsplit(site.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read().decode("utf-8")
    finally:
        conn.close()


def data_names(store, *more: str) -> list[str]:
    """What the league itself names (never translated), and ``more``, longest first."""
    names = set(store.league.competitions().values()) | {s["name"] for s in store.league.seasons()}
    for game in ("carom", "8ball"):
        for team in store.league.teams(SEASON, game):
            names |= {team["name"], team["venue"], *team["players"]}
    names |= {f["venue"] for game in ("carom", "8ball") for f in store.fixtures.of(SEASON, game)}
    names |= {n for v in store.league.venues() for n in (v["name"], *v["devices"])}
    names |= {p["reason"] for game in ("carom", "8ball") for team in store.league.teams(SEASON, game)
              for p in store.fixtures.postponements(SEASON, game, team["name"])}        # as the organiser wrote them
    return sorted(names | set(more), key=len, reverse=True)


def readable(page: str, names: list[str]) -> str:
    """What a reader of ``page`` reads, and what a screen reader says (its labels, titles, its
    description), the rules' own Czech text and the live script's data left out, the league's
    names blanked."""
    page = re.sub(r'<div lang="cs">.*?</div>', " ", page, flags=re.S)         # the rules as the league wrote them
    page = re.sub(r'<div lang="en">.*?</div>', " ", page, flags=re.S)         # RULES.md, English with Czech terms
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    words = re.search(r"data-words='([^']*)'", page)
    said = " ".join(html.unescape(v) for v in ATTRIBUTES.findall(page))
    said += " " + " ".join(str(v) for v in json.loads(html.unescape(words[1])).values()) if words else ""
    text = html.unescape(re.sub(r"<[^>]+>", " ", page)) + " " + said
    for name in names:
        text = text.replace(name, " ")
    return " ".join(text.split())


def czech_in(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[^\W\d_]+", text) if DIACRITICS.search(w) or w.lower() in CZECH_WORDS}
                  - {"Česky"})


def test_the_compiled_catalog_is_its_source():
    """After an edit of the .po: msgfmt -o pages.mo pages.po."""
    entries = po_entries()
    assert len(entries) > 200
    with language.reading(language.ENGLISH):
        assert {k: language.gettext(k) if isinstance(k, str) else language.ngettext(*k, 1)
                for k in entries} == entries


def test_every_text_of_the_site_has_its_english_entry_and_the_catalog_no_other():
    found = in_the_code() | in_the_templates()
    assert {"Rozpis utkání", "Hráč", "%(number)s. kolo", "skrečoval", " (nejméně {n} partií)"} <= found
    assert {"Hotovo: %(done)s", "Přidat hráče", "herna {name} uložena, hrací dny: {days}.", "Limit náběhů v partii"} <= found   # the admin
    catalog = {m for key in po_entries() for m in ((key,) if isinstance(key, str) else key)}
    assert sorted(found - catalog) == []
    assert sorted(catalog - found) == []


def test_no_czech_text_is_written_without_its_mark_for_translation():
    """Czech that is not ``say``, ``N_``, ``plural``, ``col`` or a template's ``_()`` would go
    unseen by the catalog's test above: a new admin button or "done" text has to be marked."""
    assert unmarked() == []


def test_an_english_text_fills_in_the_values_its_czech_one_has():
    for key, english in po_entries().items():
        msgid = key if isinstance(key, str) else key[0]
        assert sorted(re.findall(r"\{\w*\}|%\(\w+\)s", english)) == sorted(re.findall(r"\{\w*\}|%\(\w+\)s", msgid)), key


def test_dates_numbers_and_counts_are_written_the_english_way_on_an_english_page():
    day = dt.date(2026, 10, 13)
    assert (czech.day(day, year=True), czech.decimal("3.500"), czech.moment("2026-10-13T17:05:00")) == \
        ("út 13. 10. 2026", "3,500", "út 13. 10. 2026 19:05")
    assert [language.plural(" (nejméně {n} partie)", " (nejméně {n} partií)", n) for n in (1, 4, 5)] == \
        [" (nejméně 1 partie)", " (nejméně 4 partie)", " (nejméně 5 partií)"]
    with language.reading(language.ENGLISH):
        assert (czech.day(day, year=True), czech.day(day), czech.decimal("3.500")) == \
            ("Tue 13 Oct 2026", "Tue 13 Oct", "3.500")
        assert language.plural(" (nejméně {n} partie)", " (nejméně {n} partií)", 5) == " (at least 5 partie)"
    assert czech.day(day) == "út 13. 10."          # the language is the request's, not left behind


def test_every_public_page_in_english_shows_no_czech_but_the_leagues_names(demo_site):
    """RULES 1.6 (the zápis), 1.8 and 2.9 (the tables), A.1.3/A.1.4 (statistics, rules): each in English."""
    demo_site.show_a_table_live()
    names = data_names(demo_site.store)
    shown = {}
    for name, path in demo_site.public_pages():
        status, headers, page = get(demo_site, path, ENGLISH)
        assert status == (404 if name == "not-found" else 200), name
        assert '<html lang="en">' in page and headers["vary"] == "Cookie", name
        shown[name] = czech_in(readable(page, names))
    assert {name: words for name, words in shown.items() if words} == {}


def test_the_english_pages_say_it_in_english(demo_site):
    _, _, home = get(demo_site, "/", ENGLISH)
    assert "Latest results" in home and "Skip to content" in home and "Wed 11 Nov 2026" in home
    _, _, table = get(demo_site, "/table.html", ENGLISH)
    assert "Table: carom, season 2026/27" in table and '<abbr title="won">W</abbr>' in table
    _, _, rules = get(demo_site, "/rules.html", ENGLISH)
    assert "The league's rules are published in Czech" in rules and '<div lang="cs">' in rules
    _, _, live = get(demo_site, "/live", ENGLISH)
    words = json.loads(html.unescape(re.search(r"data-words='([^']*)'", live)[1]))
    assert (words["end"], words["days"][2], words["months"][9]) == ("over", "Tue", "Oct")
    _, _, live = get(demo_site, "/live")
    words = json.loads(html.unescape(re.search(r"data-words='([^']*)'", live)[1]))
    assert (words["end"], words["days"][2], words["months"]) == ("konec", "út", None)


def test_the_exports_stay_as_they_are_for_an_english_reader(demo_site):
    """CSV, JSON and a team's iCalendar feed (its fixtures' statuses as the Czech schedule says them)."""
    team = next(p for n, p in demo_site.public_pages() if n == "team")
    for path in (team.replace(".html", ".ics"), team.replace(".html", ".json"), "/table.csv", "/players.json"):
        czech_answer, english_answer = get(demo_site, path), get(demo_site, path, ENGLISH)
        assert czech_answer[0] == 200 and english_answer[2] == czech_answer[2], path
    assert "Odloženo" in get(demo_site, team.replace(".html", ".ics"), ENGLISH)[2]


@pytest.mark.parametrize("cookie", ["lang=cs", "lang=xx", "lang=EN", "lang=en%00", "lang=en; lang=", "lang",
                                    "lang=" + "en" * 3000, "x=1; " * 900 + "lang=en"])
def test_czech_is_the_default_and_what_any_other_cookie_gets(demo_site, cookie):
    _, _, plain = get(demo_site, "/table.html")
    status, _, page = get(demo_site, "/table.html", {"Cookie": cookie})
    assert status == 200 and '<html lang="cs">' in page and "Tabulka: karambol" in page
    assert page == plain


def test_the_switch_leads_back_to_the_same_page_in_the_other_language_and_back(demo_site):
    _, _, czech_page = get(demo_site, "/table.html?season=2026/27&x=1")
    link = html.unescape(re.search(r'<a class="language" href="([^"]+)" lang="en"', czech_page)[1])
    assert link == "/language?to=en&back=%2Ftable.html%3Fseason%3D2026%252F27"
    status, headers, _ = get(demo_site, link)
    assert (status, headers["location"]) == (303, "/table.html?season=2026%2F27")
    assert re.match(r"lang=en; .*HttpOnly; Max-Age=31536000; Path=/; SameSite=lax", headers["set-cookie"])
    _, _, english = get(demo_site, headers["location"], ENGLISH)
    assert "Table: carom, season 2026/27" in english
    back = html.unescape(re.search(r'<a class="language" href="([^"]+)" lang="cs"', english)[1])
    status, headers, _ = get(demo_site, back)
    assert (status, headers["location"], headers["set-cookie"].split(";")[0]) == \
        (303, "/table.html?season=2026%2F27", "lang=cs")


def test_a_page_kept_in_one_language_is_never_answered_in_the_other(demo_site):
    for _ in range(3):
        for path in ("/", "/table.html", "/schedule", "/players.html", "/no/such/page"):
            assert '<html lang="cs">' in get(demo_site, path)[2], path
            assert '<html lang="en">' in get(demo_site, path, ENGLISH)[2], path


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "/\t/evil.example",
                                  "javascript:alert(1)", "", "evil.example", "/" + "a" * 2000, "/a b", "/\r\nSet-Cookie:x"])
def test_the_switch_never_leads_to_another_site(back):
    assert language_web.back_to(back) == "/"


def test_the_switch_leads_only_to_a_path_of_this_site(demo_site):
    status, headers, _ = get(demo_site, "/language?to=en&back=https%3A%2F%2Fevil.example%2F")
    assert (status, headers["location"]) == (303, "/")
    status, headers, _ = get(demo_site, "/language?to=fr&back=%2Fschedule")
    assert (status, headers["location"], headers["set-cookie"].split(";")[0]) == (303, "/schedule", "lang=cs")
    assert language_web.back_to("/players.html?q=nov&game=8ball") == "/players.html?q=nov&game=8ball"


# -- the organiser's web admin ---------------------------------------------------------------------
def port(site) -> int:
    return int(site.url.rsplit(":", 1)[1])


def admin_answers(site, language_: str | None) -> dict[str, tuple[int, dict, str]]:
    """Every page of the web admin as one organiser reads it, logged in through the real login: the
    login form, each page (admin_pages), a refused form (400, the page with its reason), a change
    refused for a fixture that is not there (its refusal page) and a form without its CSRF token."""
    visitor = AdminClient(port(site), language=language_)
    shown = {"admin-login": visitor.request("GET", "/admin/login")}
    client = AdminClient(port(site), language=language_).enter(ADMIN_TOKEN)
    shown |= {name: client.request("GET", path) for name, path in site.admin_pages()}
    for name, path, fields in (("admin-refused", "/admin/season", {"name": "2026"}),
                               ("admin-refused-fixture", "/admin/move", {"fixture": "nic", "date": "2026-10-14"})):
        status, page, headers = client.post(path, fields)
        shown[name] = status, headers, page
    status, page, headers = client.post("/admin/season", {"name": "2027/28", "csrf": "forged"}, csrf=False)
    shown["admin-forged"] = status, headers, page
    return shown


def test_every_admin_page_in_english_shows_no_czech_but_the_leagues_names(demo_site):
    """The login, the front page, a fixture's, a team's, a venue's, the audit log, the refusals."""
    names = data_names(demo_site.store)
    shown = {}
    refused = {"admin-not-found": 404, "admin-refused": 400, "admin-refused-fixture": 400, "admin-forged": 403}
    for name, (status, headers, page) in admin_answers(demo_site, "en").items():
        assert status == refused.get(name, 200) and '<html lang="en">' in page, name
        assert headers.get("cache-control") == "no-store", name
        shown[name] = czech_in(readable(page, names))
    assert {name: words for name, words in shown.items() if words} == {}


def test_the_english_admin_says_it_in_english_and_the_czech_one_in_czech(demo_site):
    english, czech_ = admin_answers(demo_site, "en"), admin_answers(demo_site, None)
    assert "Admin token" in english["admin-login"][2] and "Správcovský klíč" in czech_["admin-login"][2]
    assert "League administration" in english["admin"][2] and "Teams 2026/27" in english["admin"][2]
    assert "Log out" in english["admin"][2] and "Odhlásit" in czech_["admin"][2]
    assert "Innings limit of a partie (A.5.2)" in english["admin"][2]            # the league's labels of its rules
    assert "Monday" in english["admin-venue"][2] and "pondělí" in czech_["admin-venue"][2]
    assert (english["admin-refused"][0], czech_["admin-refused"][0]) == (400, 400)
    assert "Refused: a season is written like 2026/27 (two years that follow)" in html.unescape(english["admin-refused"][2])
    assert "Odmítnuto: Sezóna se píše jako 2026/27" in czech_["admin-refused"][2]
    assert "Back to the league administration" in english["admin-refused-fixture"][2]
    assert "the form's security token does not match your session" in html.unescape(english["admin-forged"][2])
    for name, (status, _, page) in czech_.items():
        assert '<html lang="cs">' in page and status == english[name][0], name


def test_the_admin_keeps_its_headers_and_checks_in_english(demo_site):
    """The same security headers (no-store, the policy, no framing); a form without the session's
    CSRF token is refused (403), and the login's token is checked, whatever the language."""
    english, czech_ = admin_answers(demo_site, "en"), admin_answers(demo_site, None)
    varying = {"date", "content-length", "set-cookie", "location"}
    for name in english:
        assert {k: v for k, v in english[name][1].items() if k.lower() not in varying} == \
            {k: v for k, v in czech_[name][1].items() if k.lower() not in varying}, name
    assert english["admin-forged"][0] == 403
    status, page, _ = AdminClient(port(demo_site), language="en").login("not-the-token")
    assert status == 401 and "the admin token is not right" in page and '<html lang="en">' in page


def test_the_admin_says_what_was_done_in_english_and_keeps_it_in_the_audit_log(logged_in_english, store):
    set_up_league(store)
    page = logged_in_english.change("/admin/venue", {"name": "Na Růžku", "day0": "1", "day2": "1"})
    assert "Done: venue Na Růžku saved, playing days: Monday, Wednesday." in page
    page = logged_in_english.change("/admin/generate", {"season": SEASON, "competition": "carom", "lot": "x"})
    assert "Done: matches drawn: 12 (lot “x”). Not met: round 3, Jiskra – Lvi: Lvi (away) asked for" in page
    assert store.audit.latest()[0]["what"].startswith("rozlosováno 12 utkání (los „x“).")     # the league's Czech
    status, page, _ = logged_in_english.post("/admin/player-add", {"season": SEASON, "competition": "carom",
                                                                   "name": "Novák", "team": "Nikdo"})
    assert status == 400 and "Refused: no team" in page and "Odmítnuto" not in page
    status, page, _ = logged_in_english.post("/admin/rules", {"season": SEASON, "competition": "carom",
                                                              "rule_innings_limit": "0"})
    assert status == 400 and "Refused: Innings limit of a partie (A.5.2) must be 1 to 1000, got 0" in page


def test_what_each_change_of_a_season_says_in_english_is_english_A_3_3_A_3_7(logged_in_english, store):
    """The organiser runs the season's changes from the English admin: each "done" text is said
    in English, with no Czech but the league's names."""
    set_up_league(before_the_season(store))
    change, context = logged_in_english.change, {"season": SEASON, "competition": "carom"}
    team = context | {"team": "Draci"}
    said = [change("/admin/season", {"name": "2027/28"}), change("/admin/venue", {"name": "Nová", "day1": "1"}),
            change("/admin/team", context | {"name": "Draci", "venue": LVA, "captain": "Jan Kos",
                                             "phone": "+420 777 000 111"}),
            change("/admin/player-add", context | {"name": "Petr Říha", "team": "Draci"}),
            change("/admin/team-edit", team | {"captain": "Jan Kos", "phone": "+420 777 000 222", "day0": "1"}),
            change("/admin/player-rename", team | {"name": "Petr Říha", "new": "Petr Řeha"}),
            change("/admin/player-remove", team | {"name": "Petr Řeha", "confirm": "1"}),
            change("/admin/rules", context | {"rule_innings_limit": "25"}), change("/admin/generate", context)]
    fixture, other = fixture_between(store, "Lvi", "Orli")["id"], fixture_between(store, "Orli", "Sokoli")["id"]
    said += [change("/admin/postpone", {"fixture": fixture, "team": "Lvi", "reason": "svatba"}),
             change("/admin/postponement-delete", {"fixture": fixture, "team": "Lvi", "confirm": "1"})]
    day = free_working_day(store, store.fixtures.get(fixture)).isoformat()
    said.append(change("/admin/move", {"fixture": fixture, "date": day}))
    on_the_day(store, other)
    said += [change("/admin/no-show", {"fixture": other, "team": "Orli"}),
             change("/admin/no-show-delete", {"fixture": other, "confirm": "1"}),
             change("/admin/device-remove", {"name": LVA, "device": "u-lva-1", "confirm": "1"})]
    done = [html.unescape(re.search(r'<p class="done" role="status">(.*?)</p>', page, re.S)[1]) for page in said]
    assert all(text.startswith("Done: ") for text in done), done
    names = data_names(store, "2027/28", "Nová", "Jan Kos", "Petr Říha", "Petr Řeha")
    assert {text: czech_in(readable(text, names)) for text in done if czech_in(readable(text, names))} == {}


def test_the_admin_switch_leads_back_to_the_same_admin_page_without_what_was_done(logged_in, store):
    set_up_league(store)
    status, _, headers = logged_in.post("/admin/season", {"name": "2027/28", "season": SEASON, "competition": "carom"})
    assert status == 303 and "done=" in headers["location"]
    _, page, _ = logged_in.get(headers["location"])
    link = html.unescape(re.search(r'<a class="language" href="([^"]+)" lang="en"', page)[1])
    assert link == "/language?to=en&back=" + quote("/admin?season=2027%2F28&competition=carom", safe="")
    status, headers, _ = logged_in.request("GET", link)
    assert (status, headers["location"], logged_in.language) == (303, "/admin?season=2027%2F28&competition=carom", "en")
    status, page, _ = logged_in.get(headers["location"])
    assert status == 200 and '<html lang="en">' in page and "Done:" not in page and "Log out" in page
    status, page, _ = logged_in.post("/admin/team-edit", {"season": SEASON, "competition": "carom", "team": "Lvi",
                                                          "captain": "K", "phone": "nic"})
    back = html.unescape(re.search(r'<a class="language" href="([^"]+)" lang="cs"', page)[1])
    assert status == 400 and back == "/language?to=cs&back=" + quote(
        "/admin/team?season=2026%2F27&competition=carom&team=Lvi", safe="")        # the form's page, not the POST's

"""The audit log is the league's, so it is kept in Czech (server/site/language.py ``Said``): an
organiser reading the admin in English is told what was done in English, and the audit log keeps
the same change in Czech, its values (weekdays, dates, a refusal's reason) said in Czech too; a
Czech organiser's entries are what they were told."""

from server.site import czech, language


def test_a_said_text_says_itself_again_in_czech_with_the_values_said_in_it():
    with language.reading(language.ENGLISH):
        days = language.speaks(czech.weekdays)("0,2")
        saved = language.say("herna {name} uložena, hrací dny: {days}.", name="Na Růžku", days=days)
        both = language.joined((saved, language.say(" Výjimka: {override}.", override=language.N_("odstupuje"))))
    assert both == "venue Na Růžku saved, playing days: Monday, Wednesday. Exception: withdraws."
    assert language.in_language(both, language.CZECH) == ("herna Na Růžku uložena, hrací dny: pondělí, středa. "
                                                          "Výjimka: odstupuje.")
    assert language.in_language("not said", language.CZECH) == "not said"

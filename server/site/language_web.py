"""``GET /language?to=en&back=/table.html``: the reader's choice of the site's language, kept in a
cookie (server/site/language.py), then back to the page the switch was on.

``back`` must be a path of this site ("/" and printable ASCII, as the pages' links write it, not
"//" or "/\\", which a browser reads as another site's address): anything else leads home, so the
switch never sends a reader elsewhere (no open redirect).
"""
import re

from starlette.responses import RedirectResponse

from server.site import language

SAME_SITE = re.compile(r"/(?![/\\])[!-~]{0,1999}")     # printable ASCII, no space, no control character
YEAR = 365 * 24 * 3600


def back_to(asked: str | None) -> str:
    """The page to go back to: ``asked`` when it is a path of this site, else home."""
    return asked if asked and SAME_SITE.fullmatch(asked) and "\\" not in asked else "/"


async def switch(request):
    asked = request.query_params.get("to")
    chosen = asked if asked in language.LANGUAGES else language.CZECH
    answer = RedirectResponse(back_to(request.query_params.get("back")), status_code=303,
                              headers={"Cache-Control": "no-store"})
    answer.set_cookie(language.COOKIE, chosen, max_age=YEAR, path="/", samesite="lax", httponly=True,
                      secure=request.url.scheme == "https")
    return answer

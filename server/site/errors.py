"""Refusals and failures as the asker reads them: an HTML page in the site's style, with a way back,
for a browser; JSON for the API (/api/…), for .json, .csv and .ics addresses and for a client that
asks for JSON (``Accept: application/json``)."""
import logging

from server.site import chrome, pages, words
from server.site.answers import html_page, refused

log = logging.getLogger("pocitadlo.server")
MACHINE_SUFFIXES = (".json", ".csv", ".ics", ".js", ".txt")


def wants_json(request) -> bool:
    path = request.url.path
    if path.startswith("/api/") or path.endswith(MACHINE_SUFFIXES):
        return True
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def failed(store, request, status: int, reason, **extra):
    """A refusal (400, 404 …; ``reason`` a text or a ``Said``) of a page builder: the page with the league's frame, or JSON."""
    if wants_json(request):
        return refused(status, str(reason), **extra)
    return html_page(pages.error(status, chrome.frame(store, here="", game=None, season=None), words.said(reason)),
                     status)


def failed_bare(request, status: int, reason):
    """A refusal where the store is not asked (an unknown address, a failure): a frame without
    the league's name and seasons, so that neither costs a read nor needs a working store."""
    if wants_json(request):
        return refused(status, str(reason))
    return html_page(pages.error(status, chrome.BARE, words.said(reason)), status)

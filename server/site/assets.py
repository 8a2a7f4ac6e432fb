"""The site's stylesheet and script (server/site/static), served under names that carry a hash of
their content: a browser keeps them for a year, and a new version is a new name."""
import hashlib
from pathlib import Path

from starlette.responses import Response
from starlette.routing import Route

STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
FOREVER = "public, max-age=31536000, immutable"


def _hashed(name: str) -> tuple[str, bytes]:
    body = (STATIC / name).read_bytes()
    stem, suffix = name.rsplit(".", 1)
    return f"/static/{stem}-{hashlib.sha256(body).hexdigest()[:12]}.{suffix}", body


_FILES = {name: _hashed(name) for name in ("site.css", "site.js")}
STYLE, SCRIPT = _FILES["site.css"][0], _FILES["site.js"][0]
_BY_PATH = {path: (body, TYPES["." + path.rsplit(".", 1)[1]]) for path, body in _FILES.values()}


async def _asset(request):
    found = _BY_PATH.get(request.url.path)
    if found is None:
        return Response(status_code=404)
    body, media_type = found
    return Response(body, media_type=media_type, headers={"Cache-Control": FOREVER})


def routes() -> list[Route]:
    return [Route(path, _asset, methods=["GET"]) for path in _BY_PATH]

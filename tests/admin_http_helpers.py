"""A browser-like client of the league's web admin over real HTTP: it keeps the session cookie and
sends every form with the CSRF token of the page it last loaded."""
import http.client
import re
from urllib.parse import urlencode

TOKEN = "organiser-admin-token-0123456789"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


class AdminClient:
    """``language``: the ``lang`` cookie the browser sends (None: none, so Czech), kept as the site sets it."""

    def __init__(self, port: int, language: str | None = None):
        self.port, self.cookie, self.csrf, self.language = port, None, None, language
        self.set_cookie = ""          # the last Set-Cookie header of the session received

    def request(self, method: str, path: str, body: bytes | None = None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)   # a net for a hang, not a speed bound
        headers = dict(headers or {})
        cookies = [c for c in (self.cookie, self.language and f"lang={self.language}") if c]
        if cookies:
            headers["Cookie"] = "; ".join(cookies)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            status, answer_headers, data = response.status, response.getheaders(), response.read()
        finally:
            conn.close()
        for name, value in answer_headers:
            if name.lower() == "set-cookie" and value.startswith("lang="):
                self.language = value.split(";")[0].split("=", 1)[1]
            elif name.lower() == "set-cookie":
                self.set_cookie = value
                pair = value.split(";")[0]
                self.cookie = None if pair.endswith('=""') or pair.endswith("=") else pair
        page = data.decode("utf-8")
        found = CSRF.search(page)
        if found:
            self.csrf = found[1]
        return status, dict(answer_headers), page

    def get(self, path: str):
        status, headers, page = self.request("GET", path)
        return status, page, headers

    def post(self, path: str, fields: dict, *, csrf: bool = True, raw: bytes | None = None):
        fields = ({"csrf": self.csrf} if csrf else {}) | fields
        body = raw if raw is not None else urlencode(fields).encode()
        status, headers, page = self.request("POST", path, body,
                                             {"Content-Type": "application/x-www-form-urlencoded"})
        return status, page, headers

    def change(self, path: str, fields: dict) -> str:
        """A form that changes the league: answered with a redirect to the page it was made on
        (Post/Redirect/Get), which is fetched as a browser follows it; that page's text."""
        status, page, headers = self.post(path, fields)
        assert status == 303, page
        status, page, _ = self.get(headers["location"])
        assert status == 200, page
        return page

    def login(self, token: str = TOKEN):
        self.get("/admin/login")
        return self.post("/admin/login", {"token": token})

    def enter(self, token: str = TOKEN) -> "AdminClient":
        """Logged in as a browser does it: the login form, then the page it leads to (its CSRF token)."""
        status, _, headers = self.login(token)
        assert status == 303 and headers["location"] == "/admin"
        assert self.get("/admin")[0] == 200
        return self

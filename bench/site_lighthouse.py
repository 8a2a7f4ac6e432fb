"""Lighthouse's scores of the league site's pages (a manual run, not in CI; docs/server.md quotes it):

    .venv/bin/python bench/site_lighthouse.py [--lighthouse "npx --yes lighthouse@12.2.3"]

The demo league of tests/site_helpers.py served on 127.0.0.1 (a partie on the live board), and
npm's lighthouse, pinned to 12.2.3, driving Debian's Chromium (CHROME_PATH=/usr/bin/chromium) with
its default mobile settings, for the home, table, match record (zápis), player and live pages.
Prints one line per page: performance, accessibility, best practices, SEO, and any audit that
cost a point.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
PAGES = ("home", "table", "match", "player", "live")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking"


def run(lighthouse: list[str], url: str, out: Path) -> dict:
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    subprocess.run([*lighthouse, url, "--quiet", f"--chrome-flags={FLAGS}",
                    f"--only-categories={','.join(CATEGORIES)}", "--output=json", f"--output-path={out}"],
                   check=True, env=env, timeout=600)
    return json.loads(out.read_text(encoding="utf-8"))


def lost(report: dict) -> list[str]:
    """The weighted audits that did not pass, as "category: audit (score)"."""
    out = []
    for key, category in report["categories"].items():
        for ref in category["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref.get("weight") and audit.get("score") is not None and audit["score"] < 1:
                out.append(f"{key}: {ref['id']} ({audit['score']})")
    return out


def main(argv=None) -> int:
    from site_helpers import serve_demo

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", default="npx --yes lighthouse@12.2.3", help="the command that runs lighthouse")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, serve_demo(Path(tmp)) as site:
        paths = dict(site.public_pages())
        for name in PAGES:
            if name == "live":
                site.show_a_table_live()
            report = run(shlex.split(args.lighthouse), site.url + paths[name], Path(tmp) / f"{name}.json")
            scores = "  ".join(f"{key} {round(report['categories'][key]['score'] * 100)}" for key in CATEGORIES)
            print(f"{name:8} {scores}  {'; '.join(lost(report))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

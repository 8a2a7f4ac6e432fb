"""Markdown to HTML for the rules page (markdown-it-py, CommonMark with tables): raw HTML in a
text is escaped, not passed through, and links to javascript: and the like are refused by the
library's link check, so a rules text cannot put markup or script on the page."""
from markdown_it import MarkdownIt
from markupsafe import Markup

_md = MarkdownIt("commonmark", {"html": False}).enable("table")


def to_html(text: str, *, shift: int = 0, after_first_rule: bool = False) -> Markup:
    """``text`` as HTML; ``shift``: headings that many levels lower (## becomes ### for 1), so a
    text fits under the page's own headings; ``after_first_rule``: only what follows its first
    thematic break (RULES.md's preamble names files that mean nothing on the site)."""
    tokens = _md.parse(text)
    if after_first_rule:
        rule = next((n for n, token in enumerate(tokens) if token.type == "hr"), None)
        tokens = tokens[rule + 1:] if rule is not None else tokens
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + shift)}"
    return Markup(_md.renderer.render(tokens, _md.options, {}))

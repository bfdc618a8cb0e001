"""report.html: the report as one self-contained page (charts inlined as data URIs, no script, no network).

The markdown the report composes is rendered with Python-Markdown (tables extension); every local
image is read and embedded, so the file can be mailed or attached to a post as it is.
"""

from __future__ import annotations

import base64
import html
import pathlib
import re

import markdown

#: One stylesheet, inline: readable tables, charts scaled to the page, verdict words kept bold.
_CSS = """
body { font: 15px/1.5 -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; color: #222; max-width: 1180px;
       margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; display: block; overflow-x: auto; }
th, td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; } th { background: #f5f5f5; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; height: auto; display: block; margin: 1em 0; }
code { background: #f3f3f3; padding: 0 3px; border-radius: 3px; font-size: 90%; }
"""

_IMG = re.compile(r'<img alt="([^"]*)" src="([^"]+)"')
_MIME = {".png": "image/png", ".svg": "image/svg+xml"}
_MD_LINK = re.compile(r'href="([^":]+)\.md"')


def _inline(match: re.Match, base: pathlib.Path) -> str:
    alt, src = match.group(1), match.group(2)
    path = (base / src).resolve()
    if src.startswith(("data:", "http:", "https:")) or path.suffix not in _MIME or not path.is_file():
        return match.group(0)
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{alt}" src="data:{_MIME[path.suffix]};base64,{data}"'


def _html_link(match: re.Match, base: pathlib.Path) -> str:
    """A link to a local page.md that has a page.html beside it points to the html (a page read in a browser links to
    pages a browser shows)."""
    stem = match.group(1)
    return f'href="{stem}.html"' if (base / f"{stem}.html").is_file() else match.group(0)


def render_html(markdown_text: str, base: pathlib.Path) -> str:
    """The whole page for a report whose relative image paths start at `base`."""
    body = markdown.markdown(markdown_text, extensions=["tables"], output_format="html")
    body = _IMG.sub(lambda m: _inline(m, base), body)
    body = _MD_LINK.sub(lambda m: _html_link(m, base), body)
    title = next(
        (line[2:].strip() for line in markdown_text.splitlines() if line.startswith("# ")), "JSON serializer lab report"
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>\n'
        f"<style>{_CSS}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )

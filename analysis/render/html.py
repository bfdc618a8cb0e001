"""report.html: the report as one self-contained page (charts inlined as data URIs, no script, no network).

The markdown the report composes is rendered with Python-Markdown (tables extension) with raw HTML switched off, so a
tag in any string is shown as text; links are kept only where analysis/render/untrusted.py allows them; every image
of the report's own folder is read and embedded, so the file can be mailed or attached to a post as it is, and any
other image is left out. A Content-Security-Policy forbids scripts and loads from anywhere.
"""

from __future__ import annotations

import base64
import html
import pathlib
import re
import urllib.parse
import xml.etree.ElementTree as etree

import markdown
from markdown.treeprocessors import Treeprocessor

from analysis.render.untrusted import allowed_link, neutral_markdown

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

#: A backslash escape in Markdown text ('\\(' shows '('): a page's title is shown without them.
_MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!~|])")
_MIME = {".png": "image/png", ".svg": "image/svg+xml"}
#: Largest image embedded (a chart is a few hundred KB).
MAX_IMAGE_BYTES = 20 * 1024 * 1024
#: No script, no load from anywhere but the page itself (its images are data: URIs), no form, no <base>.
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


class _Neutralize(Treeprocessor):
    """Every link allowed by `allowed_link` (a local page.md with its page.html beside it linked as the html), every
    other link made text; every image a file of the report's own folder, embedded, and any other image its alt
    text."""

    def __init__(self, md: markdown.Markdown, base: pathlib.Path, up: int = 0) -> None:
        super().__init__(md)
        self.base = base.resolve()
        self.up = up  # how many folders above `base` a link may climb (analysis/render/untrusted.py allowed_link)

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if element.tag == "a":
                self._link(element)
            elif element.tag == "img":
                self._image(element)

    def _link(self, element: etree.Element) -> None:
        href = element.get("href", "")
        if not allowed_link(href, self.up):
            element.attrib.pop("href", None)
            element.tag = "span"
            return
        if not urllib.parse.urlsplit(href).scheme:
            path, _, fragment = href.partition("#")
            if path.endswith(".md") and (self.base / urllib.parse.unquote(path[:-3] + ".html")).is_file():
                element.set("href", path[:-3] + ".html" + (f"#{fragment}" if fragment else ""))
        else:
            element.set("rel", "noopener noreferrer")

    def _image(self, element: etree.Element) -> None:
        src = element.get("src", "")
        data = self._embedded(src)
        if data is not None:
            element.set("src", data)
            return
        alt = element.get("alt", "")
        element.attrib.clear()
        element.tag = "em"
        element.text = f"[image {alt!r} left out: {src[:200]!r} is not a file of this report]"

    def _embedded(self, src: str) -> str | None:
        """The data: URI of a PNG or SVG inside the report's folder; None for anything else."""
        if not allowed_link(src) or urllib.parse.urlsplit(src).scheme:
            return None
        path = (self.base / urllib.parse.unquote(src.partition("#")[0])).resolve()
        if not path.is_relative_to(self.base) or path.suffix not in _MIME or not path.is_file():
            return None
        if path.stat().st_size > MAX_IMAGE_BYTES:
            return None
        return f"data:{_MIME[path.suffix]};base64,{base64.b64encode(path.read_bytes()).decode()}"


def _markdown(base: pathlib.Path, up: int = 0) -> markdown.Markdown:
    """Python-Markdown with tables and without raw HTML: a tag in the text is shown as text."""
    md = markdown.Markdown(extensions=["tables"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_Neutralize(md, base, up), "neutralize", -10)
    return md


def _unescaped(match: re.Match[str]) -> str:
    return match.group(1)


def render_html(markdown_text: str, base: pathlib.Path, up: int = 0) -> str:
    """The whole page for a report whose relative image paths start at `base` (see the module for what is allowed);
    a link may climb `up` folders above it (allowed_link), an image never."""
    body = _markdown(base, up).convert(neutral_markdown(markdown_text, up))
    title = next(
        (line[2:].strip() for line in markdown_text.splitlines() if line.startswith("# ")), "JSON serializer lab report"
    )
    plain_title = _MARKDOWN_ESCAPE.sub(_unescaped, title)
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n<meta name="referrer" content="no-referrer">\n'
        f"<title>{html.escape(html.unescape(plain_title)[:300])}</title>\n<style>{_CSS}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )

"""Untrusted text in a report: every string from an experiment file, a dataset manifest, a lab's output or a run
folder is text, never markup.

The report's own Markdown carries no raw HTML, so `neutral_markdown` escapes every `<` outside code (no tag, comment
or autolink of anyone's survives into report.md), drops control, zero-width and bidirectional characters
(harness/model/characters.py, the one list data files refuse), and turns a
link or image whose target is not allowed into plain text. `allowed_link` is the one rule for targets, used here and
by report.html's renderer (analysis/render/html.py): http(s) with a host, a fragment, or a path relative to the
report that does not climb out of its folder.
"""

from __future__ import annotations

import functools
import re
import urllib.parse

from harness.model.characters import INVISIBLE

#: A code span's opening run of backticks (its closing run is the next run of the same length).
_BACKTICKS = re.compile(r"`+")
#: A Markdown link or image: `[text](target` or `![alt](target`; the target up to whitespace or the closing paren.
_LINK = re.compile(r"(!?\[[^\]\n]*\])\(\s*<?([^)\s>]*)>?")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def allowed_link(target: str, up: int = 0) -> bool:
    """Whether a link or image target may stay a link: http(s) to a host, '#fragment', or a relative path that stays
    in the report's folder (no scheme, no leading '/', no control character or backslash, and no '..' segment that
    climbs above it). `up` lets a page climb that many folders above its own and no further: a run's page over its
    hosts (report/report.md) links each host's report (../hosts/<host>/report/report.md) inside the run folder."""
    if not target or len(target) > 2048 or any(ord(c) < 0x21 or c == "\\" for c in target):
        return False
    parts = urllib.parse.urlsplit(target)
    if parts.scheme:
        return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)
    if parts.netloc or target.startswith("/"):
        return False
    segments = urllib.parse.unquote(parts.path).split("/")
    return _stays_within(segments, up) and not any(":" in s for s in segments[:1])


def _stays_within(segments: list[str], up: int) -> bool:
    """True when a relative path, segment by segment, never climbs more than `up` folders above where it starts."""
    depth = 0
    for segment in segments:
        depth += -1 if segment == ".." else 0 if segment in ("", ".") else 1
        if depth < -up:
            return False
    return True


def _outside_code(line: str, edit) -> str:
    """The line with `edit` applied to every stretch outside a code span."""
    out, position = [], 0
    while (opening := _BACKTICKS.search(line, position)) is not None:
        run = opening.group(0)
        closing = re.compile(rf"(?<!`){run}(?!`)").search(line, opening.end())
        if closing is None:  # an unmatched run is literal backticks: keep scanning after it
            out.append(edit(line[position : opening.end()]))
            position = opening.end()
            continue
        out.append(edit(line[position : opening.start()]))
        out.append(line[opening.start() : closing.end()])
        position = closing.end()
    out.append(edit(line[position:]))
    return "".join(out)


def _neutral_text(text: str, up: int = 0) -> str:
    text = text.replace("<", "&lt;")
    return _LINK.sub(lambda m: m.group(0) if allowed_link(m.group(2), up) else m.group(1) + "\\(" + m.group(2), text)


def neutral_markdown(markdown_text: str, up: int = 0) -> str:
    """The report's Markdown with no raw HTML and no disallowed link (see the module; `up` as allowed_link's); code
    spans and fenced code blocks are left as they are (Markdown shows them as text)."""
    edit = functools.partial(_neutral_text, up=up)
    lines, fence = [], ""
    for line in INVISIBLE.sub("", markdown_text).split("\n"):  # the lab's one list: controls, zero-width, bidi
        marker = _FENCE.match(line)
        if fence:
            fence = "" if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence) else fence
            lines.append(line)
        elif marker:
            fence = marker.group(1)
            lines.append(line)
        else:
            lines.append(_outside_code(line, edit))
    return "\n".join(lines)


#: Every character Markdown may read as markup inside a line (Python-Markdown's backslash escapes); a table's pipe is
#: escaped by the table (analysis/formatting/tables.py markdown_table).
_MARKUP = re.compile(r"([\\`*_{}\[\]()#+\-.!~])")


def literal(text: object, limit: int = 300) -> str:
    """Untrusted text as Markdown that shows it as it is, on one line: no markup of its own (every character Markdown
    reads as markup escaped, so a link, emphasis or a tag is shown as its characters), no control or
    invisible character, at most `limit` characters (then '…'); an entity is shown as written (its `&` escaped) and
    a `<` is left to neutral_markdown, which every page passes through."""
    flat = " ".join(INVISIBLE.sub("", str(text)).split())
    flat = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return _MARKUP.sub(r"\\\1", flat.replace("&", "&amp;"))

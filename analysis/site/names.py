"""Where each page of the site lives, from names the store holds: a write-up's id, a figure's claim and metric, a run's
id. Those are untrusted text (a run folder copied from another host is input the lab has never seen), so a page's file
name is made from them, never is them: lower-case letters, digits and hyphens, bounded, with a digest of the whole name
so two names that read alike never share a page."""

from __future__ import annotations

import hashlib
import re
import urllib.parse

from harness.model.folder.run_folder import REPORT_DIR, REPORT_HTML

#: A run id that may be part of a path or link (run folders are named by the harness like this).
SAFE_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
#: The longest readable part of a page's file name (its digest after it).
SLUG_CHARS = 48
#: The site's index page, and a write-up's page inside its folder.
INDEX_PAGE = "index.html"


def slug(*parts: str) -> str:
    """A file-name-safe, bounded, unique name for `parts`: 'myclass-newtonsoftjson-camel-time-1a2b3c4d'."""
    readable = re.sub(r"[^a-z0-9]+", "-", " ".join(parts).lower()).strip("-")[:SLUG_CHARS].strip("-") or "page"
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{readable}-{digest}"


def writeup_folder(experiment: str) -> str:
    """The folder of a write-up's pages, under the site's root."""
    return slug("writeup", experiment)


def figure_page(claim: str, metric: str) -> str:
    """A figure's page, inside its write-up's folder."""
    return f"{slug(claim, metric)}.html"


def run_report_link(run_id: str, up: int) -> str:
    """The link from a page `up` folders below the site's root to a run's report.html (the site is
    <results>/site/, each run <results>/<run_id>/), its run id quoted."""
    return "../" * (up + 1) + f"{urllib.parse.quote(run_id, safe='')}/{REPORT_DIR}/{REPORT_HTML}"


def safe_run_id(run_id: str) -> bool:
    """Whether a run id from the store may name a folder the site reads or links (the harness names runs like this;
    never '.', '..' or a path)."""
    return bool(SAFE_RUN_ID.fullmatch(run_id)) and run_id not in (".", "..")

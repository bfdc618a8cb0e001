"""A run folder whose kept experiment files carry hostile strings (finding 1 of issue 44): report.md holds no raw HTML,
report.html holds no element, attribute or link but the report's own, and in headless Chromium no script runs and no
request leaves the page."""

import html.parser
import shutil

import pytest

from analysis.render.html import CSP
from analysis.render.untrusted import allowed_link
from analysis.render.writer import write_report
from analysis.tools.screenshot import check_page

#: Each one, if it were live, would make a request to loopback's discard port or run a script that does.
LEAK = "http://127.0.0.1:9/leak"
HOSTILE = {
    "title": f"Pwn <script>fetch('{LEAK}')</script> <img src=x onerror=\"fetch('{LEAK}')\">",
    "writeup": f"[click](javascript:fetch('{LEAK}')) ![host](../../../../etc/hostname) <{LEAK}>",
    "group": f'<style>body{{background:url({LEAK})}}</style><iframe src="{LEAK}"></iframe>',
    "note": f'![remote]({LEAK}/pixel.png) <a href="{LEAK}">x</a> <!-- c --> <svg onload=alert(1)>',
    "version": f'`code` <object data="{LEAK}"></object> <base href="{LEAK}/">',
    "setup": f'macOS | <img src="{LEAK}/os.png"> [os](javascript:alert(1))',
}

#: Every element report.html may hold.
ALLOWED_TAGS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p", "a", "img", "em", "strong", "code",
    "pre", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "hr", "br", "blockquote", "span",
}  # fmt: skip


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture(scope="module")
def hostile_run(fake_run, tmp_path_factory):
    """A copy of the fake run whose kept write-up 001 carries the hostile strings."""
    run = tmp_path_factory.mktemp("hostile") / fake_run.name
    shutil.copytree(fake_run, run, ignore=shutil.ignore_patterns("report"))
    kept = next((run / "experiments").glob("001-*.toml"))
    text = kept.read_text()
    replacements = {
        'title = "System.Text.Json vs Newtonsoft.Json on Employee records"': (
            f"title = {_toml_string(HOSTILE['title'])}"
        ),
        "writeup = ": f"writeup = {_toml_string(HOSTILE['writeup'])}\nignored_writeup = ",
        'title = "One Employee (68-byte payload)"': f"title = {_toml_string(HOSTILE['group'])}",
        "note = \"the post's first comparison": f"note = {_toml_string(HOSTILE['note'])}\nignored = \"",
        '"Newtonsoft.Json" = "13.0.1"': f'"Newtonsoft.Json" = {_toml_string(HOSTILE["version"])}',
        'os = "macOS 11.2.3 (20D91) [Darwin 20.3.0]"': f"os = {_toml_string(HOSTILE['setup'])}",
    }
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    kept.write_text(text.replace("ignored_writeup = ", "# ").replace('ignored = "', "# "))
    write_report(run)
    return run


class _Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_the_hostile_strings_reached_the_report_as_text(hostile_run):
    md = (hostile_run / "report" / "report.md").read_text()
    assert "Pwn &lt;script>" in md and "<script" not in md and "<img" not in md and "<iframe" not in md
    setup = md[md.index("## Setup: publisher and this run") :]
    assert "| OS | macOS \\| &lt;img src=" in setup, "the publisher's setup is text, its pipe escaped"
    page = (hostile_run / "report" / "report.html").read_text()
    assert "Pwn &lt;script&gt;fetch(" in page, "shown, as text"


def test_report_html_holds_only_the_reports_own_elements_attributes_and_links(hostile_run):
    parser = _Elements()
    parser.feed((hostile_run / "report" / "report.html").read_text())
    for tag, attrs in parser.tags:
        assert tag in ALLOWED_TAGS, tag
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        if tag == "a" and "href" in attrs:
            assert allowed_link(attrs["href"] or ""), attrs
        if tag == "img":
            assert (attrs.get("src") or "").startswith(("data:image/png;base64,", "data:image/svg+xml;base64,")), attrs
    metas = [attrs for tag, attrs in parser.tags if tag == "meta"]
    assert {"http-equiv": "Content-Security-Policy", "content": CSP} in metas
    assert "script-src" not in CSP and "default-src 'none'" in CSP


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (CI installs it)")
def test_in_headless_chromium_no_script_runs_and_no_request_leaves_the_page(hostile_run):
    check = check_page(hostile_run / "report" / "report.html")
    assert check.requests == [] and check.console_errors == [] and check.broken_images == 0
    assert check.problems == []


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (CI installs it)")
def test_the_page_check_catches_a_script_and_a_request(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(f"<!DOCTYPE html><html><body><script>fetch('{LEAK}').catch(() => 0)</script></body></html>")
    check = check_page(page)
    assert any(url.startswith(LEAK) for url in check.requests)
    assert check.problems

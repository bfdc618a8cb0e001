"""Untrusted strings in Markdown: no raw HTML, no disallowed link, no invisible characters
(analysis/render/untrusted.py)."""

import pytest

from analysis.render.untrusted import allowed_link, neutral_markdown


@pytest.mark.parametrize(
    "target",
    ["https://github.com/x/y", "http://example.org/a?b=c#d", "#section", "charts/a.png", "hosts/a/report/report.md"],
)
def test_allowed_links(target):
    assert allowed_link(target)


@pytest.mark.parametrize(
    "target",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "java\tscript:alert(1)",
        " javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:x",
        "file:///etc/passwd",
        "/etc/passwd",
        "../../secret.png",
        "charts/../../x.png",
        "charts/%2e%2e/%2e%2e/x.png",
        "//evil.example/x",
        "https:///nohost",
        "\\\\server\\share",
        "",
        "a" * 3000,
    ],
)
def test_refused_links(target):
    assert not allowed_link(target)


def test_raw_html_is_escaped_outside_code_and_kept_inside():
    text = "Title <script>alert(1)</script> and `<code>` and ``a ` <b>``\n```\n<pre>\n```\n<i>after</i>"
    out = neutral_markdown(text)
    assert "<script>" not in out and "&lt;script>alert(1)&lt;/script>" in out
    assert "`<code>`" in out and "``a ` <b>``" in out, "code spans are text already"
    assert "\n<pre>\n" in out, "a fenced block is text already"
    assert out.endswith("&lt;i>after&lt;/i>")


def test_an_unclosed_backtick_does_not_shield_what_follows():
    assert neutral_markdown("a ` <script>") == "a ` &lt;script>"


def test_disallowed_links_and_images_become_text_and_allowed_ones_stay():
    out = neutral_markdown("[x](javascript:alert(1)) ![y](../../etc/hostname) [ok](https://a.org) ![c](charts/c.png)")
    assert "[x]\\(javascript:" in out and "![y]\\(../../etc/hostname" in out
    assert "[ok](https://a.org)" in out and "![c](charts/c.png)" in out


def test_bidi_overrides_and_controls_are_dropped():
    assert neutral_markdown("abc\u202edcba\u2066x\u2069\x07\x1b[31m") == "abcdcbax[31m"
    # what the data files refuse, a report drops: two names that read alike are shown alike, and are told apart
    assert neutral_markdown("stj\u200b-default \u200fa\ufeff") == "stj-default a"


@pytest.mark.parametrize(
    "target, up, allowed",
    [
        ("../hosts/local/report/report.md", 1, True),  # a run's page over its hosts, to a host's own report
        ("../hosts/local/report/report.md", 0, False),  # any other report stays in its folder
        ("../../secret.png", 1, False),  # out of the run folder
        ("../hosts/../../x", 1, False),
        ("%2e%2e/%2e%2e/x", 1, False),
        ("charts/../report.md", 0, True),  # climbs back into the folder it started in
        ("../javascript:alert(1)", 1, True),  # a relative path with a colon past its first segment: a file name
        ("javascript:alert(1)", 1, False),
    ],
)
def test_a_page_may_climb_as_many_folders_as_it_is_given_and_no_more(target, up, allowed):
    assert allowed_link(target, up) is allowed


def test_the_lab_s_links_up_to_the_run_folder_survive_and_hostile_ones_stay_text():
    text = "[local](../hosts/local/report/report.md) [x](../../../etc/passwd) [y](../../run/raw/secret)"
    out = neutral_markdown(text, up=1)
    assert "[local](../hosts/local/report/report.md)" in out
    assert "[x]\\(../../../etc/passwd" in out and "[y]\\(../../run/raw/secret" in out
    assert "[local]\\(../hosts" in neutral_markdown(text), "a page that may not climb keeps its links text"

"""report.html: self-contained, and it renders in headless Chromium without errors or broken images."""

import shutil

import pytest

from analysis.render.html import render_html
from analysis.render.writer import write_report
from analysis.tools.screenshot import check_page


def test_local_images_are_inlined_and_nothing_is_fetched(tmp_path):
    (tmp_path / "charts").mkdir()
    (tmp_path / "charts" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    page = render_html("# Title\n\n![chart](charts/a.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", tmp_path)
    assert 'src="data:image/png;base64,' in page and "charts/a.png" not in page
    assert "<table>" in page and "<title>Title</title>" in page
    assert "http:" not in page.replace("https://", "").split("<body>")[0]  # no external stylesheet or font
    assert "<script" not in page


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (CI installs it)")
def test_the_report_renders_in_headless_chromium_without_console_errors_or_broken_images(fake_run):
    write_report(fake_run)
    page = fake_run / "report" / "report.html"
    check = check_page(page)
    assert check.console_errors == []
    assert check.images >= 4 and check.broken_images == 0
    assert check.screenshot_png.startswith(b"\x89PNG") and len(check.screenshot_png) > 20_000


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (CI installs it)")
def test_a_broken_image_is_caught(tmp_path):
    (tmp_path / "page.html").write_text('<!DOCTYPE html><html><body><img src="missing.png"></body></html>')
    check = check_page(tmp_path / "page.html")
    assert check.images == 1 and check.broken_images == 1
    assert check.console_errors  # the failed load is reported


def test_links_to_local_markdown_pages_point_to_their_html_where_it_exists(tmp_path):
    (tmp_path / "hosts" / "a" / "report").mkdir(parents=True)
    (tmp_path / "hosts" / "a" / "report" / "report.html").write_text("<html/>")
    page = render_html(
        "[a](hosts/a/report/report.md), [b](hosts/b/report/report.md), [w](https://x.org/r.md)", tmp_path
    )
    assert 'href="hosts/a/report/report.html"' in page, "its html exists: linked"
    assert 'href="hosts/b/report/report.md"' in page and 'href="https://x.org/r.md"' in page, "the others unchanged"

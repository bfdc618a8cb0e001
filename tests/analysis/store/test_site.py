"""The history site from a store of several fake runs: the index lists write-ups and runs, a figure that moved
between two runs of one host shows the change point and one that did not shows none, the latest explain run's ladders
are on the write-up's page, hostile strings and run ids are text, every page holds only the report's own elements and
passes the check in headless Chromium, and a missing store is an error with its fix."""

from __future__ import annotations

import pathlib
import shutil

import pytest

from analysis.cli import main
from analysis.site.build import build_site
from analysis.site.names import figure_page, writeup_folder
from analysis.store.database import StoreError
from analysis.store.importer import import_runs, run_folders
from analysis.tools.screenshot import check_page
from tests.analysis.render.test_hostile_report import ALLOWED_TAGS, CSP, LEAK, _Elements, allowed_link
from tests.analysis.store.conftest import ENVIRONMENTS, RUN_IDS, SLOWER, copied_run, edit_json, edit_rows, slower

#: The figure of write-up 000 the source run measures, and the scenario the hostile run gives it.
CLAIM = "MyClass deserialize, STJ vs Newtonsoft camel payload (blog table 2) · SystemTextCaseInsensitive_Camel"
HOSTILE_SCENARIO = f"Pwn <script>fetch('{LEAK}')</script> [x](javascript:alert(1)) | *b*"
#: A run id a copied folder could have: markup in a folder's name.
HOSTILE_RUN = '2026-12-05T10-00-00Z"><img src=x onerror=alert(1)>'
_PNG = b"\x89PNG\r\n\x1a\n" + bytes.fromhex(
    "0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5e2a3e4"
    "0000000049454e44ae426082"
)


@pytest.fixture(scope="module")
def site(source_run, tmp_path_factory) -> pathlib.Path:
    """results/ with the three store runs (host A, B, A; Newtonsoft 1.5× slower in the third), a fourth run on host B
    whose kept write-up carries a hostile scenario and whose folder name carries markup, an explain run on host B with
    a ladder chart (and a file that only pretends to be one), a report for the first run; the store and its site."""
    results = tmp_path_factory.mktemp("site") / "results"
    runs = [copied_run(source_run, results, run_id, env) for run_id, env in zip(RUN_IDS, ENVIRONMENTS)]
    edit_rows(runs[2], slower("newtonsoft-default", SLOWER))
    hostile = copied_run(
        source_run, results, HOSTILE_RUN, {**ENVIRONMENTS[1], "captured_at": "2026-12-05T10:00:05+00:00"}
    )
    kept = next((hostile / "experiments").glob("000-*.toml"))
    text = kept.read_text()
    assert "MyClass deserialize, case sensitivity (blog table 1)" in text
    kept.write_text(text.replace("MyClass deserialize, case sensitivity (blog table 1)", HOSTILE_SCENARIO))
    explain = copied_run(
        source_run, results, "2026-12-06T10-00-00Z", {**ENVIRONMENTS[1], "captured_at": "2026-12-06T10:00:05+00:00"}
    )
    edit_json(explain / "run.json", {"profile": "explain"})
    charts = explain / "report" / "charts"
    charts.mkdir(parents=True)
    (charts / "000-explained-01-camel.png").write_bytes(_PNG)
    (charts / "000-explained-02-fake.png").write_text("<script>alert(1)</script>")
    (runs[0] / "report").mkdir()
    (runs[0] / "report" / "report.html").write_text("<!DOCTYPE html><title>report</title>")
    store = results / "store.sqlite"
    results_ = import_runs(store, run_folders(results))
    assert [r.outcome for r in results_] == ["imported"] * 5, [r.line() for r in results_]
    build_site(store, results / "site", results)
    return results / "site"


def _figure(site: pathlib.Path, claim: str = CLAIM) -> str:
    return (site / writeup_folder("000") / figure_page(claim, "time").replace(".md", ".html")).read_text()


def _pages(site: pathlib.Path) -> list[pathlib.Path]:
    return sorted(site.rglob("*.html"))


def test_the_index_lists_the_writeup_and_every_run_linking_only_reports_that_exist(site):
    index = (site / "index.html").read_text()
    assert f'href="{writeup_folder("000")}/index.html"' in index
    assert all(run in index for run in RUN_IDS)
    assert f'href="../{RUN_IDS[0]}/report/report.html"' in index
    assert f"../{RUN_IDS[1]}/report" not in index


def test_a_figure_that_moved_between_two_runs_of_one_host_shows_the_change_and_the_other_host_none(site):
    page = _figure(site)
    assert f"moved between run {RUN_IDS[0]} and run {RUN_IDS[2]} by" in page.replace("\\", "")
    assert "none: no run moved beyond the intervals" in page  # host B's runs did not move
    assert 'src="data:image/png;base64,' in page, "the history chart is embedded"


def test_the_writeup_page_shows_verdicts_over_runs_and_the_latest_explain_runs_real_ladder_only(site):
    page = (site / writeup_folder("000") / "index.html").read_text()
    assert "2026-12-06T10-00-00Z" in page and "ladder 1" in page
    assert sorted(p.name for p in (site / writeup_folder("000")).glob("ladder-*.png")) == ["ladder-01.png"]
    assert "run 1" in page and "change points" in page


def test_hostile_strings_and_run_ids_are_text_and_every_page_holds_only_the_reports_own_elements(site):
    pages = _pages(site)
    assert len(pages) >= 4
    text = "".join(p.read_text() for p in pages)
    assert "&lt;script&gt;fetch(" in text and "&lt;img src=x onerror=alert(1)&gt;" in text
    for page in pages:
        parser = _Elements()
        parser.feed(page.read_text())
        for tag, attrs in parser.tags:
            assert tag in ALLOWED_TAGS, (page, tag)
            assert not [name for name in attrs if name.startswith("on")], (page, tag, attrs)
            if tag == "a" and "href" in attrs:
                assert allowed_link(attrs["href"] or "", 2) and "javascript" not in (attrs["href"] or ""), attrs
            if tag == "img":
                assert (attrs.get("src") or "").startswith("data:image/png;base64,"), attrs
        assert {"http-equiv": "Content-Security-Policy", "content": CSP} in [a for t, a in parser.tags if t == "meta"]


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (CI installs it)")
def test_in_headless_chromium_each_kind_of_page_renders_with_no_problem(site):
    writeup = site / writeup_folder("000")
    figure = next(p for p in writeup.glob("*.html") if p.name != "index.html")
    for page in (site / "index.html", writeup / "index.html", figure):
        check = check_page(page)
        assert check.problems == [], (page, check.problems)
        assert check.screenshot_png.startswith(b"\x89PNG") and check.broken_images == 0


def test_a_new_build_replaces_the_old_site_whole(site, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "stale.html").write_text("old")
    store = site.parent / "store.sqlite"
    summary = build_site(store, out, site.parent)
    assert not (out / "stale.html").exists() and (out / "index.html").is_file()
    assert summary.writeups == 1 and summary.changes >= 1 and "python3 -m http.server" in summary.line()
    assert [p.name for p in tmp_path.iterdir()] == ["site"], "no building or old folder is left beside it"


def test_no_store_is_an_error_with_its_fix(tmp_path, capsys):
    with pytest.raises(StoreError, match="no results store"):
        build_site(tmp_path / "none.sqlite", tmp_path / "site", tmp_path)
    assert main(["site", "--store", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert "error: no results store" in err and "just store" in err and "Traceback" not in err
    (tmp_path / "junk.sqlite").write_text("not a database at all " * 100)
    assert main(["site", "--store", str(tmp_path / "junk.sqlite"), "--out", str(tmp_path / "site")]) == 2
    assert not (tmp_path / "site").exists()


def test_each_page_links_back_to_its_writeup_and_the_index_by_their_html_names(site):
    figure = _figure(site)
    assert 'href="index.html"' in figure and 'href="../index.html"' in figure and "index.md" not in figure
    assert 'href="../index.html"' in (site / writeup_folder("000") / "index.html").read_text()

"""The committed sample report: a run's report, small, naming its run and commit."""

from PIL import Image

from analysis.render.writer import write_report
from analysis.tools.sample import write_sample


def test_a_sample_keeps_the_pages_and_the_charts_they_show_in_a_palette_and_names_its_run(fake_run, tmp_path):
    write_report(fake_run)
    sample = write_sample(fake_run, tmp_path / "sample")
    out = sample.parent
    assert "`golden-run`" in sample.read_text() and "commit" in sample.read_text()
    assert (out / "report.md").read_text() == (fake_run / "report" / "report.md").read_text()
    charts = sorted((out / "charts").glob("*.png"))
    assert charts and all(Image.open(c).mode == "P" for c in charts)
    assert not list((out / "charts").glob("*.svg")) and not (out / "report.html").exists()
    assert (out / "tables" / "results.csv").is_file() and not (out / "tables" / "rounds.csv").exists()

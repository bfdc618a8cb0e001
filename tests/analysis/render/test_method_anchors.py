"""The report's method names how ratios across processes were read when the processes timed the native anchors."""

from analysis.sections.method import method_markdown
from harness.model.cells import JobSettings
from harness.model.folder.run_records import RunRecord


def _run(job: dict) -> RunRecord:
    return RunRecord(
        run_id="r", profile="p", design="paired", stopping={"min_rounds": 5}, job=JobSettings(**job), cells=[]
    )


def test_a_run_with_native_anchors_says_its_ratios_across_processes_are_ratios_of_ratios():
    text = method_markdown(_run({"native_anchors": 1}))
    assert "ratio of ratios through the `scan` anchor" in text and "read plainly" in text


def test_a_run_without_them_says_nothing_of_them():
    assert "anchor" not in method_markdown(_run({"burst_ms": 20}))

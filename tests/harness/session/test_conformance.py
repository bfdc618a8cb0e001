import sys
import textwrap

import pytest

from harness.backends.host import HostBackend
from harness.config.lab.labs import LabSpec
from harness.model.defaults import DATASETS_DIR
from harness.model.errors import ConfigError, HarnessError
from harness.session.conformance_run import SuiteFile, load_suite, run_parser, verdict

FAKE_LAB = textwrap.dedent(
    """
    import json, os, sys, time
    args = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    if args["--parser"] != "p":
        print("error: unknown conformance parser", file=sys.stderr); sys.exit(2)
    files = sorted(f for f in os.listdir(args["--files"]) if f.endswith(".json"))
    with open(args["--out"], "a") as out:
        time.sleep(0.4)  # a start-up slower than the per-file limit: allowed its own
        out.write('{"ready": true}\\n'); out.flush()
        for name in files[int(args["--start"]):]:
            data = open(os.path.join(args["--files"], name), "rb").read()
            if data == b"CRASH":
                os._exit(134)
            if data == b"HANG":
                time.sleep(30)
            try:
                json.loads(data); outcome = "accepted"
            except ValueError:
                outcome = "rejected"
            out.write(json.dumps({"file": name, "outcome": outcome, "detail": "", "ms": 0.01}) + "\\n"); out.flush()
"""
)


def test_the_shipped_suite_is_checked_against_its_manifest_with_its_expectations():
    suite = load_suite(DATASETS_DIR)
    assert len(suite) == 318
    counts = {e: sum(f.expectation == e for f in suite) for e in ("accept", "reject", "either")}
    assert counts == {"accept": 95, "reject": 188, "either": 35}
    assert [f.name for f in suite] == sorted(f.name for f in suite)


def test_a_changed_suite_file_is_refused(tmp_path):
    root = tmp_path / "conformance" / "test_parsing"
    root.mkdir(parents=True)
    (root / "y_a.json").write_text("[1]")
    (tmp_path / "conformance" / "MANIFEST.tsv").write_text(
        "path\tbytes\tsha256\texpectation\ntest_parsing/y_a.json\t3\t" + "0" * 64 + "\taccept\n"
    )
    with pytest.raises(ConfigError, match="differs from MANIFEST.tsv"):
        load_suite(tmp_path)


def test_a_crash_or_a_hang_is_that_files_outcome_and_the_suite_goes_on_in_a_new_process(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    suite = []
    for name, content, expectation in [
        ("a_ok.json", b"[1]", "accept"),
        ("b_crash.json", b"CRASH", "either"),
        ("c_bad.json", b"[1,]", "reject"),
        ("d_hang.json", b"HANG", "reject"),
        ("e_bad.json", b"{", "accept"),
    ]:
        (files / name).write_bytes(content)
        suite.append(SuiteFile(name, expectation, ""))
    script = tmp_path / "lab.py"
    script.write_text(FAKE_LAB)
    lab = LabSpec("fake", tmp_path, "Python", "samples", (), (), (sys.executable, str(script)), {})
    records = run_parser(HostBackend(set()), lab, "p", suite, files, tmp_path / "work", None, file_timeout_s=0.2)
    assert [(r["file"], r["outcome"], r["verdict"]) for r in records] == [
        ("a_ok.json", "accepted", "passed"),
        ("b_crash.json", "crashed", "crashed"),
        ("c_bad.json", "rejected", "passed"),
        ("d_hang.json", "hung", "hung"),
        ("e_bad.json", "rejected", "wrongly rejected"),
    ]
    assert "exit code 134" in records[1]["detail"] and "killed" in records[3]["detail"]
    assert (
        len(list((tmp_path / "work").glob("p.*.jsonl"))) == 3
    ), "one process, then one after the crash and one after the hang"
    again = run_parser(HostBackend(set()), lab, "p", suite, files, tmp_path / "work", None, file_timeout_s=0.2)
    assert again == records, "a rerun in the same folder starts from clean output files"
    with pytest.raises(HarnessError, match="cannot run conformance parser q"):
        run_parser(HostBackend(set()), lab, "q", suite, files, tmp_path / "work2", None)


def test_verdicts():
    assert verdict("accept", "rejected") == "wrongly rejected" and verdict("either", "rejected") == "rejected (allowed)"
    assert verdict("reject", "hung") == "hung"


def test_conformance_follows_the_run_backend_unless_told_otherwise():
    from harness.commands.conformance import conformance_backend

    # A run measured in containers: auto, so the lab's own engine is started again when none answers.
    assert conformance_backend("auto", "docker", ()) == "auto"
    # A run measured on the host backend stays there, even where an engine answers now; a run folder written before
    # the rename stores that backend as "native" and is read as host.
    assert conformance_backend("auto", "host", ()) == "host"
    assert conformance_backend("auto", "native", ()) == "host"
    # What the user asks for wins; a lab without an image asks for what the user gave.
    assert conformance_backend("docker", "host", ()) == "docker"
    assert conformance_backend("host", "docker", ()) == "host"
    assert conformance_backend("auto", "docker", ("reference-node",)) == "auto"
    # A run folder without environment.json (an old run): auto, as before.
    assert conformance_backend("auto", None, ()) == "auto"

import re

import pytest

from harness.cli import main
from tests.conftest import REPO


def test_an_unknown_isa_level_prints_error_and_hint_and_exits_2(capsys):
    assert main(["run", "--isa", "avx3"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "error: unknown ISA level 'avx3' for x64"
    assert err[1] == "hint: valid: native, no-avx512, no-avx2, sse2, scalar"


def test_an_unknown_profile_suggests_the_nearest(capsys):
    assert main(["run", "--profile", "smok"]) == 2
    assert "did you mean 'smoke'" in capsys.readouterr().err


def test_list_shows_experiments_profiles_and_levels(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "000" in out and "smoke" in out and "no-avx512" in out and "dotnet" in out


def test_check_datasets_passes_on_the_shipped_files(capsys):
    assert main(["check-datasets"]) == 0
    assert "employee-data" in capsys.readouterr().out


def test_an_unknown_experiment_and_an_unknown_variant_are_explained(capsys):
    assert main(["run", "--experiment", "999"]) == 2
    assert "unknown experiment '999'" in capsys.readouterr().err
    assert main(["run", "--variant", "jil"]) == 2
    err = capsys.readouterr().err
    assert "unknown variant 'jil'" in err and "hint: valid: jil-camel-iso, " in err


def test_ctrl_c_during_a_run_ends_with_the_command_that_resumes_it(monkeypatch, capsys):
    from harness import cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli.COMMANDS, "run", interrupted)
    assert cli.main(["run", "--profile", "smoke", "--run-id", "r1"]) == 130
    err = capsys.readouterr().err
    assert "interrupted: every finished process's rows are kept" in err
    assert "`python3 -m harness run --profile smoke --run-id r1 --resume`" in err


def test_sigterm_cleans_up_like_ctrl_c(tmp_path):
    """Issue 44: a run stopped by SIGTERM (a CI time-out, a service manager) left the lab's own Docker engine running;
    now every `finally` runs (engine_for_run's stops the engine) and the exit code is 143."""
    import signal
    import subprocess
    import sys
    import textwrap
    import time

    marker, ready = tmp_path / "cleaned-up", tmp_path / "ready"
    script = textwrap.dedent(
        f"""
        import pathlib, sys, time
        sys.path.insert(0, {str(REPO)!r})
        from harness import cli

        def slow(args):
            try:
                pathlib.Path({str(ready)!r}).write_text("")
                time.sleep(60)
            finally:
                pathlib.Path({str(marker)!r}).write_text("stopped")
            return 0

        cli.COMMANDS["list"] = slow
        sys.exit(cli.main(["list"]))
        """
    )
    process = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 143
    assert marker.read_text() == "stopped", "the finally block ran"
    assert err.startswith("terminated: ")


@pytest.mark.parametrize("command", [["run"], ["conformance", "results/none"]])
def test_the_backend_once_called_native_is_refused_naming_the_valid_ones(command, capsys):
    # The host backend was called "native" before (a name it shared with an ISA level and the C++ lab): no alias.
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--backend", "native"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --backend: invalid choice: 'native'" in err
    assert re.search(r"choose from '?auto'?, '?host'?, '?docker'?\)", err), err

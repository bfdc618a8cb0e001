from harness.cli import main


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

"""Every command's --help renders (a stray % in a help text once made `python3 -m analysis --help` fail)."""

import pytest

from analysis.cli import main as analysis_main
from harness.cli import main as harness_main


@pytest.mark.parametrize("main", [analysis_main, harness_main])
def test_help_renders_for_the_program_and_every_subcommand(main, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    subcommands = text.split("{", 1)[1].split("}", 1)[0].split(",")
    assert len(subcommands) > 3
    for name in subcommands:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0, name

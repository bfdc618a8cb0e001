"""The overlap probe reads a stored run's logs as untrusted input: only a paired process's own options, a runtime the
.NET lab builds and runtime switches become a command; anything else is refused with the fix."""

from __future__ import annotations

import json
import pathlib
import shlex

import pytest

from harness.commands.overlap_probe import StoredProcess, member_times
from harness.config.lab.labs import load_labs
from harness.model.errors import HarnessError

GROUP = "001__single__no-avx512__8.0.0"


def _run(tmp_path: pathlib.Path, command: list[str], switches: object = None, group: str = GROUP) -> pathlib.Path:
    logs = tmp_path / "run" / "logs"
    logs.mkdir(parents=True)
    switches = {"DOTNET_EnableAVX512F": "0"} if switches is None else switches
    (logs / f"{group}.round-1.log").write_text(f"$ {shlex.join(command)}\n# switches: {json.dumps(switches)}\nbody\n")
    return tmp_path / "run"


def _paired(*extra: str) -> list[str]:
    return [
        "taskset", "-c", "1", "build/8.0.0/JsonLab", "paired", "--datasets", "/somewhere", "--out", "/old/out",
        "--member", "newtonsoft-default/employee-single/deserialize=/old/a",
        "--member", "stj-default/employee-single/deserialize=/old/b",
        "--member", "newtonsoft-default/employee-single/deserialize=/old/c",
        "--seed", "5", "--burst-ms", "20", "--burst-rounds", "15", *extra,
    ]  # fmt: skip


def test_a_stored_process_becomes_the_labs_own_command_with_new_folders_seed_and_rounds(tmp_path):
    stored = StoredProcess(_run(tmp_path, _paired()), GROUP, load_labs()["dotnet"])
    argv = stored.command(tmp_path / "p0", seed=1001, cpu=0, rounds=2)
    assert argv[:3] == ["taskset", "-c", "0"]
    assert argv[3].endswith("JsonLab") and "8.0.0" in argv[3] and argv[4] == "paired"
    assert argv[argv.index("--out") + 1] == str(tmp_path / "p0")
    assert argv[argv.index("--seed") + 1] == "1001"
    assert argv[argv.index("--burst-rounds") + 1] == "2"
    members = [argv[i + 1] for i, a in enumerate(argv) if a == "--member"]
    assert members[1] == f"stj-default/employee-single/deserialize={tmp_path / 'p0' / 'm1'}"
    assert "/old/out" not in argv and "/somewhere" not in argv
    assert stored.baseline == 0  # the member given twice (its A/A copy)
    assert stored.environment["DOTNET_EnableAVX512F"] == "0"
    assert stored.environment["DOTNET_TC_DelaySingleProcMultiplier"] == "1"  # the lab's own setting


@pytest.mark.parametrize(
    ("command", "switches", "group", "refused"),
    [
        (_paired("--evil", "x"), None, GROUP, "not an option of the paired verb"),
        (_paired("--burst-ms"), None, GROUP, "without its value"),
        (["bash", "-c", "rm -rf /"], None, GROUP, "not a paired process"),
        (_paired(), {"LD_PRELOAD": "/tmp/x.so"}, GROUP, "not runtime switches"),
        (_paired(), ["DOTNET_x"], GROUP, "not runtime switches"),
        (_paired(), None, "../../etc__8.0.0", "not a group's log name"),
    ],
)
def test_a_hostile_log_is_refused_with_the_reason(tmp_path, command, switches, group, refused):
    run = _run(tmp_path, command, switches, group if "/" not in group else GROUP)
    with pytest.raises(HarnessError, match=refused):
        StoredProcess(run, group, load_labs()["dotnet"])


def test_a_missing_or_foreign_log_is_refused(tmp_path):
    run = _run(tmp_path, _paired())
    with pytest.raises(HarnessError, match="cannot read it"):
        StoredProcess(run, "004__ser-bytes-1__no-avx512__8.0.0", load_labs()["dotnet"])
    (run / "logs" / "x__8.0.0.round-1.log").write_text("just text\n")
    with pytest.raises(HarnessError, match="not a paired process's log"):
        StoredProcess(run, "x__8.0.0", load_labs()["dotnet"])


def test_member_times_are_none_when_a_member_wrote_nothing_readable(tmp_path):
    for i, body in enumerate(['{"iterations_ns": [1, 2]}', '{"iterations_ns": [3, 4]}']):
        (tmp_path / f"m{i}").mkdir()
        (tmp_path / f"m{i}" / "samples.json").write_text(body)
    assert member_times(tmp_path) == [[1.0, 2.0], [3.0, 4.0]]
    (tmp_path / "m1" / "samples.json").write_text('{"iterations_ns": "x"}')
    assert member_times(tmp_path) is None


def test_a_stray_isa_switch_in_the_users_shell_does_not_reach_the_probes_processes(tmp_path, monkeypatch):
    monkeypatch.setenv("DOTNET_EnableHWIntrinsic", "0")
    stored = StoredProcess(_run(tmp_path, _paired()), GROUP, load_labs()["dotnet"])
    assert "DOTNET_EnableHWIntrinsic" not in stored.environment

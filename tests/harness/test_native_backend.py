from harness.backends.native import NativeBackend, last_lab_error
from harness.labs import load_labs


def test_the_child_environment_drops_stray_isa_switches_and_adds_the_labs_settings(monkeypatch):
    monkeypatch.setenv("DOTNET_EnableAVX2", "0")  # left over in the user's shell
    lab = load_labs()["dotnet"]
    env = NativeBackend({"DOTNET_EnableAVX2", "DOTNET_EnableHWIntrinsic"}).environment(lab, {"DOTNET_EnableHWIntrinsic": "0"})
    assert "DOTNET_EnableAVX2" not in env
    assert env["DOTNET_EnableHWIntrinsic"] == "0"
    assert env["DOTNET_TC_DelaySingleProcMultiplier"] == "1"


def test_the_labs_error_and_hint_lines_are_found_in_its_output():
    output = "some log\nerror: unknown variant 'x' for lab dotnet\nhint: valid variants: a, b\n"
    assert last_lab_error(output) == ("unknown variant 'x' for lab dotnet", "valid variants: a, b")
    assert last_lab_error("all fine\n") is None

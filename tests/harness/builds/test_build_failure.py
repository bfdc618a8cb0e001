"""A failed build's message names the output's own cause lines, not the command that failed."""

from harness.builds.build_failure import MAX_LINE, read_build_failure

#: The shape of a failed native AOT publish in BuildKit's plain progress: hundreds of ILC warnings, the linker's own
#: error, MSBuild's summary, then BuildKit's line naming the step's command.
AOT_LOG = """\
#15 [build 6/6] RUN dotnet publish src/JsonLab.csproj -c Release
#15 26.20 ILC : warning IL3002: NativeDlls.LoadNative(String): Using member 'System.Reflection.Module.Name'
#15 118.4 /usr/bin/ld.bfd: final link failed: No space left on device
#15 118.4 clang : error : linker command failed with exit code 1 (use -v to see invocation)
#15 118.5 /root/.nuget/packages/microsoft.dotnet.ilcompiler/10.0.12/build/Microsoft.NETCore.Native.targets(380,5): \
error MSB3073: The command "clang" exited with code 1. [/src/src/JsonLab.csproj]
#15 118.6 error NETSDK1234: a line-start error after BuildKit's prefix
#15 ERROR: executor failed running [/bin/sh -c dotnet publish src/JsonLab.csproj]: exit code: 1
------
 > [build 6/6] RUN dotnet publish src/JsonLab.csproj -c Release:
#15 118.4 clang : error : linker command failed with exit code 1 (use -v to see invocation)
------
ERROR: failed to solve: executor failed running [/bin/sh -c dotnet publish]: exit code: 1
"""


def test_the_causes_are_the_output_s_own_error_lines_without_warnings_or_the_step_summary():
    failure = read_build_failure(AOT_LOG)
    assert failure.causes[0] == "/usr/bin/ld.bfd: final link failed: No space left on device"
    assert failure.causes[1] == "clang : error : linker command failed with exit code 1 (use -v to see invocation)"
    assert any("error MSB3073" in line for line in failure.causes)
    assert any(line.startswith("error NETSDK1234") for line in failure.causes)
    assert not any("warning" in line or "executor failed" in line for line in failure.causes)
    assert len(failure.causes) == len(set(failure.causes))  # the repeat after "------" is not listed twice
    assert "disk" in failure.advice and "docker system prune" in failure.advice


def test_the_message_leads_with_the_first_cause_and_lists_the_rest_indented():
    message = read_build_failure(AOT_LOG).message("the image build", "fallback")
    first, *rest = message.splitlines()
    assert first == "the image build failed: /usr/bin/ld.bfd: final link failed: No space left on device"
    assert rest and all(line.startswith("  ") for line in rest)


def test_a_killed_compiler_is_read_as_lack_of_memory():
    failure = read_build_failure('#15 80.1 Killed\n#15 ERROR: process "/bin/sh -c x" did not complete successfully')
    assert failure.causes == ("Killed",)
    assert "memory" in failure.advice


def test_output_without_a_cause_line_falls_back_to_what_the_caller_names():
    failure = read_build_failure("#15 ERROR: executor failed running [/bin/sh -c make]: exit code: 2\n")
    assert failure.causes == ()
    assert failure.message("the image build", "exit code 2") == "the image build failed: exit code 2"
    assert "read the build log" in failure.advice


def test_cause_lines_are_bounded_in_number_and_length():
    output = "".join(f"src/file{i}.cs(1,1): error CS0103: {'x' * 1000}\n" for i in range(50))
    failure = read_build_failure(output)
    assert len(failure.causes) == 4
    assert all(len(line) <= MAX_LINE for line in failure.causes)


def test_a_failed_image_build_names_its_own_cause_not_an_earlier_build_s(tmp_path):
    import pytest

    from harness.builds.watched_process import WatchedBuild
    from harness.containers.image_build import _run_build
    from harness.model.errors import BuildError

    log = tmp_path / "build-images.log"
    log.write_text("#9 3.1 error CS0103: an earlier image's failure, already reported\n")
    script = "echo '#15 118.4 /usr/bin/ld.bfd: final link failed: No space left on device'; exit 1"
    with pytest.raises(BuildError) as error:
        _run_build(WatchedBuild(["sh", "-c", script], "image 4/6 x", ["x"]), log, {}, lambda line: None)
    assert str(error.value) == "the image build failed: /usr/bin/ld.bfd: final link failed: No space left on device"
    assert "docker system prune" in error.value.hint and str(log) in error.value.hint


def test_an_error_that_says_warning_is_kept_and_explained():
    output = (
        "#12 9.1 /src/x.csproj : warning NU1603: a warning\n"
        "#12 9.2 /src/x.csproj : error NU1605: Warning As Error: Detected package downgrade: Newtonsoft.Json from "
        "13.0.1 to 12.0.3\n"
    )
    failure = read_build_failure(output)
    assert len(failure.causes) == 1 and "NU1605" in failure.causes[0]
    assert "downgraded" in failure.advice

"""What a failed build's output says: the lines that name the cause (a compiler's or MSBuild's errors, a full disk,
a killed process), found among the thousands of progress and warning lines, and plain advice for the causes we know
(cf. BenchmarkDotNet's MsBuildErrorMapper). One home for the lab builds on the host and the image builds."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Known failure patterns in build output → what it means and what to do.
BUILD_ERROR_PATTERNS: list[tuple[str, str]] = [
    (
        r"NU1102|NU1101",
        "a NuGet package or version is not served by the configured feed; pin a version the feed has (dotnet add "
        "package NAME --version V) and commit packages.lock.json",
    ),
    (
        r"NU1605|package downgrade",
        "a package would be downgraded: a build with an older library version (lab.toml [library_versions]) is below "
        "what another package needs; pick a version at least the one the error names",
    ),
    (
        r"NU1004|NU1403|NU1005",
        "packages.lock.json does not match the project; run `dotnet restore --force-evaluate` in the lab's src folder "
        "and commit the lock file",
    ),
    (
        r"NU1301|Unable to load the service index",
        "the NuGet feed is unreachable; check the network or the feed configured in NuGet.Config",
    ),
    (
        r"NETSDK1045|does not support targeting",
        "the installed .NET SDK is too old for this lab; install the .NET 10 SDK",
    ),
    (r"MSB1009|Project file does not exist", "the lab's project file is missing; check lab.toml's build command"),
    (
        r"(?i)no space left on device",
        "the disk holding the build (or the Docker engine's data root) is full; free space (`df -h`, `docker system "
        "prune` for images and build cache no run needs) and run again: finished builds are reused",
    ),
    (
        r"(?i)\bkilled\b|exit code: 137|out of memory|cannot allocate memory|std::bad_alloc",
        "the build was killed, most likely for lack of memory (the native AOT compiler needs about 2-4 GiB); close "
        "other work or give the machine or container more memory, and run again",
    ),
]

#: A line that names a cause: MSBuild's and compilers' "error" lines, a fatal error, a full disk, a killed process.
_CAUSE = re.compile(
    r"(?i)(:\s*error\b|^error\b|\bfatal error\b|no space left on device|\bkilled\b|out of memory"
    r"|cannot allocate memory)"
)
#: A compiler's or MSBuild's warning line ("ILC : warning IL3002:", "x.cs(1,1): warning CS0168:"); not "error NU1605:
#: Warning As Error: ...", which is an error.
_WARNING = re.compile(r"(?i)(^|:\s*|\s)warning\s+[A-Z]+\d+\s*:")
#: BuildKit's plain-progress prefix: "#15 26.20 ".
_STEP_PREFIX = re.compile(r"^#\d+ (\d+\.\d+ )?")
#: BuildKit's own summary of a failed step (the command it ran, not why it failed).
_EXECUTOR = re.compile(
    r"(?i)^(#\d+ )?ERROR: (failed to solve: )?(executor failed running|process .* did not complete successfully)"
)
#: A line longer than this is cut, so one line cannot flood the terminal.
MAX_LINE = 300


@dataclass(frozen=True)
class BuildFailure:
    """The output's own cause lines (the first is the message's headline) and advice."""

    causes: tuple[str, ...]
    advice: str

    def message(self, what: str, fallback: str) -> str:
        """'<what> failed: <first cause>', the further causes one per indented line below it."""
        first, *rest = self.causes or (fallback,)
        return "\n".join([f"{what} failed: {first}", *(f"  {line}" for line in rest)])


def _clean(line: str) -> str:
    text = " ".join(_STEP_PREFIX.sub("", line.strip()).split())
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"


def read_build_failure(output: str, limit: int = 4) -> BuildFailure:
    """The first `limit` distinct cause lines of a failed build's output (warnings and BuildKit's summary of the failed
    step left out: they never say why) and the advice for the first known pattern."""
    causes: list[str] = []
    for line in output.splitlines():
        text = _clean(line)
        if _WARNING.search(text) or _EXECUTOR.match(line.strip()) or not _CAUSE.search(text):
            continue
        if text and text not in causes:
            causes.append(text)
        if len(causes) == limit:
            break
    return BuildFailure(tuple(causes), explain_build_failure(output))


def explain_build_failure(output: str) -> str:
    """Plain explanation for a failed build's output, or a pointer to the log."""
    for pattern, advice in BUILD_ERROR_PATTERNS:
        if re.search(pattern, output):
            return advice
    return "read the build log; the first 'error' line names the cause"

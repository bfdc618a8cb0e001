"""Which declared model spaces' JsonSrcGen twins compile, found before the .NET lab is built.

JsonSrcGen's source generator writes one converter for every [Json] class and list of the assembly, so a space its
generator mishandles (locals it names twice, a list of one space's type converted as another's) stops the whole lab,
on every runtime, for every write-up; a space that compiles alone may not compile beside another. The probe compiles
the twins file the emitter writes (harness/codegen/csharp.py twins_file) in a project of its own that references
only JsonSrcGen, at the version the lab's project pins: first every space's twins together; when that fails, each
space's alone, then the ones that compile alone added one at a time, the lab's own models first (datasets/models/, by
name, then datasets/local/models/). A space left out gets no twin, and the `jsonsrcgen` cells of its datasets are void
with the compiler's first error and the probe's log; every other cell builds and is measured.

Results are kept by the hash of what was compiled (src/obj/jsonsrcgen-probe/, git- and docker-ignored), so a build,
`just check` and a run's fingerprint ask the compiler once per set of models. A probe that cannot run (no `dotnet`, a
restore that fails) leaves every twin in and says why."""

from __future__ import annotations

import hashlib
import json
import pathlib
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field

from harness.codegen import csharp as emit_csharp
from harness.config.data.declared_models import ModelSpace

#: The probe's target framework: the SDK's own targeting pack (the lab needs the .NET 10 SDK), so nothing is
#: downloaded; the generator writes the same code for every framework.
PROBE_TFM = "net10.0"
#: Its folder inside the lab (ignored by git and by the image build's context).
PROBE_DIR = "src/obj/jsonsrcgen-probe"
#: The lab's project, whose PackageReference pins JsonSrcGen's version.
LAB_PROJECT = "src/JsonLab.csproj"
PROBE_TIMEOUT_S = 300
_VERSION = re.compile(r'<PackageReference\s+Include="JsonSrcGen"\s+Version="([^"]+)"')
#: A compiler's or generator's error line: "path(1,2): error CS0128: text [project]".
_ERROR = re.compile(r"error ((?:CS|SI)\d+): (.*?)(?: \[[^\]]*\])?$")


class ProbeUnavailable(Exception):
    """The probe could not compile anything (no dotnet, no package): not a verdict on any space."""


#: Compiles a twins file; returns the first error ("CS0128: …") or None, and appends the compiler's output to the log.
Compiler = Callable[[str, pathlib.Path], "str | None"]


@dataclass(frozen=True)
class TwinProbe:
    """What the probe found: the spaces left out with why, those compiled together, and where its log is ("" when
    it ran no compiler); `note` says why it did not probe, when it could not."""

    left_out: dict[str, str] = field(default_factory=dict)
    compiled: tuple[str, ...] = ()
    log: str = ""
    note: str = ""

    def describe(self) -> str:
        """One line for `just check`."""
        if self.note:
            return f"not probed: {self.note}; every space's twins are built in"
        kept = f"the twins of {len(self.compiled)} model spaces compile together ({', '.join(self.compiled) or 'none'})"
        if not self.left_out:
            return kept
        gone = "; ".join(f"{space}: {why}" for space, why in self.left_out.items())
        return f"{kept}; left out, their jsonsrcgen cells void: {gone}"


def jsonsrcgen_version(lab_dir: pathlib.Path) -> str:
    """The JsonSrcGen version the lab's project pins."""
    found = _VERSION.search((lab_dir / LAB_PROJECT).read_text(encoding="utf-8"))
    if not found:
        raise ProbeUnavailable(f"{LAB_PROJECT} has no JsonSrcGen PackageReference")
    return found.group(1)


def first_error(output: str) -> str | None:
    """The compiler's first error, as "CS0128: text" (file paths dropped), or None."""
    for line in output.splitlines():
        if (found := _ERROR.search(line.strip())) is not None:
            return f"{found.group(1)}: {found.group(2).strip()}"[:300]
    return None


def dotnet_compiler(lab_dir: pathlib.Path, version: str) -> Compiler:
    """Compiles a twins file with `dotnet build` in a project beside the probe's cache that references JsonSrcGen
    `version` alone, restored with the lab's NuGet.Config (JsonSrcGen comes from its nuget-local/)."""
    work = lab_dir / PROBE_DIR / "project"
    project = (
        '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup><TargetFramework>'
        f"{PROBE_TFM}</TargetFramework><Nullable>enable</Nullable><OutputType>Library</OutputType>"
        "<EnableDefaultCompileItems>false</EnableDefaultCompileItems></PropertyGroup>\n"
        f'  <ItemGroup><PackageReference Include="JsonSrcGen" Version="{version}" PrivateAssets="all" />'
        '<Compile Include="Twins.cs" /></ItemGroup>\n</Project>\n'
    )

    def compile_twins(source: str, log: pathlib.Path) -> str | None:
        work.mkdir(parents=True, exist_ok=True)
        (work / "Probe.csproj").write_text(project, encoding="utf-8")
        (work / "Twins.cs").write_text(source, encoding="utf-8")
        argv = ["dotnet", "build", str(work / "Probe.csproj"), "-nologo", "-v", "q", "-clp:NoSummary"]
        argv += ["--configfile", str(lab_dir / "NuGet.Config"), "-p:ImportDirectoryBuildProps=false"]
        argv += ["-p:ImportDirectoryBuildTargets=false", "-p:TreatWarningsAsErrors=false", "-nowarn:CS8602;CS8604"]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, cwd=work)
        except FileNotFoundError as e:
            raise ProbeUnavailable("no `dotnet` on PATH (scripts/setup)") from e
        except subprocess.TimeoutExpired as e:
            raise ProbeUnavailable(f"its compile took over {PROBE_TIMEOUT_S} s") from e
        output = done.stdout + done.stderr
        with log.open("a", encoding="utf-8") as out:
            out.write(f"$ {' '.join(argv)}\n{output}\nexit code {done.returncode}\n\n")
        if done.returncode == 0:
            return None
        error = first_error(output)
        if error is None or re.search(r"\berror NU\d+", output):
            raise ProbeUnavailable(f"its compile failed without a compiler error (exit code {done.returncode})")
        return error

    return compile_twins


def _order(spaces: list[ModelSpace]) -> list[ModelSpace]:
    """The lab's own models first (by name), then the user's: a user's space is the one left out of a clash."""
    return sorted(spaces, key=lambda s: (s.source.startswith("local/"), s.name))


def probe_twins(spaces: list[ModelSpace], lab_dir: pathlib.Path, compiler: Compiler | None = None) -> TwinProbe:
    """The spaces whose twins are left out of the build, with why (cached by what was compiled)."""
    candidates = _order(emit_csharp.twin_spaces(spaces))
    if not candidates:
        return TwinProbe()
    cache = lab_dir / PROBE_DIR
    try:
        version = jsonsrcgen_version(lab_dir)
    except (OSError, ProbeUnavailable) as e:
        return TwinProbe(note=str(e))
    compile_twins = compiler or dotnet_compiler(lab_dir, version)
    key = hashlib.sha256("\0".join([version, emit_csharp.twins_file(candidates)]).encode()).hexdigest()[:20]
    stored = cache / f"{key}.json"
    if (kept := _read_kept(stored)) is not None:
        return kept
    cache.mkdir(parents=True, exist_ok=True)
    log = cache / f"{key}.log"
    log.write_text("", encoding="utf-8")
    try:
        left_out = _left_out(candidates, compile_twins, log)
    except ProbeUnavailable as e:
        return TwinProbe(note=f"{e} (log {log})")
    shown = _shown(log)
    left_out = {space: f"{why}; log {shown}" for space, why in left_out.items()}
    compiled = tuple(s.name for s in candidates if s.name not in left_out)
    stored.write_text(json.dumps({"left_out": left_out, "compiled": compiled, "log": shown}), encoding="utf-8")
    return TwinProbe(left_out, compiled, shown)


def _read_kept(stored: pathlib.Path) -> TwinProbe | None:
    """A kept result, or None when there is none or it is not one this module wrote (damaged, edited): probe again."""
    try:
        data = json.loads(stored.read_text(encoding="utf-8"))
        left_out, compiled, log = data["left_out"], data["compiled"], data["log"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    texts = [*compiled, log, *left_out, *left_out.values()] if isinstance(left_out, dict) else None
    if texts is None or not isinstance(compiled, list) or not all(isinstance(t, str) for t in texts):
        return None
    return TwinProbe(dict(left_out), tuple(compiled), log)


def _shown(path: pathlib.Path) -> str:
    """A path as the user reads it: relative to the working folder where it is inside it."""
    try:
        return str(path.resolve().relative_to(pathlib.Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _left_out(candidates: list[ModelSpace], compile_twins: Compiler, log: pathlib.Path) -> dict[str, str]:
    """Together; else each alone, then the ones that compile alone added one at a time."""
    if compile_twins(emit_csharp.twins_file(candidates), log) is None:
        return {}
    left_out: dict[str, str] = {}
    alone = []
    for space in candidates:
        error = compile_twins(emit_csharp.twins_file([space]), log)
        if error is None:
            alone.append(space)
        else:
            left_out[space.name] = f"build failed: JsonSrcGen's generated code for its twins does not compile ({error})"
    kept: list[ModelSpace] = []
    for space in alone:
        error = compile_twins(emit_csharp.twins_file(kept + [space]), log) if kept else None
        if error is None:
            kept.append(space)
            continue
        beside = ", ".join(s.name for s in kept)
        left_out[
            space.name
        ] = f"build failed: JsonSrcGen's generated code for its twins does not compile beside {beside}'s ({error})"
    return left_out

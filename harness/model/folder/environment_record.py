"""environment.json's typed record: the host a run measured on (harness/host/environment.py collects it), where the
lab processes ran, and each lab build as its probe found it. The harness writes it through `from_dict(...).to_dict()`
(so a key the collector adds without a field here fails the test that checks both agree), the analysis reads it with
`from_dict()`; a missing field is a SchemaError naming the file.

A lab build's own report (`env`: the lab's `env` verb, docs/lab-contract.md) and its ISA levels' probe results stay
dictionaries (their keys are the lab's), typed by the keys the harness reads (LabEnvReport, IsaLevelRecord).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, TypedDict

from harness.model.arch import IsaFlags
from harness.model.errors import SchemaError
from harness.model.folder.cpu_state import HygieneRecord
from harness.model.folder.host_facts import HostFactsRecord
from harness.model.folder.run_folder import SCHEMA_VERSION
from harness.model.folder.run_records import RECORD_HINT, _Record
from harness.model.json_value import JsonObject


class IsaLevelRecord(TypedDict):
    """One ISA level's probe as the runner stores it in `isa_levels` (harness/session/processes/probe.py LevelProbe,
    every key required: the report's ISA table reads each; tests/harness/model/test_environment_record.py holds them
    to it)."""

    level: str
    switches: dict[str, str]
    flags: IsaFlags
    isa_effective: str
    state: str
    detail: str


class BuildWhere(TypedDict, total=False):
    """Where a lab build runs, as its backend says: `Backend.identity` (backend, and in containers the image and its
    id: every row of the build carries them, with the host of a run over hosts) and `Backend.details` (environment.json
    `where`: the identity, the image's labels, size, architecture and Debian packages, the engine, how cells run)."""

    backend: str
    image: str
    image_id: str
    host: str
    image_labels: dict[str, str]
    image_size_bytes: int
    image_architecture: str
    image_apt_packages: dict[str, str] | str  # {package: version}, or why the image has no list
    engine: str
    cell_processes: str


class GcReport(TypedDict, total=False):
    """The .NET lab's `gc` in its `env` answer (lab/dotnet/src/Probes/RuntimeProbe.cs): the collector it ran."""

    server: bool
    concurrent: bool
    latency_mode: str


#: The keys every lab's `env` answer gives (docs/lab-contract.md).
LAB_ENV_REQUIRED = ("arch", "language", "runtime", "runtime_version")


class LabEnvReport(TypedDict, total=False):
    """The keys of a lab's own `env` report (docs/lab-contract.md, its `env` verb) that the harness and the report
    read; the rest are the lab's and stay as it wrote them. The probe refuses an answer without LAB_ENV_REQUIRED (a
    stored one is read as it was written)."""

    runtime: str
    runtime_version: str
    arch: str
    language: str
    runtime_description: str
    runtime_switches: dict[str, str]
    isa: IsaFlags
    isa_readback: bool
    isa_requested_flags: list[str]
    libraries: dict[str, str | None] | None
    gc: GcReport | None


@dataclass(frozen=True)
class LabEnvironment(_Record):
    """One lab build of the run (environment.json `labs`, by target: 'dotnet@10.0.12', 'node@24.21.0')."""

    env: LabEnvReport  # the lab's `env` verb: runtime, runtime_description, libraries, isa, gc, jit …
    variants: list[JsonObject]  # the lab's `list` verb
    emulated: bool  # the build ran under QEMU user emulation (functional checks only)
    runtime: str | None
    expected_runtime_version: str | None
    lab_environment: dict[str, str]  # variables the lab.toml sets in every process (DOTNET_TC_…)
    where: BuildWhere  # the backend's account of where it ran (image, digest, engine)
    isa_levels: dict[str, IsaLevelRecord]  # level → its probe (switches, effective ISA read back, state, detail)

    @property
    def runtime_description(self) -> str:
        """'.NET 10.0.12', 'Node.js v24.21.0': what the lab process says it runs on."""
        return str(self.env.get("runtime_description") or self.env.get("runtime") or "?")

    @property
    def libraries(self) -> dict[str, str | None]:
        """Library → version, as loaded inside the lab process (None: the lab could not tell)."""
        return dict(self.env.get("libraries") or {})


@dataclass(frozen=True)
class EnvironmentRecord(_Record):
    """environment.json: the host (CPU, kernel, OS, memory, frequency policy, SMT, isolation), the commit, the CPU
    state the run checked (`cpu_hygiene`, harness/host/cpu_hygiene.py) with its warnings, the backend and CPU sets,
    and the lab builds."""

    captured_at: str
    hostname: str
    machine: str
    kernel: str
    os: str | None
    cores_allowed: int
    memory_bytes: int
    load_average_1m: float
    python: str
    harness_version: str
    container_engine: str | None  # the engine and how images build (harness/containers/engine.py describe())
    cpu_model: str | None
    cpu_flags: list[str]
    logical_cpus: int
    hypervisor: bool
    smt_active: bool | None
    cpu0_thread_siblings: str | None
    governor: str | None
    frequency_driver: str | None
    turbo: bool | None  # None: not exposed
    isolated_cpus: str | None
    git_commit: str | None
    git_dirty: bool | None
    cpu_hygiene: HygieneRecord | None
    warnings: list[str]
    backend: str
    lab_cpuset: str
    harness_cpus: list[int]
    labs: dict[str, LabEnvironment]
    schema_version: int = SCHEMA_VERSION
    # In a run over several hosts, the host this folder's run measured on, as its engine describes it
    # (harness/containers/host_probe.py HostFacts); the CPU, kernel and core fields above are then that host's.
    host: HostFactsRecord | None = None
    # The CPU's vendor (intel, amd, arm, apple, ...), family and model number (/proc/cpuinfo; on arm64 the part number)
    cpu_vendor: str | None = None
    cpu_family: int | None = None
    cpu_model_number: int | None = None
    # Two kinds of cores (performance and efficiency): True, False, or None where a virtual machine hides them (and in
    # runs made before it was recorded)
    cpu_hybrid: bool | None = None
    # The paired-pipelined design (harness/planning/warm_cpus.py): the CPUs its processes warmed on, and why the run's
    # design is not its profile's (a profile's pipelined design on a run with nowhere to warm); empty before either
    warm_cpus: tuple[int, ...] = ()
    design_note: str = ""

    @classmethod
    def _check_bounds(cls, data: Mapping[str, object], where: str) -> None:
        _check_design_fields(data, where)

    @property
    def runtime_descriptions(self) -> list[str]:
        """Every lab build's runtime, sorted: '.NET 10.0.12, Node.js v24.21.0'."""
        return sorted({lab.runtime_description for lab in self.labs.values()})


#: The longest design note read back (the harness writes one sentence).
DESIGN_NOTE_CHARS = 1000


def _check_design_fields(data: Mapping[str, object], where: str) -> None:
    """warm_cpus a list of CPU numbers, design_note a bounded text: a run folder is untrusted input, and both reach
    the report's first paragraph."""
    cpus = data.get("warm_cpus", [])
    note = data.get("design_note", "")
    if not isinstance(cpus, (list, tuple)) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 1 << 16 for c in cpus
    ):
        problem = f"warm_cpus = {str(cpus)[:80]!r}: not a list of CPU numbers"
    elif not isinstance(note, str) or len(note) > DESIGN_NOTE_CHARS:
        problem = f"design_note is not a text of at most {DESIGN_NOTE_CHARS} characters"
    else:
        return
    raise SchemaError(f"{where}: {problem}", RECORD_HINT)

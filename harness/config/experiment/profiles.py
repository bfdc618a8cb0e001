"""Run profiles (experiments/profiles.toml): named presets of experiments, benchmarks, ISA levels,
the BenchmarkDotNet job of one replicate, the replication design, and when to stop replicating."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

from harness.config.data_files import read_toml
from harness.model.cells import ColdSettings, JobSettings
from harness.model.defaults import PROFILES_FILE
from harness.model.errors import ConfigError, UnknownNameError


@dataclass(frozen=True)
class Stopping:
    """When a group has enough replicates: at least min_rounds, then until every ratio of the group has a
    relative 99% CI half-width ≤ target_rel_ci, or max_rounds, or the group's time cap (then it is 'imprecise').
    The cap is group_time_cap_s, or cell_time_cap_s × the group's cells (machine time spread evenly over cells),
    the smaller where both are set."""

    min_rounds: int
    max_rounds: int
    target_rel_ci: float | None = None
    group_time_cap_s: float | None = None
    cell_time_cap_s: float | None = None
    # `--until-decided`: a group is never precise nor time-capped, only the budget's rule
    # (harness/model/stats/allocation.py UNTIL_DECIDED) stops it, once none of its claims is forecast decided in the
    # time left; max_rounds still holds.
    until_decided: bool = False

    def time_cap_s(self, cells: int) -> float | None:
        """The machine-time cap of a group of `cells` cells, or None when there is none."""
        if self.until_decided:
            return None
        caps = [
            c
            for c in (self.group_time_cap_s, None if self.cell_time_cap_s is None else self.cell_time_cap_s * cells)
            if c is not None
        ]
        return min(caps) if caps else None

    def __post_init__(self) -> None:
        if not 1 <= self.min_rounds <= self.max_rounds:
            raise ValueError(f"need 1 ≤ min_rounds ≤ max_rounds, got {self.min_rounds} and {self.max_rounds}")
        if self.target_rel_ci is not None and not 0 < self.target_rel_ci < 1:
            raise ValueError(f"target_rel_ci must lie in (0, 1), got {self.target_rel_ci}")

    @property
    def adaptive(self) -> bool:
        """True when the number of rounds depends on the precision reached."""
        return self.target_rel_ci is not None and self.max_rounds > self.min_rounds


#: ISA level names a profile may use besides the levels themselves: every level of this CPU, or the levels
#: matching the CPUs each experiment's claims were published on (their hardware's isa_level).
ALL_LEVELS = "all"
CLAIMED_LEVELS = "claims"

#: Runtime names a profile may use besides a lab's runtime names: "all" (every runtime of the benchmark's lab),
#: "claims" (the runtime standing in for each figure's published one) and "sweep" (every runtime, for the benchmarks
#: an experiment lists in runtime_sweep, so the same variant can be charted across runtimes).
ALL_RUNTIMES = "all"
CLAIMED_RUNTIMES = "claims"
SWEEP_RUNTIMES = "sweep"

#: The designs a profile may name (harness/planning/designs.py lays each out; its registry must hold exactly these).
DESIGN_NAMES = ("sequential", "interleaved", "duet", "paired", "paired-shared", "paired-pipelined")
#: Each design in one line, for the report (its Method and Setup sections).
DESIGN_TEXT = {
    "sequential": "every cell of an ISA level once per round, in plan order",
    "interleaved": "one group at a time, its cells once per round in a fresh random order",
    "duet": "each benchmark at the same time as its baseline, on two CPUs swapped every round",
    "paired": "one group at a time, all its cells in one process per round, alternating in bursts",
    "paired-shared": "the groups of one ISA level and runtime together, all their cells in one process per round (one "
    "joint warm-up), alternating in bursts",
    "paired-pipelined": "as paired, each process verified and warmed on the harness's CPU while the one before it is "
    "timed, then handed to the lab's CPU for its bursts",
}

#: How a budget shares its rounds (harness/session/rounds/budget.py): "in-turn", unit after unit, each given the rounds
#: every later unit could have as well; "open-claims", every unit its floor rounds first, then one round at a time to
#: the group with the fewest rounds, groups whose published claims are still undecided first
#: (harness/session/rounds/priority.py); "expected-decisions", the same floor, then each round to the group forecast to
#: decide the most claims per second of its rounds within the time left (harness/model/stats/decision_forecast.py), then
#: as "open-claims".
PRIORITIES = ("in-turn", "open-claims", "expected-decisions")


@dataclass(frozen=True)
class BudgetSpec:
    """A profile's run budget (harness/session/rounds/budget.py): minutes for the whole session, the rounds every unit
    gets even past it, and how the rounds beyond those are shared."""

    minutes: float
    floor_rounds: int
    priority: str = "in-turn"
    # The noise probe (harness/session/rounds/noise_probe.py): this many groups' first `probe_rounds` rounds before the
    # rest, which forecast what the budget can decide on this host (0: no probe). Those rounds count toward the floor.
    probe_groups: int = 0
    probe_rounds: int = 3
    until_decided: bool = False  # `--until-decided`: rounds only while a claim is forecast decided in the time left

    def __post_init__(self) -> None:
        if self.minutes <= 0:
            raise ValueError(f"budget minutes must be positive, got {self.minutes}")
        if self.floor_rounds < 1:
            raise ValueError(f"budget floor_rounds must be at least 1, got {self.floor_rounds}")
        if self.priority not in PRIORITIES:
            raise ValueError(f"budget priority must be one of {', '.join(PRIORITIES)}, got '{self.priority}'")
        if self.probe_groups < 0:
            raise ValueError(f"budget probe_groups must be 0 (no probe) or more, got {self.probe_groups}")
        if self.probe_groups and not 2 <= self.probe_rounds <= self.floor_rounds:
            raise ValueError(
                f"budget probe_rounds must be between 2 (a spread needs two processes) and floor_rounds "
                f"({self.floor_rounds}), got {self.probe_rounds}"
            )
        if self.probe_groups and self.priority == "in-turn":
            raise ValueError(
                "a budget's noise probe (probe_groups) needs priority 'open-claims' or 'expected-decisions'"
            )


@dataclass(frozen=True)
class Profile:
    """One named preset."""

    name: str
    description: str
    experiments: tuple[str, ...]
    benchmarks: tuple[str, ...] | None
    isa_levels: tuple[str, ...]
    job: JobSettings
    design: str
    stopping: Stopping
    only_claimed: bool = False
    runtimes: tuple[str, ...] = ("claims",)
    cold: ColdSettings = ColdSettings()
    budget: BudgetSpec | None = None
    # Paired design: an A/A copy of each group's baseline as one more member of its processes
    # (harness/planning/plan.py), whose
    # ratio to the baseline must come out 1 within its interval; it checks the engine for order and position bias.
    aa_copies: bool = False
    # Steady cells measured in a process of their own: after each such process, this many fresh processes of the
    # cell's `once` verb report their peak RSS (the lab reads its own VmHWM), the cell's memory beside its throughput.
    peak_rss_runs: int = 0
    # Each cell also run with each run setting its write-up's publisher used (harness/config/lab/setting_switches.py),
    # one at a time, at a place of its own: what the explanation compares the figure with.
    publisher_settings: bool = False
    # An experiment template (a path under experiments/) the profile measures once it is filled in for a document
    # (harness/config/experiment/experiment_templates.py; profile `payload`, `just payload FILE`).
    template: str | None = None
    # Its typed half, filled in too when the document has a model (inferred or the user's; `just payload FILE`).
    typed_template: str | None = None


def _stopping(spec: dict) -> Stopping:
    if "stopping" not in spec:
        rounds = int(spec.get("rounds", 1))
        return Stopping(rounds, rounds)
    s = spec["stopping"]
    return Stopping(
        int(s["min_rounds"]),
        int(s["max_rounds"]),
        s.get("target_rel_ci"),
        s.get("group_time_cap_s"),
        s.get("cell_time_cap_s"),
    )


#: The keys a profile table may have; another (a typo) is refused rather than ignored.
PROFILE_KEYS = (
    "description",
    "experiments",
    "benchmarks",
    "isa_levels",
    "runtimes",
    "only_claimed",
    "design",
    "aa_copies",
    "job",
    "stopping",
    "rounds",
    "budget",
    "cold",
    "peak_rss_runs",
    "publisher_settings",
    "template",
    "typed_template",
)


def _profile(name: str, spec: dict) -> Profile:
    unknown = [key for key in spec if key not in PROFILE_KEYS]
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)}; a profile's keys are {', '.join(PROFILE_KEYS)}")
    design = spec.get("design", "sequential")
    if design not in DESIGN_NAMES:
        raise ValueError(f"design '{design}' is not one of {', '.join(DESIGN_NAMES)}")
    return Profile(
        name=name,
        description=spec["description"],
        experiments=tuple(spec["experiments"]),
        benchmarks=tuple(spec["benchmarks"]) if "benchmarks" in spec else None,
        isa_levels=tuple(spec["isa_levels"]),
        job=JobSettings(**spec.get("job", {})),
        design=design,
        stopping=_stopping(spec),
        only_claimed=bool(spec.get("only_claimed", False)),
        runtimes=tuple(spec.get("runtimes", ("claims",))),
        cold=ColdSettings(**spec.get("cold", {})),
        budget=_budget(spec["budget"]) if "budget" in spec else None,
        aa_copies=bool(spec.get("aa_copies", False)),
        peak_rss_runs=_non_negative(name, "peak_rss_runs", spec.get("peak_rss_runs", 0)),
        publisher_settings=_flag(name, "publisher_settings", spec.get("publisher_settings", False)),
        template=str(spec["template"]) if "template" in spec else None,
        typed_template=str(spec["typed_template"]) if "typed_template" in spec else None,
    )


#: The keys a profile's budget table may have.
BUDGET_KEYS = ("minutes", "floor_rounds", "priority", "probe_groups", "probe_rounds")


def _budget(spec: dict) -> BudgetSpec:
    unknown = [key for key in spec if key not in BUDGET_KEYS]
    if unknown:
        raise ValueError(f"unknown budget key(s) {', '.join(unknown)}; a budget's keys are {', '.join(BUDGET_KEYS)}")
    return BudgetSpec(
        float(spec["minutes"]),
        int(spec["floor_rounds"]),
        str(spec.get("priority", "in-turn")),
        int(spec.get("probe_groups", 0)),
        int(spec.get("probe_rounds", 3)),
    )


def _flag(profile: str, key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"profile '{profile}': {key} must be true or false, not {value!r}")
    return value


def _non_negative(profile: str, key: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"profile '{profile}': {key} must be a whole number, 0 or more, not {value!r}")
    return value


def load_profiles(path: pathlib.Path = PROFILES_FILE) -> dict[str, Profile]:
    """All profiles by name."""
    fix = "profiles are [profiles.<name>] tables; compare with the 'default' profile"
    specs = read_toml(path, fix).get("profiles")
    if not isinstance(specs, dict):
        raise ConfigError(f"{path} has no [profiles.<name>] table", fix)
    profiles = {}
    for name, spec in specs.items():
        try:
            if not isinstance(spec, dict):
                raise TypeError(f"it is {spec!r}, not a [profiles.{name}] table")
            profiles[name] = _profile(name, spec)
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(
                f"profile '{name}' in {path} is malformed: {e}", "compare it with the 'default' profile"
            ) from e
    return profiles


def find_profile(profiles: dict[str, Profile], name: str) -> Profile:
    """A profile by name, or UnknownNameError listing valid names."""
    if name not in profiles:
        raise UnknownNameError("profile", name, profiles, "in experiments/profiles.toml")
    return profiles[name]

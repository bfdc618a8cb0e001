"""Method: how the numbers were made (engine, design, replication, intervals, verdicts)."""

from __future__ import annotations

from harness.config.experiment.profiles import DESIGN_TEXT
from harness.model.folder.run_records import BudgetRecord, RunRecord
from harness.model.stats.pairing import BURST_DESIGNS, READING_ANCHOR


def method_markdown(run: RunRecord) -> str:
    """How the numbers were made, in a few lines."""
    stopping = run.stopping
    caps = [
        f"{seconds:g} s of machine time{per}"
        for seconds, per in (
            (stopping.get("group_time_cap_s"), " per group"),
            (stopping.get("cell_time_cap_s"), " per cell"),
        )
        if seconds is not None
    ]
    target = stopping.get("target_rel_ci")
    rule = (
        f"at least {stopping.get('min_rounds', '?')} rounds, then more until every ratio of a group had a 99% CI "
        "within "
        f"±{100 * target:.2g}% or the group reached {stopping.get('max_rounds')} rounds"
        + (" or " + " or ".join(caps) if caps else "")
        if target
        else f"{stopping.get('min_rounds', '?')} round(s)"
    )
    if run.budget:
        rule = _with_budget(rule, run.budget)
    engine = (
        "BenchmarkDotNet in-process (emit toolchain) inside one fresh lab process per cell and round, MemoryDiagnoser "
        "on. "
        if run.design not in BURST_DESIGNS
        else (
            "One fresh lab process per group and round measures every cell of the group"
            if run.design in ("paired", "paired-pipelined")
            else "One fresh lab process per ISA level, runtime build and round measures every cell of every group "
            "there that still wants rounds (one joint warm-up; each group's ratios are still taken inside each process)"
        )
        + " with the lab's paired engine: each cell "
        "warmed until the JIT is quiet, then rounds of short bursts (every cell once per round, in a fresh random "
        "order, each burst "
        "after a full collection, the loop's own overhead subtracted as BenchmarkDotNet does), bytes allocated read "
        "per burst; "
        "a process's ratio is the median of its per-round burst ratios, and its cell time the median of its bursts. "
        "Groups a "
        "process cannot hold (a lab without the paired verb, a group of one cell) ran under the interleaved design "
        "with "
        "BenchmarkDotNet or the lab's own engine (the Precision table names each group's design). "
    )
    return (
        "## Method\n\n" + engine + f"Design `{run.design}` ({DESIGN_TEXT.get(run.design, '')}); {rule}. "
        "The process is the unit of replication: a cell's mean is the mean of its processes' means, with a Student-t "
        "99% interval "
        "over them; a ratio is the geometric mean of per-pair ratios (a benchmark's process over the baseline's "
        "process of the same "
        "round or duet), with a Student-t 99% interval on their logarithms. The within-process interval (iterations of "
        "one process) "
        "is kept as a diagnostic in tables/results.csv (`within_rel_ci99`): it ignores the process-to-process spread "
        "and is several "
        "times too narrow. Raw BenchmarkDotNet JSON, the process's env.json and verification.json are under `raw/`; "
        "logs under `logs/`.\n" + _anchors_text(run)
    )


def _anchors_text(run: RunRecord) -> str:
    """How ratios across processes were read when the processes timed the native anchors."""
    if not run.job.native_anchors:
        return ""
    return (
        "\nEvery paired process also timed the native anchors (job setting `native_anchors`: C code of the same bytes "
        "on every runtime, its library's sha256 recorded per row). A ratio whose two sides could not share a process "
        f"(runtimes, ISA levels) is read as a ratio of ratios through the `{READING_ANCHOR}` anchor: each side's time "
        "over the anchor's in its own process, so the machine speed each process saw cancels; a ratio some of whose "
        'processes lack the anchor or loaded another library is read plainly (docs/method.md, "Claims across '
        'runtimes").\n'
    )


def _with_budget(rule: str, budget: BudgetRecord) -> str:
    """The stopping rule as the run's budget shaped it (or, under --until-decided, replaced it)."""
    if budget.get("until_decided"):
        return (
            f"at least {budget['floor_rounds']} rounds for every group, then, until every published claim more "
            f"rounds could decide was decided or the session reached its limit of {budget['minutes']:g} min "
            "(--until-decided), one round at a time to the group whose rounds were forecast to decide the most claims "
            "per second of machine time"
        )
    shared = (
        "every group its first rounds, then one round at a time to the group with the fewest, groups with a "
        "published claim still undecided first"
        if budget.get("priority") == "open-claims"
        else "each group as many as every later one could also have"
    )
    return rule + (
        f"; the whole session had a time budget of {budget['minutes']:g} min, shared across groups in rounds "
        f"({shared}), which could cut a group short of that rule but not below {budget['floor_rounds']} rounds"
    )

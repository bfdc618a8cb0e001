"""The columns the analysis derives in its frames, each declared once with what it holds. A frame's other columns are
declared by the record it is made from: a result row's fields (harness/model/folder/records.py ResultRow), a verdict's
(analysis/compute/verdicts/verdicts.py Verdict), a side file's record (harness/model/folder/run_records.py), a table's
COLUMNS. tests/analysis/test_column_names.py holds every column a module of analysis/ names by its text to one of
these homes, so that a misspelt column fails a test rather than reading as missing."""

from __future__ import annotations

#: The cells table (analysis/compute/aggregate.py): each cell beside its group's baseline.
CELL_TABLE = {
    "baseline_status": "the baseline cell's status",
    "baseline_verification_status": "the baseline cell's verification",
    "baseline_allocated_bytes_per_op": "the baseline cell's allocation per call",
    "ratio": "time over the baseline's, the estimate of the ratio's interval (harness/model/stats)",
    "ratio_ci99_lower": "the ratio's 99% interval, its lower end",
    "ratio_ci99_upper": "the ratio's 99% interval, its upper end",
    "ratio_rel_ci99": "the ratio's 99% interval's half width over the ratio",
    "ratio_pairs": "processes (or pairs) the ratio's interval is over",
    "allocated_ratio": "allocation per call over the baseline's",
    "rel_ci99": "the cell's own 99% interval's half width over its time",
    "comparison_void": "the cell or its baseline failed verification: no ratio is judged",
    "isa_rank": "the ISA level's place in display order",
    "setting": "what a table column or a chart bar stands for: the ISA level, with the runtime when several ran",
    "setting_rank": "runtimes in run order, then ISA levels in display order",
}

#: The A/A check of the precision section (analysis/compute/precision.py).
PRECISION = {
    "aa_ratio": "a variant's time over its own time in other processes (1 when nothing but noise differs)",
    "aa_lower": "the A/A ratio's 99% interval, its lower end",
    "aa_upper": "the A/A ratio's 99% interval, its upper end",
}

#: The noise section (analysis/compute/noise.py; the calibration drift also in analysis/render/hosts_report.py).
NOISE = {
    "median": "a group's median JIT compilations per paired process while its rounds were timed",
    "size": "the group's processes counted",
    "relative_to_first": "a workload's time over its first timing of the run (or the first host's)",
}

#: Two runs side by side (analysis/tools/compare.py, compare_report.py, analysis/charts/compare_dots.py).
RUN_COMPARISON = {
    "verdict_a": "the figure's verdict in run A",
    "verdict_b": "the figure's verdict in run B",
    "same": "both runs gave the figure the same verdict",
    "measured": "either run measured the figure (not void, not failed)",
    "agree": "the ratio's intervals of the two runs overlap",
    "drift": "the ratio in run B over run A",
    "drift_ci99_lower": "the drift's 99% interval, its lower end",
    "drift_ci99_upper": "the drift's 99% interval, its upper end",
    "change": "a ratio's change between the runs, classified against its interval and the threshold",
}

#: Designs compared at equal machine time (analysis/tools/designs.py, rounds.py).
DESIGN_COMPARISON = {
    "aa": "the ratio is an A/A one (a variant over its own copy), left out of the designs' comparison",
    "machine_minutes": "the machine time the design's run took",
    "group_machine_s": "the machine time one group took under the design",
    "equal_time_half_width": "the median ratio interval's half width scaled to the same machine time",
    "width_vs_first": "that half width over the first design's",
    "bursts_s": "the time a process spent in its timed bursts",
}

#: A stopping rule replayed over a finished run (analysis/tools/stopping_replay.py, stopping_replay_report.py): its
#: table's and its summary's keys.
STOPPING_REPLAY = {
    "by_claim": "each figure's verdict under the rule replayed",
    "differ_from_all": "figures whose verdict differs from the one all rounds give",
    "median_ratio_ci": "the median ratio 99% interval the rule reaches",
    "outcomes": "verdicts by kind under the rule",
    "machine_min": "the machine minutes the rule would have taken",
    "recorded_rounds": "the rounds the run recorded",
}

#: Ratios read without the native anchors (analysis/tools/anchors.py), beside the anchored ones.
ANCHOR_CHECK = {
    "plain_log_sd": "the spread of the plain ratios' logarithms",
    "plain_rel_half_width": "the plain ratio's 99% interval's half width over it",
    "plain_holds_1": "the plain A/A interval holds 1",
}

#: Every derived column, by name.
DERIVED = {
    **CELL_TABLE,
    **PRECISION,
    **NOISE,
    **RUN_COMPARISON,
    **DESIGN_COMPARISON,
    **STOPPING_REPLAY,
    **ANCHOR_CHECK,
}

"""The column names of a BenchmarkDotNet table, by kind: those that describe a row's job, the ones its runtime is read
from, the category and baseline marks, and the statistics and diagnoser columns that end a table's parameter columns.
Kept apart from report_tables.py, which reads the tables, because these lists grow with each BenchmarkDotNet version and
say nothing about parsing.
"""

from __future__ import annotations

#: Columns that describe the job a row ran under rather than a benchmark parameter.
JOB_COLUMNS = frozenset(
    {
        "Job",
        "Runtime",
        "Toolchain",
        "IterationCount",
        "WarmupCount",
        "LaunchCount",
        "InvocationCount",
        "UnrollFactor",
        "IterationTime",
        "MaxIterationCount",
        "MinIterationCount",
        "MaxWarmupIterationCount",
        "MinWarmupIterationCount",
        "RunStrategy",
        "Platform",
        "Jit",
        "Server",
        "Concurrent",
        "Force",
        "Affinity",
        "EnvironmentVariables",
        "Arguments",
        "BuildConfiguration",
        "PowerPlanMode",
        "Gc",
        "Outliers",
        "NuGetReferences",
        "Id",
        "AnalyzeLaunchVariance",
        "EvaluateOverhead",
        "MaxRelativeError",
        "MinInvokeCount",
    }
)
#: The columns a job's runtime is read from, in order of preference.
RUNTIME_COLUMNS = ("Job", "Runtime")
#: [CategoriesColumn]: a row's [BenchmarkCategory] names, joined by ','. Grouped by category
# (GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)), each category is a ratio group with its own baseline: a
# category, not a parameter of the benchmark.
CATEGORY_COLUMN = "Categories"
#: [BaselineColumn]: 'Yes' on a group's baseline row, 'No' on the others.
BASELINE_COLUMN = "Baseline"
#: Statistics and diagnoser columns: the first one ends the parameter columns. Mean, Ratio and Allocated are read.
STAT_COLUMNS = frozenset(
    {
        "Mean",
        "Error",
        "StdDev",
        "StdErr",
        "Median",
        "Min",
        "Max",
        "Q1",
        "Q3",
        "Op/s",
        "Ratio",
        "RatioSD",
        "Scaled",
        "ScaledSD",
        "Alloc Ratio",
        "Allocated",
        "Gen 0",
        "Gen 1",
        "Gen 2",
        "Gen0",
        "Gen1",
        "Gen2",
        "Completed Work Items",
        "Lock Contentions",
        "Code Size",
        "Rank",
        "Iterations",
        "Skewness",
        "Kurtosis",
        "MValue",
        "Exceptions",
        "Allocated native memory",
        "Native memory leak",
        "P0",
        "P25",
        "P50",
        "P67",
        "P80",
        "P85",
        "P90",
        "P95",
        "P100",
        "Allocated Memory/Op",
    }
)

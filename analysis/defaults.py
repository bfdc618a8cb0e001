"""Every default the analysis uses, in one place."""

#: ISA levels in display order (levels of other architectures follow, alphabetically).
ISA_ORDER = ("native", "no-avx512", "no-avx2", "sse2", "scalar")

#: A group whose widest ratio 99% CI half-width exceeds this is named in the Precision section with the cause of its
# spread.
WIDE_RATIO_CI = 0.05

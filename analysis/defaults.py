"""Every default the analysis uses, in one place."""

#: A measured ratio within this relative distance of the published ratio reproduces it
#: (ratios, not absolute times, are compared: the hardware and runtime differ).
TOLERANCE = 0.15

#: Ratios within this distance of 1.0 count as parity when judging direction.
PARITY_BAND = 0.05

#: ISA levels in display order (levels of other architectures follow, alphabetically).
ISA_ORDER = ("native", "no-avx512", "no-avx2", "sse2", "scalar")

#: A group whose widest ratio 99% CI half-width exceeds this is named in the Precision section with the cause of its
# spread.
WIDE_RATIO_CI = 0.05

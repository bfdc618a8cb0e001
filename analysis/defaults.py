"""Every default the analysis uses, in one place."""

#: A group whose widest ratio 99% CI half-width exceeds this is named in the Precision section with the cause of its
# spread.
WIDE_RATIO_CI = 0.05

"""From a run folder to numbers: replicates, ratios, verdicts, precision, noise, timing, and each section's data."""

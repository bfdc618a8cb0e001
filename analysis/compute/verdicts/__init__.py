"""Verdicts: each claim's verdict and its row, what explains it, the publisher's setup against this host's, the nearest
host, undecided figures, coverage, the architecture check and chart references."""

"""The host: its environment record, per-process noise, CPU hygiene, and the preflight of the tools a run needs."""

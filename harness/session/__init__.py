"""Running a plan: sessions, rounds, the stopping rule, the budget, calibration, probes, builds, cold starts and
conformance."""

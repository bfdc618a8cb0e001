"""Planning a run: cells per experiment, ISA level and runtime; designs; CPU pinning; the duration estimate."""

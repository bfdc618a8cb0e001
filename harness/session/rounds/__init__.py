"""The rounds of a session: the scheduler loop, priority, the noise probe, open claims, the stopping rule,
until-decided, the budget, round costs, calibration and progress."""

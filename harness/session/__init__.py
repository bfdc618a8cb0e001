"""Running a plan: the runner, build isolation, the model read-back, conformance and other hosts; the rounds (rounds/)
and the processes (processes/) of a session."""

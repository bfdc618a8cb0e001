"""The processes of a session: its setup, the rows each cell makes, the slots a process runs in, cold starts, the probe
and the rows written."""

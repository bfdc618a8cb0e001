"""What a run is and writes: errors, defaults, cells and places, experiments and claims, judging a claim, group keys and
states, outcomes; the run folder (folder/) and statistics (stats/)."""

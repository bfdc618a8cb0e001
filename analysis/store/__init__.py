"""The results store: every run folder in one SQLite file (results/store.sqlite), a table per record kind (runs, hosts,
rows, verdicts) with its schema version and migrations, imported idempotently and atomically, rebuilt from the folders
at will, and the queries across runs a figure's history needs. It reads a run folder only through the readers the
report uses (analysis/compute, harness/model/folder) and judges its figures with the report's own verdict code; it sits
above render, whose `run_labs_dir` says which labs a run kept. docs/store.md says what it holds."""

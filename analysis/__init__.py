"""Analysis: turns a run folder's normalized rows into tables, charts, verdicts and report.md."""

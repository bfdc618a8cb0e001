"""The history site (`just site`): static pages built from the results store (analysis/store): an index of write-ups
and runs, a page per write-up (its figures' verdicts over the runs, the ladders of its latest explain run) and a page
per figure (its history chart, change points, the runs that read it with links to their reports). Reads the store and
the run folders' rendered charts and reports; imports render, charts and compute below it; the CLI above it."""

"""The lab's records and the run folder: result rows and their schema, errors, statistics, pairing, the store."""

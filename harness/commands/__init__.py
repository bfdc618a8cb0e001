"""One module per group of subcommands; harness/cli.py holds the parser and the dispatch table."""

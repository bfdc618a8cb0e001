"""`python3 -m harness ...` entry point; a Python without the lab's libraries gets an error with the fix."""

import sys

from harness.model.errors import run_cli

sys.exit(run_cli("harness"))

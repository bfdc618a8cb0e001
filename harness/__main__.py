"""`python3 -m harness ...` entry point."""

import sys

from harness.cli import main

sys.exit(main())

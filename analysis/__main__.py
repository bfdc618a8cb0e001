"""`python3 -m analysis report RUN_DIR` entry point."""

import sys

from analysis.cli import main

sys.exit(main())

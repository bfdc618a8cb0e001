"""The lab's harness: reads experiments, plans cells, runs them through a backend, stores normalized rows."""

__version__ = "0.1.0"

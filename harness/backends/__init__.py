"""Backends run the lab contract's verbs somewhere: natively (taskset), in Docker (later), or faked for tests."""

from harness.backends.base import Backend, CellRequest
from harness.backends.fake import FakeBackend
from harness.backends.native import NativeBackend

#: The visible registry of backends by name.
BACKENDS = {"native": NativeBackend}

__all__ = ["BACKENDS", "Backend", "CellRequest", "FakeBackend", "NativeBackend"]

"""A process whose container engine failed says so, whichever way the docker CLI words it."""

from harness.backends.base import last_engine_error


def test_an_engine_gone_before_or_during_an_exec_is_named_as_the_engines_failure():
    during = "cannot connect to the Docker daemon. Is 'docker daemon' running on this host?: dial unix x.sock"
    before = "docker: Cannot connect to the Docker daemon at unix:docker.sock. Is the docker daemon running?"
    assert last_engine_error(f"lab output\n{during}\n") == f"the container engine failed: {during}"
    assert last_engine_error(before) == f"the container engine failed: {before}"
    assert last_engine_error("Error response from daemon: No such container: x").startswith("the container engine")
    assert last_engine_error("error: the lab's own error\nhint: its fix") is None

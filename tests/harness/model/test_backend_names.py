"""Backend names (harness/model/backend_names.py): today's, and the one run folders stored before the rename."""

from harness.backends import BACKEND_CHOICES, BACKENDS
from harness.model.backend_names import DOCKER, FORMER_NAMES, HOST, stored_backend


def test_a_stored_native_backend_reads_as_host_and_todays_names_as_themselves():
    assert stored_backend("native") == HOST == "host"
    assert stored_backend("host") == "host" and stored_backend("docker") == "docker"
    assert stored_backend("fake") == "fake" and stored_backend(None) is None


def test_the_registry_names_the_backends_as_runs_store_them_and_no_former_name_is_a_choice():
    assert set(BACKENDS) == {HOST, DOCKER} and {BACKENDS[name].name for name in BACKENDS} == {HOST, DOCKER}
    assert not set(FORMER_NAMES) & set(BACKEND_CHOICES), "a former name is refused, not silently taken"
    assert set(FORMER_NAMES.values()) <= set(BACKENDS)

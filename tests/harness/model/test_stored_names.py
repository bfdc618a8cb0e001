"""Backend and lab names (harness/model/folder/stored_names.py): today's, and the ones run folders stored before a
rename."""

from harness.backends import BACKEND_CHOICES, BACKENDS
from harness.model.folder.stored_names import DOCKER, FORMER_BACKENDS, FORMER_LABS, HOST, stored_backend, stored_lab


def test_a_stored_native_backend_reads_as_host_and_todays_names_as_themselves():
    assert stored_backend("native") == HOST == "host"
    assert stored_backend("host") == "host" and stored_backend("docker") == "docker"
    assert stored_backend("fake") == "fake" and stored_backend(None) is None


def test_the_registry_names_the_backends_as_runs_store_them_and_no_former_name_is_a_choice():
    assert set(BACKENDS) == {HOST, DOCKER} and {BACKENDS[name].name for name in BACKENDS} == {HOST, DOCKER}
    assert not set(FORMER_BACKENDS) & set(BACKEND_CHOICES), "a former name is refused, not silently taken"
    assert set(FORMER_BACKENDS.values()) <= set(BACKENDS)


def test_the_former_cpp_lab_name_reads_as_today_s_folder_and_every_former_lab_name_is_no_lab_of_today():
    from harness.config.lab.labs import load_labs

    assert stored_lab("native") == "cpp" and stored_lab("dotnet") == "dotnet"
    labs = load_labs()
    assert set(FORMER_LABS.values()) <= set(labs) and not set(FORMER_LABS) & set(labs)

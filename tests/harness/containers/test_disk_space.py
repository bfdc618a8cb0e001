"""A run stops before any build when the engine's data root has too little free space, naming the fix."""

import pytest

from harness.containers.disk_space import GB, GB_PER_BUILD, require_space
from harness.model.errors import BuildError


def test_too_little_space_stops_before_the_build_with_the_fix(tmp_path):
    with pytest.raises(BuildError) as error:
        require_space(6, tmp_path, free_bytes=int(2.0 * GB))
    assert f"{tmp_path}, which has 2.0 GB free" in str(error.value)
    assert "6 builds" in str(error.value)
    assert "docker builder prune" in error.value.hint and "data-root" in error.value.hint


def test_enough_space_or_nothing_to_build_passes(tmp_path):
    require_space(3, tmp_path, free_bytes=int(3 * GB_PER_BUILD * GB) + 1)
    require_space(0, tmp_path, free_bytes=0)


def test_the_real_free_space_of_a_folder_is_read_when_none_is_given(tmp_path):
    with pytest.raises(BuildError, match="GB free"):
        require_space(10**9, tmp_path)  # no disk here has an exabyte free

"""`python3 -m harness` and `python3 -m analysis` under a Python without the lab's libraries: an error naming the module
and the fix, exit 2, no traceback (issue 47: the docs' `python3` may be another Python than Debian's)."""

import subprocess
import sys

import pytest

from harness.model.errors import missing_library
from tests.conftest import REPO


@pytest.mark.parametrize("package, args", [("harness", ["list"]), ("analysis", ["report", "nowhere"])])
def test_a_python_without_the_lab_s_libraries_gets_an_error_with_the_fix(package, args):
    # -S: no site-packages, so none of scipy, pandas, matplotlib is importable, as under a bare Python
    done = subprocess.run([sys.executable, "-S", "-m", package, *args], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    error, hint = done.stderr.strip().splitlines()[-2:]
    assert error.startswith(f"error: this Python ({sys.executable}) has no module '") and hint.startswith("hint: ")


def test_a_missing_module_of_the_lab_s_own_is_a_bug_not_a_missing_library():
    assert missing_library(ModuleNotFoundError(name="harness.nothing"), "/usr/bin/python3") is None
    message, hint = missing_library(ModuleNotFoundError(name="scipy.stats"), "/opt/python3")
    assert "no module 'scipy'" in message and "/usr/bin/python3" in hint
    assert "apt-get install python3-scipy" in missing_library(ModuleNotFoundError(name="scipy"), "/usr/bin/python3")[1]

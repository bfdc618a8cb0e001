"""Variants with settings chosen in the experiment, on the real .NET lab: a benchmark's `settings` table names a
variant of its own ("stj-default+indented=true+naming=snake_case_lower"), which the lab builds from its base variant,
verifies field by field (the verifier finds snake_case members; a document of other names binds nothing and fails
verification) and times in a paired process beside the
write-up's variants; a setting this runtime's System.Text.Json lacks fails its cell with the reason, on .NET Core 3.1
only. Composite operations in the same run: two steps in one timed call, each step verified alone and the chain's
result against the dataset."""

import shutil

import pytest

from tests.conftest import edited_experiments
from tests.e2e.real_run import run_real

pytestmark = pytest.mark.skipif(shutil.which("dotnet") is None, reason="needs the .NET SDK")

SNAKE = "stj-default+indented=true+naming=snake_case_lower"
BENCHMARKS = """
[[benchmarks]]
id = "single-stj-snake-indented"
group = "single"
variant = "stj-default"
settings = { naming = "snake_case_lower", indented = true }
dataset = "employee-single"
operation = "serialize"

[[benchmarks]]
id = "single-stj-snake-read"
group = "single"
variant = "stj-default"
settings = { naming = "snake_case_lower" }
dataset = "employee-single"
note = "binds nothing: the document is camelCase"

[[benchmarks]]
id = "single-newtonsoft-snake"
group = "single"
variant = "newtonsoft-default"
settings = { naming = "snake_case_lower" }
dataset = "employee-single"
operation = "serialize"

[[benchmarks]]
id = "single-stj-round-trip"
group = "single"
variant = "stj-case-insensitive"
dataset = "employee-single"
operation = "serialize-then-deserialize"

[[benchmarks]]
id = "single-newtonsoft-read-write"
group = "single"
variant = "newtonsoft-default"
dataset = "employee-single"
operation = "deserialize-then-serialize"
"""


def test_settings_chosen_in_the_experiment_are_built_verified_and_measured_by_the_lab(tmp_path):
    experiments = edited_experiments(tmp_path, e001=lambda text: text + BENCHMARKS)
    _, rows = run_real(
        tmp_path,
        experiments,
        "001",
        ("single-newtonsoft", "single-stj-snake-indented", "single-stj-snake-read", "single-newtonsoft-snake")
        + ("single-stj-round-trip", "single-newtonsoft-read-write", "single-stj-case-insensitive"),
        ("3.1.3", "10.0.12"),
    )
    by = {(r["benchmark"], r["runtime_requested"]): r for r in rows if r.get("role") != "aa"}
    today, legacy = by[("single-stj-snake-indented", "10.0.12")], by[("single-stj-snake-indented", "3.1.3")]
    assert today["variant"] == SNAKE and today["status"] in ("ok", "unverified"), today
    assert today["library"] == "System.Text.Json" and today["verification_status"] == "passed"
    assert legacy["status"] == "failed" and "arrived in .NET 8" in legacy["error"], legacy
    # deserializing a camelCase document with snake_case names binds nothing: verification says so, field by field
    unbound = by[("single-stj-snake-read", "10.0.12")]
    assert unbound["status"] == "unverified" and unbound["verification_status"] == "failed", unbound
    for runtime in ("3.1.3", "10.0.12"):
        newtonsoft = by[("single-newtonsoft-snake", runtime)]
        assert newtonsoft["variant"] == "newtonsoft-default+naming=snake_case_lower"
        assert newtonsoft["verification_status"] == "passed" and newtonsoft["status"] in (
            "ok",
            "unverified",
        ), newtonsoft
    for chain_id, step_id, operation in (
        ("single-stj-round-trip", "single-stj-case-insensitive", "serialize-then-deserialize"),
        ("single-newtonsoft-read-write", "single-newtonsoft", "deserialize-then-serialize"),
    ):
        for runtime in ("3.1.3", "10.0.12"):
            chain, step = by[(chain_id, runtime)], by[(step_id, runtime)]
            assert chain["status"] in ("ok", "unverified") and chain["verification_status"] == "passed", chain
            assert "verified alone; the chain's result matches" in chain["verification_message"], chain
            # both timed in the same processes; which is faster is a measurement, not a test (a case-insensitive read
            # of the chain's own PascalCase output can beat the step's read of the camelCase dataset: CI of c3cfda5)
            assert chain["operation"] == operation, chain
            assert step["median_ns"] > 0 and chain["median_ns"] > 0, (chain, step)

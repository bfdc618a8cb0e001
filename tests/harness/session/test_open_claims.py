"""Which claims a group decides while the run goes on (harness/session/rounds/open_claims.py), read as the report
does."""

from __future__ import annotations

import dataclasses
import math

from harness.model.folder.records import RowStatus, VerificationStatus
from harness.planning.run_plan import resolve_plan
from harness.session.rounds.open_claims import ClaimReading, claims_by_group, open_claims
from tests.harness.model.test_warmup_check import _row as process_row


def _row(benchmark: str, round_index: int, ns: float, verification=VerificationStatus.PASSED):
    """A paired process's row of benchmark `benchmark` over baseline 'base'."""
    return process_row(
        benchmark,
        round_index,
        None,
        ns=ns,
        baseline="base",
        status=RowStatus.OK.value,
        verification_status=verification,
        median_ns=ns,
    )


def _rows(ratios: list[float], verification=VerificationStatus.PASSED):
    rows = []
    for k, ratio in enumerate(ratios, start=1):
        rows += [_row("base", k, 100.0), _row("v", k, 100.0 * ratio, verification)]
    return rows


CLAIM = ClaimReading("v", "base", 0.50, "claim 'v' in 'table'")  # the band: 0.425 to 0.575


def test_a_claim_whose_interval_lies_inside_the_band_is_decided():
    assert open_claims([CLAIM], _rows([0.50, 0.51, 0.49, 0.50, 0.505])) == 0


def test_a_claim_whose_interval_lies_wholly_outside_the_band_is_decided_too():
    assert open_claims([CLAIM], _rows([0.90, 0.91, 0.89, 0.90, 0.905])) == 0


def test_a_claim_whose_interval_straddles_an_edge_of_the_band_is_open():
    ratios = [0.55, 0.62, 0.50, 0.58, 0.66]  # around the upper edge, 0.575, and too spread to say
    assert open_claims([CLAIM], _rows(ratios)) == 1


def test_a_claim_with_one_process_or_none_is_open():
    assert open_claims([CLAIM], _rows([0.5])) == 1
    assert open_claims([CLAIM], []) == 1


def test_a_claim_whose_side_failed_verification_is_void_and_never_holds_a_group():
    ratios = [0.55, 0.62, 0.50, 0.58, 0.66]
    assert open_claims([CLAIM], _rows(ratios, VerificationStatus.FAILED)) == 0


def test_the_smoke_plan_reads_each_claim_on_its_published_level_and_runtime_only(smoke_options):
    plan = resolve_plan(smoke_options)
    claims = claims_by_group(plan.experiments, plan.cells)
    # Write-ups 000 and 001 were measured on AVX2/AVX-512 desktops: read at native, on the runtime standing in for
    # theirs, never at the scalar level the smoke run also measures.
    assert set(claims) == {("native", "000", "myclass", "10.0.12"), ("native", "001", "single", "10.0.12")}
    single = claims[("native", "001", "single", "10.0.12")]
    assert [(c.benchmark, c.reference) for c in single] == [("single-stj-default", "single-newtonsoft")]
    assert all(c.published > 0 and not math.isnan(c.published) for cs in claims.values() for c in cs)


def test_a_run_without_the_level_a_claim_is_read_at_decides_no_claim(smoke_options):
    # Only scalar planned: the claims' primary reading (native) is not measured, as in the report's table.
    plan = resolve_plan(dataclasses.replace(smoke_options, isa_levels=("scalar",)))
    assert {c.isa_level for c in plan.cells} == {"scalar"}
    assert claims_by_group(plan.experiments, plan.cells) == {}


def test_a_switched_place_is_steered_by_the_claims_of_the_group_it_switches_a_factor_of():
    from harness.planning.run_plan import RunOptions

    options = RunOptions(profile="explain", experiments=("007",), build=False, check_tools=False)
    plan = resolve_plan(options)
    claims = claims_by_group(plan.experiments, plan.cells)
    base = ("native", "007", "dotnet", "10.0.12")
    assert claims[base] and claims[("native", "007", "dotnet", "10.0.12[tiered_compilation=off]")] == claims[base]
    assert claims[("native", "007", "dotnet", "10.0.12+Newtonsoft.Json=13.0.3")] == claims[base]


def test_a_claim_published_on_another_architecture_than_the_runs_steers_nothing(smoke_options):
    plan = resolve_plan(smoke_options)
    on_apple = {
        key: dataclasses.replace(h, cpu_vendor="apple", microarchitecture=None)
        for key, h in next(e for e in plan.experiments if e.id == "001").hardware.items()
    }
    experiments = [dataclasses.replace(e, hardware=on_apple) if e.id == "001" else e for e in plan.experiments]
    single = ("native", "001", "single", "10.0.12")
    assert single not in claims_by_group(experiments, plan.cells, lambda cell: "x64")
    assert single not in claims_by_group(experiments, plan.cells, lambda cell: "")  # an emulated arm64 build
    assert single in claims_by_group(experiments, plan.cells, lambda cell: "arm64")
    assert claims_by_group(experiments, plan.cells, lambda cell: None) == claims_by_group(experiments, plan.cells)
    assert single in claims_by_group(plan.experiments, plan.cells, lambda cell: "x64")  # 001 was an x64 desktop

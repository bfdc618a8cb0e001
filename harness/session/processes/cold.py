"""Cold-start cells: a whole fresh process per timed run, timed by hyperfine (experiments with measure = "cold").

A cold cell runs once per run, after the steady-state cells: the lab's `verify` verb checks the variant on the cell's
dataset first (as `run` does before timing), then the backend times `once` and `once --prepare-only` with hyperfine
and reads peak RSS (Backend.run_cold), and harness/normalize/hyperfine.py turns that into one row.
"""

from __future__ import annotations

from typing import Any

from harness.backends.base import Backend, CellRequest
from harness.config.lab.variant_settings import base_of
from harness.model.errors import HarnessError
from harness.model.places import SettingsReadback
from harness.session.processes.probe import LabProbe


def verify_cold_cell(backend: Backend, request: CellRequest) -> dict[str, Any]:
    """The lab's verification of the cell's variant × dataset × operation, under the cell's switches."""
    c = request.cell
    try:
        results = backend.call(request.lab, request.cell_args("verify"), request.switches)
    except HarnessError as e:
        return {"status": "failed", "message": f"the lab could not verify {c.variant}: {e}"}
    return (
        results[0]
        if results
        else {"status": "failed", "message": f"the lab's verify returned nothing for {c.variant} × {c.dataset}"}
    )


def cold_settings_readback(backend: Backend, request: CellRequest) -> SettingsReadback:
    """The run settings a process with the cold cell's environment reports (hyperfine's timed processes report
    nothing); empty when that process fails (the cell then fails its settings check, naming what was not reported)."""
    try:
        env = backend.call(request.lab, ["env"], request.switches)
    except HarnessError:
        return {}
    return dict((env or {}).get("settings") or {})


def variant_info(probe: LabProbe, variant: str) -> dict[str, Any]:
    """The build's own description of a variant (library, its loaded version, payload form), from `list`."""
    base = base_of(variant)  # a variant with settings is described by its base variant
    return next((v for v in probe.listing.get("variants", []) if v.get("variant") == base), {})

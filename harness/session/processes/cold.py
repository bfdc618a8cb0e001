"""Cold-start cells: a whole fresh process per timed run, timed by hyperfine (experiments with measure = "cold").

A cold cell runs once per run, after the steady-state cells: the lab's `verify` verb checks the variant on the cell's
dataset first (as `run` does before timing), then the backend times `once` and `once --prepare-only` with hyperfine
and reads peak RSS (Backend.run_cold), and harness/normalize/hyperfine.py turns that into one row.
"""

from __future__ import annotations

from harness.backends.base import Backend, CellRequest
from harness.config.lab.variant_settings import base_of
from harness.model.errors import HarnessError
from harness.model.json_value import JsonObject, as_array, as_object
from harness.model.places import SettingsReadback
from harness.session.processes.probe import LabProbe


def verify_cold_cell(backend: Backend, request: CellRequest) -> JsonObject:
    """The lab's verification of the cell's variant × dataset × operation, under the cell's switches: its first
    result (an answer that is not an array reads as an empty one, a result that is not an object as one without a
    status)."""
    c = request.cell
    try:
        results = as_array(backend.call(request.lab, request.cell_args("verify"), request.switches))
    except HarnessError as e:
        return {"status": "failed", "message": f"the lab could not verify {c.variant}: {e}"}
    return (
        as_object(results[0])
        if results
        else {"status": "failed", "message": f"the lab's verify returned nothing for {c.variant} × {c.dataset}"}
    )


def cold_settings_readback(backend: Backend, request: CellRequest) -> SettingsReadback:
    """The run settings a process with the cold cell's environment reports (hyperfine's timed processes report
    nothing); empty when that process fails (the cell then fails its settings check, naming what was not reported), a
    setting read back as an array or an object counting as not reported."""
    try:
        env = backend.call(request.lab, ["env"], request.switches)
    except HarnessError:
        return {}
    settings = as_object(as_object(env).get("settings"))
    return {name: value for name, value in settings.items() if not isinstance(value, (list, dict))}


def variant_info(probe: LabProbe, variant: str) -> JsonObject:
    """The build's own description of a variant (library, its loaded version, payload form), from `list`."""
    base = base_of(variant)  # a variant with settings is described by its base variant
    entries = map(as_object, as_array(probe.listing.get("variants")))
    return next((v for v in entries if v.get("variant") == base), {})

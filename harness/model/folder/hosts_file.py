"""hosts.json, the one file of a run over several hosts that names them: written whole by the run
(harness/session/hosts_run.py), read once by its report. A run folder handed to the lab is untrusted: a file that
is not JSON, not a list of hosts with their facts, or that names a host that is no host name (it becomes a path under
hosts/) is a DamagedResultsError naming the file, never a traceback or a path outside the run folder."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Sequence

from harness.model.errors import SchemaError
from harness.model.folder.result_lines import DamagedResultsError
from harness.model.folder.run_folder import HOST_NAME, HOSTS_FILE, SCHEMA_VERSION
from harness.model.folder.run_records import HostRecord

_FIX = "restore the run folder from a copy: the run wrote hosts.json whole"


def write_hosts_file(run_dir: pathlib.Path, hosts: Sequence[HostRecord]) -> None:
    """hosts.json: every host, in the run's order."""
    data = {"schema_version": SCHEMA_VERSION, "hosts": [h.to_dict() for h in hosts]}
    (run_dir / HOSTS_FILE).write_text(json.dumps(data, indent=2) + "\n")


def read_hosts_file(run_dir: pathlib.Path) -> list[HostRecord]:
    """hosts.json's hosts, checked; DamagedResultsError naming the fault otherwise."""
    path = run_dir / HOSTS_FILE
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise DamagedResultsError(f"{path} cannot be read ({str(e)[:200]})", _FIX) from None
    entries = data.get("hosts") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("host"), str) and isinstance(e.get("facts"), dict) for e in entries
    ):
        raise DamagedResultsError(f"{path} is not a list of hosts with their facts", _FIX)
    bad = next((e["host"] for e in entries if not HOST_NAME.fullmatch(e["host"])), None)
    if bad is not None:
        raise DamagedResultsError(f"{path} names a host {bad!r}, which is no host name (nor a folder of hosts/)", _FIX)
    try:
        return [HostRecord.from_dict(e, f"{path} ({e['host']})") for e in entries]
    except SchemaError as e:
        raise DamagedResultsError(str(e), _FIX) from None

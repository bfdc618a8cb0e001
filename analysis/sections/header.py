"""The report's title block: run id, commit, host, design and budget."""

from __future__ import annotations

from typing import Any
import pandas as pd

from harness.model.run_records import RunRecord


def header_markdown(env: dict[str, Any], run: RunRecord, cells: pd.DataFrame) -> str:
    """Title and one paragraph saying where, when, on what and with what this was measured."""
    labs = env.get("labs", {})
    runtimes = "; ".join(
        f"lab {name}: {lab['env'].get('runtime_description', lab['env'].get('runtime'))}, "
        + ", ".join(f"{k} {v}" for k, v in lab["env"].get("libraries", {}).items())
        for name, lab in labs.items()
    )
    dirty = " (uncommitted changes)" if env.get("git_dirty") else ""
    return (
        f"# JSON serializer lab report — run {run.run_id}\n\n"
        f"Measured {env.get('captured_at', '?')} on **{env.get('cpu_model', '?')}** ({env.get('logical_cpus', '?')} "
        "logical CPUs, "
        f"{env.get('machine', '?')}, {'virtual machine' if env.get('hypervisor') else 'bare metal or undetected VM'}), "
        f"{env.get('os', '?')}, kernel {env.get('kernel', '?')}. {runtimes}. Profile `{run.profile}`; "
        f"each cell ran in a fresh process pinned to CPU {env.get('lab_cpuset', '?')} ({env.get('backend', '?')} "
        "backend). "
        f"Lab commit `{(env.get('git_commit') or '?')[:12]}`{dirty}.\n"
    )

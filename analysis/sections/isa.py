"""ISA levels: what each level switches off, and what the processes read back."""

from __future__ import annotations

from analysis.compute.aggregate import isa_rank
from analysis.formatting.tables import markdown_table
from harness.model.folder.environment_record import EnvironmentRecord


def isa_markdown(env: EnvironmentRecord | None) -> str:
    """What each ISA level turned out to be, as read back inside the lab process."""
    rows = []
    for lab_name, lab in (env.labs if env else {}).items():
        for level in sorted(lab.isa_levels.values(), key=lambda lvl: isa_rank(lvl["level"])):
            switches = ", ".join(f"`{k}={v}`" for k, v in level["switches"].items()) or "none"
            rows.append(
                [
                    lab_name,
                    level["level"],
                    switches,
                    level["isa_effective"],
                    level["state"] + (f": {level['detail']}" if level["detail"] else ""),
                ]
            )
    if not rows:
        return ""
    return (
        "## ISA levels\n\nEach level's switches were applied to a probe process, and again to every measured process, "
        "whose in-process readback is stored in each cell's `env.json` and checked against the level.\n\n"
        + markdown_table(["Lab", "Level", "Switches", "Effective ISA (read back)", "State"], rows)
    )

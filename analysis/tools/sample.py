"""A run's report, made small enough to commit as the sample a reader sees before running anything (docs/sample-report).

Kept: report.md and reproduction.md as rendered, the PNG charts they show (reduced to a 256-colour palette, which keeps
line art and text sharp at a third of the size), and the tables but the per-process one (rounds.csv, several MB; the
run folder has it). Left out: report.html (the same page with every chart inlined) and the SVG charts. A SAMPLE.md
beside them names the run, the commit it was measured at and the machine.
"""

from __future__ import annotations

import pathlib
import re
import shutil

from PIL import Image

from harness.model.errors import HarnessError
from harness.model.folder.run_folder import CHARTS_DIR, REPORT_DIR, REPORT_MD, TABLES_DIR
from harness.model.folder.store import RunStore

#: Tables too large for a committed sample (the run folder keeps them).
LEFT_OUT_TABLES = ("rounds.csv",)


def write_sample(run_dir: pathlib.Path, out: pathlib.Path) -> pathlib.Path:
    """Copies the run's report into `out` (replacing what is there); returns the path of its SAMPLE.md."""
    report = run_dir / REPORT_DIR
    if not (report / REPORT_MD).is_file():
        raise HarnessError(f"no report.md in {report}", f"render the report first: just report {run_dir}")
    if out.exists():
        shutil.rmtree(out)
    (out / CHARTS_DIR).mkdir(parents=True)
    (out / TABLES_DIR).mkdir()
    text = (report / REPORT_MD).read_text()
    for name in ("report.md", "reproduction.md"):
        shutil.copy2(report / name, out / name)
    for chart in sorted(set(re.findall(r"charts/[^)\s]+\.png", text))):
        if ".." in pathlib.PurePath(chart).parts:  # only the report's own charts, never a path out of its folder
            continue
        with Image.open(report / chart) as image:
            image.convert("RGB").quantize(colors=256).save(out / chart, optimize=True)
    for table in sorted((report / TABLES_DIR).glob("*.csv")):
        if table.name not in LEFT_OUT_TABLES:
            shutil.copy2(table, out / TABLES_DIR / table.name)
    env = RunStore(run_dir.resolve()).environment()
    commit = "not recorded" if env is None else f"{env.git_commit or 'not recorded'}"
    commit += " with uncommitted changes" if env is not None and env.git_dirty else ""
    host = (
        "an unrecorded host (the run folder has no environment.json)"
        if env is None
        else f"{env.cpu_model or 'an unrecorded CPU'} ({env.logical_cpus} logical CPUs, backend {env.backend})"
    )
    sample = out / "SAMPLE.md"
    sample.write_text(
        f"# Sample report\n\nThe report of run `{run_dir.resolve().name}`, measured at commit `{commit}` on "
        f"{host}, copied by `just sample-report`: [report.md](report.md). "
        "Charts are PNG with a 256-colour palette; report.html, the SVG charts and the per-process table "
        "(rounds.csv) are left out to keep the sample small (the run folder has them).\n"
    )
    return sample

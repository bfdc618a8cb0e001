"""JSON conformance (JSONTestSuite, datasets/conformance/): every parser a lab lists (`list` → "parsers") over every
file
of test_parsing/, read as bytes, one outcome per parser and file in conformance.jsonl.

The lab's `conformance` verb parses the files in name order and appends one line per file, written before the next file
starts, after a `{"ready": true}` line once the parser is warm. The harness watches that file: a process that dies
leaves the file it was parsing without a line (a stack overflow cannot be caught in .NET, nor a V8 abort in Node), and a
process that writes no line for `file_timeout_s` (`startup_timeout_s` before its ready line) is killed. Either way that
file's outcome is `crashed` or `hung`, and the verb starts again after it. So one file cannot end
the run, and each outcome is the lab's own: nothing is inferred from a file's name.

Expectations come from MANIFEST.tsv (`accept`, `reject`, `either`), and every file is checked against its sha256 there
before anything runs.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import pathlib
import signal
import subprocess
import time
from typing import Any, TypedDict

from harness.config.lab.labs import LabSpec
from harness.containers.isolation import DATASETS_MOUNT, OUT_MOUNT
from harness.model.errors import ConfigError, HarnessError
from harness.model.folder.run_folder import CONFORMANCE_FILE, RAW_DIR
from harness.model.folder.run_records import ConformanceRecord
from harness.model.json_value import as_array, as_number, as_object, as_text

SUITE_FOLDER = "conformance"
PARSING_FOLDER = "test_parsing"
MANIFEST = "MANIFEST.tsv"
OUTCOMES = ("accepted", "rejected", "crashed", "hung")
#: How long a file may take, once the parser is warm, before it counts as hung. The slowest file here takes under 10 ms
#: (NetJSON on a fresh process); NetJSON loops forever on 80 of them, so this limit is what the suite costs on its
# account.
FILE_TIMEOUT_S = 0.5
#: How long a process may take to start and warm its parser (the first line it writes).
STARTUP_TIMEOUT_S = 10.0
#: Verdicts by expectation and outcome; crashed and hung are failures whatever the expectation.
VERDICTS = {
    ("accept", "accepted"): "passed",
    ("accept", "rejected"): "wrongly rejected",
    ("reject", "rejected"): "passed",
    ("reject", "accepted"): "wrongly accepted",
    ("either", "accepted"): "accepted (allowed)",
    ("either", "rejected"): "rejected (allowed)",
}


class FileOutcome(TypedDict):
    """One suite file through one parser (run_parser): what conformance.jsonl records of it besides the lab and
    parser (ConformanceRecord)."""

    file: str
    expectation: str
    outcome: str
    verdict: str
    detail: str
    ms: float | None


@dataclasses.dataclass(frozen=True)
class SuiteFile:
    name: str
    expectation: str  # accept, reject, either
    sha256: str


def load_suite(datasets_dir: pathlib.Path) -> list[SuiteFile]:
    """The test_parsing files in name order, each checked against MANIFEST.tsv (ConfigError when one differs or is
    missing)."""
    root = datasets_dir / SUITE_FOLDER
    manifest = root / MANIFEST
    if not manifest.is_file():
        raise ConfigError(f"no conformance suite at {root}", "restore datasets/conformance/ from git")
    with manifest.open(newline="") as handle:
        listed = [row for row in csv.DictReader(handle, delimiter="\t") if row["path"].startswith(f"{PARSING_FOLDER}/")]
    files = []
    for row in sorted(listed, key=lambda r: r["path"]):
        path = root / row["path"]
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != row["sha256"]:
            raise ConfigError(
                f"conformance file {row['path']} is missing or differs from {MANIFEST}",
                "restore datasets/conformance/ from git",
            )
        files.append(SuiteFile(path.name, row["expectation"], row["sha256"]))
    on_disk = sorted(p.name for p in (root / PARSING_FOLDER).glob("*.json"))
    if on_disk != [f.name for f in files]:
        raise ConfigError(
            f"{root / PARSING_FOLDER} holds other files than {MANIFEST} lists", "restore datasets/conformance/ from git"
        )
    return files


def verdict(expectation: str, outcome: str) -> str:
    return VERDICTS.get((expectation, outcome), outcome)


def run_parser(
    backend: Any,
    lab: LabSpec,
    parser: str,
    suite: list[SuiteFile],
    files_dir: pathlib.Path,
    work_dir: pathlib.Path,
    cpuset: str | None,
    file_timeout_s: float = FILE_TIMEOUT_S,
    startup_timeout_s: float = STARTUP_TIMEOUT_S,
) -> list[FileOutcome]:
    """Every suite file through one parser of one lab build: one record per file (crashes and hangs included)."""
    work_dir.mkdir(parents=True, exist_ok=True)
    for stale in work_dir.glob(f"{parser}.*"):  # a rerun starts clean: the verb appends to its output file
        stale.unlink()
    records: list[FileOutcome] = []
    start, attempt = 0, 0
    while start < len(suite):
        attempt += 1
        out = work_dir / f"{parser}.{attempt}.jsonl"
        log = work_dir / f"{parser}.{attempt}.log"
        out.touch()
        out.chmod(0o666)
        work_dir.chmod(0o777)
        argv = _conformance_argv(lab, files_dir, parser, start, out)
        mounts = {files_dir: (DATASETS_MOUNT, True), work_dir: (OUT_MOUNT, False)}
        launch = backend.launch(lab, argv, {}, cpuset, mounts)
        with log.open("w") as log_file:
            log_file.write(f"$ {' '.join(launch.argv)}\n")
            log_file.flush()
            popen = subprocess.Popen(
                launch.argv, cwd=launch.cwd, env=launch.env, stdout=log_file, stderr=subprocess.STDOUT
            )
            hung = _watch(popen, out, file_timeout_s, startup_timeout_s, lambda: backend.terminate(launch, popen))
        lines = [  # a JSON text that ends in } is an object
            as_object(json.loads(line))
            for line in out.read_text(errors="replace").splitlines()
            if line.strip().endswith("}")
        ]
        lines = [line for line in lines if "outcome" in line]  # not the ready line
        for line in lines:
            detail, ms = as_text(line.get("detail")) or "", as_number(line.get("ms"))
            records.append(_record(suite[start], str(line["outcome"]), detail, ms))
            start += 1
        if start >= len(suite):
            break
        if popen.returncode == 2 and not lines:
            message = (log.read_text(errors="replace").strip().splitlines() or ["no output"])[-1]
            raise HarnessError(f"lab {lab.name} cannot run conformance parser {parser}: {message}", f"log: {log}")
        detail = f"no answer within {file_timeout_s:g} s; killed" if hung else _death(popen.returncode, log)
        records.append(_record(suite[start], "hung" if hung else "crashed", detail, None))
        start += 1
    return records


def _conformance_argv(lab: LabSpec, files_dir: pathlib.Path, parser: str, start: int, out: pathlib.Path) -> list[str]:
    """The lab's `conformance` command: one parser over the suite's files from the `start`-th on (in name order), one
    line per file appended to `out`."""
    return [
        *lab.command,
        "conformance",
        "--files",
        str(files_dir),
        "--parser",
        parser,
        "--start",
        str(start),
        "--out",
        str(out),
    ]


def _death(returncode: int, log: pathlib.Path) -> str:
    """How a process died on a file: its exit code or signal, and the first thing it printed (e.g. "Stack
    overflow.")."""
    how = (
        f"killed by signal {-returncode} ({signal.Signals(-returncode).name})"
        if returncode < 0
        else f"exit code {returncode}"
    )
    printed = [line.strip() for line in log.read_text(errors="replace").splitlines()[1:] if line.strip()]
    return f"the process died on this file: {how}" + (f"; it printed: {printed[0][:200]}" if printed else "")


def _record(file: SuiteFile, outcome: str, detail: str, ms: float | None) -> FileOutcome:
    return {
        "file": file.name,
        "expectation": file.expectation,
        "outcome": outcome,
        "verdict": verdict(file.expectation, outcome),
        "detail": detail,
        "ms": ms,
    }


def _watch(popen: subprocess.Popen, out: pathlib.Path, file_timeout_s: float, startup_timeout_s: float, kill) -> bool:
    """Waits for the process; kills it (returns True) when its output file stops growing for file_timeout_s, or stays
    empty (no ready line yet) for startup_timeout_s."""
    size, progressed = -1, time.monotonic()
    while popen.poll() is None:
        current = out.stat().st_size
        if current != size:
            size, progressed = current, time.monotonic()
        elif time.monotonic() - progressed > (file_timeout_s if size > 0 else startup_timeout_s):
            kill()
            popen.wait()
            return True
        time.sleep(0.02)
    return False


def run_conformance(
    run_dir: pathlib.Path,
    builds: dict[str, LabSpec],
    backend: Any,
    datasets_dir: pathlib.Path,
    cpuset: str | None,
    progress=print,
) -> pathlib.Path:
    """Every parser of every lab build over the suite; writes run_dir/conformance.jsonl (one record per lab, parser and
    file) and keeps each process's output and log under run_dir/raw/conformance/<lab>/. Returns the path of
    conformance.jsonl.
    """
    suite = load_suite(datasets_dir)
    files_dir = (datasets_dir / SUITE_FOLDER / PARSING_FOLDER).resolve()
    records: list[ConformanceRecord] = []
    for name, build in builds.items():
        listing = as_object(backend.call(build, ["list"], {}))
        parsers = [as_object(parser) for parser in as_array(listing.get("parsers"))]
        if not parsers:
            progress(f"conformance: lab {name} lists no parsers; skipped")
        for parser in parsers:
            started = time.monotonic()
            parser_name = str(parser["parser"])
            found = run_parser(
                backend, build, parser_name, suite, files_dir, run_dir / RAW_DIR / SUITE_FOLDER / name, cpuset
            )
            failures = sum(r["verdict"] in ("wrongly accepted", "wrongly rejected", "crashed", "hung") for r in found)
            progress(
                f"conformance: {name} {parser_name}: {len(found)} files, {failures} failures "
                f"({time.monotonic() - started:.1f} s)"
            )
            records += [
                ConformanceRecord(
                    lab=name,
                    runtime=build.runtime,
                    parser=parser_name,
                    library=as_text(parser.get("library")),
                    library_version=as_text(parser.get("library_version")),
                    description=as_text(parser.get("description")),
                    **record,
                )
                for record in found
            ]
    out = run_dir / CONFORMANCE_FILE
    out.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in records))
    return out

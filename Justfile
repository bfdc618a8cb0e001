# JSON serializer lab: the user's entry points. `just` alone lists the recipes.
set shell := ["bash", "-euo", "pipefail", "-c"]

# Debian's interpreter has the Debian python3-* packages the harness and analysis use.
python := env_var_or_default("PYTHON", "/usr/bin/python3")

# List the recipes.
default:
    @just --list

# Every tool and library the lab needs (prerequisites.toml): found, with version, or missing, with the install command.
doctor *args="":
    {{python}} -m harness doctor {{args}}

# Build every lab for every runtime it offers (the run recipes build what they need; a current build is reused).
build:
    {{python}} -m harness build

# Check (as `just check`), measure a profile (default: every published figure at its CPU's ISA level and stand-in runtime, the sweep, cold starts), conformance, report.
run-all profile="default" *args="":
    just _run-and-report --profile {{profile}} {{args}}

# A handful of cells with a very short job through the whole pipeline (about 3 minutes here; numbers not for publication).
smoke *args="":
    just _run-and-report --profile smoke {{args}}

# Why figures do not reproduce: the claimed benchmarks on their runtime, on it built with each of the write-up's library versions and with each of its publisher's run settings (profile explain; narrow with --experiment/--benchmark); the report's "Explained by" column; then each version that moved a ratio bisected.
explain *args="":
    just _run-and-report --profile explain {{args}}
    {{python}} -m harness bisect results/latest

# The served versions between the lab's and the write-up's, for each figure of an explain run a library version moved: the release that changed it (results/bisections/<run>/).
bisect run="results/latest" *args="":
    {{python}} -m harness bisect {{run}} {{args}}

# Which serializer for your JSON: FILE checked and kept in datasets/local/ (out of git), then every lab's untyped parse and serialize of it and, bound to its model (inferred and written out for review, or `--model SCHEMA`; `--untyped` for none), every .NET library's typed deserialize and serialize, verified and measured (profile payload, about 20 min), conformance and the report (its cross-language section: MB/s and ratios).
[positional-arguments]
payload file *args="":
    #!/usr/bin/env bash
    set -euo pipefail
    file="$1"; shift
    own=()  # the payload command's own options; the rest go to the run
    while [ $# -gt 0 ]; do
        case "$1" in
            --model) own+=("$1" "${2:?--model needs a model file}"); shift 2 ;;
            --untyped) own+=("$1"); shift ;;
            *) break ;;
        esac
    done
    dir=$({{python}} -m harness payload "$file" "${own[@]}")  # names passed as arguments, never pasted into this script
    just _run-and-report --profile payload --experiments-dir "$dir" "$@"

# Continue the latest interrupted run: give the profile and options it started with; finished cells are skipped.
resume profile="default" *args="":
    just _run-and-report --profile {{profile}} --resume {{args}}

# Every parser of a run's labs over JSONTestSuite: writes the run's conformance.jsonl (`just report` then shows it).
conformance run="results/latest" *args="":
    {{python}} -m harness conformance {{run}} {{args}}

# Re-render a run's report from its stored results, without measuring.
report run="results/latest":
    {{python}} -m analysis report {{run}}

# The same cells under the paired, interleaved, duet and sequential designs, then results/comparisons/designs (about 32 min, 2 CPUs).
compare-designs:
    #!/usr/bin/env bash
    set -euo pipefail
    stamp=$(date -u +%Y-%m-%dT%H-%M-%SZ); runs=()
    for design in paired interleaved duet sequential; do
        cpus=$([ "$design" = duet ] && echo "--cpuset 0,1" || true)
        runs+=("$({{python}} -m harness run --profile designs --design "$design" --run-id "designs-$design-$stamp" $cpus)")
    done
    {{python}} -m analysis designs "${runs[@]}"

# The publisher's method as a control: the figures that disagree most (profile publisher-method), once with BenchmarkDotNet's automatic job in fresh processes as the write-ups ran them and once under the lab's paired design (the default job's bursts) with the first run's machine time as its budget, compared ratio by ratio and by interval width at equal machine time.
method-control:
    #!/usr/bin/env bash
    set -euo pipefail
    stamp=$(date -u +%Y-%m-%dT%H-%M-%SZ)
    publisher=$({{python}} -m harness run --profile publisher-method --run-id "method-publisher-$stamp")
    paired=$({{python}} -m harness run --profile publisher-method-paired --budget-of "$publisher" --run-id "method-paired-$stamp")
    {{python}} -m analysis designs "$paired" "$publisher" --out "results/comparisons/method-control-$stamp"

# Render a run's report.html in sandboxed headless Chromium to report/report-screenshot.png (fails on console errors, broken images or any request the page makes).
screenshot run="results/latest":
    {{python}} -m analysis screenshot {{run}}

# Re-render one chart of a run for a post: SVG and 2x PNG under <run>/report/charts/<theme>/ (names: <run>/report/charts/*.csv).
chart run chart *theme="--light":
    {{python}} -m analysis chart {{run}} {{chart}} {{theme}}

# Copy a run's report, made small (PNG charts, no per-process table), to docs/sample-report: the sample to commit.
sample-report run="results/latest":
    {{python}} -m analysis sample {{run}}

# Compare two runs cell by cell (b over a, with 99% CIs): results/comparisons/A_vs_B/compare.md.
compare run_a run_b *args="":
    {{python}} -m analysis compare {{run_a}} {{run_b}} {{args}}

# Every run folder under results/ (or those named) imported into the results store, results/store.sqlite: one line per run, imported, unchanged or refused with why; `--rebuild` makes the store again from the folders (docs/store.md).
store *args="":
    {{python}} -m analysis store {{args}}

# The history site, results/site/: every run folder imported into the store first (a refused one is said and passed over), then a page per write-up and per published figure (its history across runs, change points, links to the runs' reports); look with `python3 -m http.server -d results/site` (docs/store.md).
site *args="":
    -{{python}} -m analysis store
    {{python}} -m analysis site {{args}}

# Unit tests (each lab's own: xunit, node:test, ctest; then pytest) and the end-to-end smoke test of the real pipeline, after a preflight of what they need and `just check`.
test:
    {{python}} -m harness doctor --for tests --brief
    just lint
    {{python}} -m harness check
    {{python}} -m harness lab-checks test
    {{python}} -m pytest -q tests lab

# Formatting, lint and type checks (black, flake8, isort, mypy, the layers and size limits; each lab's own, e.g. dotnet format), each failure with its fix.
lint:
    #!/usr/bin/env bash
    set -uo pipefail
    failed=0
    times=()
    check() {
        local fix=$1 start=$SECONDS; shift
        if ! "$@"; then echo "lint: failed: $* -- fix: $fix" >&2; failed=1; fi
        local label=$1; [ "$1" != "{{python}}" ] || label="${*:3:2}"
        times+=("$label $((SECONDS - start)) s")
    }
    check "black harness analysis tests lab/*/*.py" black --check -q harness analysis tests lab/*/*.py
    check "edit the lines flake8 names (config: .flake8)" flake8 harness analysis tests lab/*/*.py
    check "isort harness analysis tests lab/*/*.py" isort --check-only -q harness analysis tests lab/*/*.py
    check "fix the types mypy names (config: pyproject.toml [tool.mypy])" mypy
    check "move the import or split what it names (docs/architecture.md, Layers)" {{python}} -m tests.structure
    check "the fix each lab's failed line names above (lab.toml [checks] lint)" {{python}} -m harness lab-checks lint
    echo "lint: took $(IFS=,; echo "${times[*]}" | sed 's/,/, /g')"
    [ "$failed" -eq 0 ] && echo "lint: black, flake8, isort, mypy, layers and every lab's own lint pass"
    exit "$failed"

# Where no registry answers, `just local-bases` first: then the images build offline from those bases.
# Build the lab images, one per lab × runtime (Buildx bake over compose.yaml; without Buildx, one BuildKit build each with the first docker CLI that can).
images *args="":
    {{python}} -m harness images {{args}}

# Base images made with mmdebstrap from this host's Debian mirror, for machines without a registry (about a minute each).
local-bases *args="":
    {{python}} -m harness local-bases {{args}}

# Needs their registry: run it on a machine where mcr.microsoft.com and Docker Hub answer, and commit the diff.
# Pin the Dockerfiles' upstream base images by digest (`--check`: only list those without one).
pin-bases *args="":
    {{python}} -m harness pin-bases {{args}}

# The README's two quick-start lines in a fresh Debian 12 container of this machine's kind (smoke for the default; --default for the hour).
fresh-machine-check *args="":
    scripts/fresh-machine-check {{args}}

# Start a Docker engine for the lab (no bridge, no iptables).
docker-up:
    containers/dockerd.sh start
# Stop the Docker engine `just docker-up` started (by its PID).
docker-down:
    containers/dockerd.sh stop

# The hosts of hosts.toml probed through their engines (docs/hosts.md); `--host NAME`, `--transfer IMAGE`, `--json`.
hosts *args="":
    {{python}} -m harness hosts {{args}}

# Rewrite compose.yaml from the labs' lab.toml (a test checks the committed file is current).
compose:
    {{python}} -m harness compose

# What `just run-all` (or another profile) would measure: cells per experiment and ISA level, estimated duration.
plan profile="default" *args="":
    {{python}} -m harness plan --profile {{profile}} {{args}}

# Build the lab, regenerate the generated datasets (lab generators and datasets/generators scripts, fixed seeds) and check them against datasets/manifest.json.
datasets: build
    {{python}} -m harness regenerate-datasets

# Every experiment, profile and dataset checked in seconds, nothing built: schema, names, non-empty plans (`--experiments-dir DIR`: a draft folder).
check *args="":
    {{python}} -m harness check {{args}}

# A new experiment file from BenchmarkDotNet *-report-github.md files: one claim per row, a TODO for what a report cannot say.
import +files:
    {{python}} -m harness import {{files}}

# List experiments, profiles, ISA levels and labs.
list:
    {{python}} -m harness list

# Remove the .NET build outputs and ALL results (Node builds and images stay).
clean:
    rm -rf results lab/dotnet/build lab/dotnet/src/bin lab/dotnet/src/obj lab/dotnet/tests/bin lab/dotnet/tests/obj

# Check everything first (any fault: exit 2 before a build), measure, then write the report even when some cells failed (exit 1).
[private]
_run-and-report *args:
    #!/usr/bin/env bash
    set -uo pipefail
    {{python}} -m harness check >&2 || exit $?
    run_dir=$({{python}} -m harness run {{args}}); status=$?
    if [ "$status" -le 1 ] && [ -n "$run_dir" ]; then
        {{python}} -m harness conformance "$run_dir" > /dev/null || status=$?
        {{python}} -m analysis report "$run_dir" || status=$?
    fi
    exit $status

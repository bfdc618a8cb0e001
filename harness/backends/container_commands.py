"""The command lines of a lab process in a container (docker.py): the shell around it that keeps the lab's CPU times,
its environment as `--env` flags, host paths rewritten to their mount points, and the output folder the container's
non-root user writes."""

from __future__ import annotations

import pathlib
import shlex

from harness.backends.place import Mounts


def accounted(argv: list[str], times_file: pathlib.Path, scratch: bool) -> list[str]:
    """The lab command under a POSIX shell that writes its children's CPU times (`times`) to `times_file` when the lab
    ends: the harness's own child is the docker CLI, whose rusage says nothing of the lab's CPU time. In a long-lived
    container (`scratch`) the process gets a scratch folder of its own (HOME, TMPDIR), removed when it ends, so no
    process sees another's files."""
    quoted = shlex.quote(str(times_file))
    if not scratch:
        script = f'"$@"; status=$?; times > {quoted}; exit $status'
    else:
        script = (
            'scratch=$(mktemp -d); export HOME="$scratch" TMPDIR="$scratch"; "$@"; status=$?; '
            f'times > {quoted}; rm -rf "$scratch"; exit $status'
        )
    return ["/bin/sh", "-c", script, "sh", *argv]


def env_flags(environment: dict[str, str]) -> list[str]:
    return [flag for key, value in sorted(environment.items()) for flag in ("--env", f"{key}={value}")]


def map_paths(arg: str, mounts: Mounts) -> str:
    """Rewrites host folders in one argument (also inside hyperfine's command strings) to their mount points."""
    for host, (inside, _) in sorted(mounts.items(), key=lambda item: -len(str(item[0]))):
        for form in {str(host), str(host.resolve())}:
            arg = arg.replace(form, inside)
    return arg


def writable_by_lab_user(folder: pathlib.Path) -> None:
    """The container's non-root user writes the cell's output folder."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o777)

"""What every lab container gets, in one place: compose.yaml's service settings and the backend's `docker run` flags are
both made from CONTAINER_ISOLATION, so the two cannot drift apart.

A lab container has no network, a read-only root filesystem with a small tmpfs for scratch files, no capabilities, no
privilege escalation, a non-root user, a memory limit, a limit on processes and threads and one on open files, and the
cell's CPU set; the datasets are mounted read-only and
the cell's output folder read-write.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Where the lab contract's path options point inside a container.
DATASETS_MOUNT = "/datasets"
OUT_MOUNT = "/out"


@dataclass(frozen=True)
class Isolation:
    """The container settings of a lab cell (compose names in comments)."""

    network: str = "none"  # network_mode
    read_only: bool = True  # read_only
    tmpfs: str = "/tmp:rw,exec,size=512m"  # tmpfs: .NET maps files there (diagnostics IPC, BenchmarkDotNet scratch)
    cap_drop: str = "ALL"  # cap_drop
    security_opt: str = "no-new-privileges:true"  # security_opt
    user: str = "10001:10001"  # user: the image's "lab" user
    memory: str = "4g"  # mem_limit (the largest dataset and BenchmarkDotNet fit in well under 1 GiB)
    # pids_limit: processes and threads together; a .NET cell runs about 25 threads, a hyperfine cold start one process
    # at a time, the conformance runner one parser process at a time; a runaway fork stops here
    pids: int = 512
    open_files: int = 4096  # ulimits.nofile (soft and hard): a cell opens tens of files

    def run_flags(self) -> list[str]:
        """The `docker run` flags (CPU set, environment and mounts are per cell, added by the backend)."""
        flags = [
            "--network",
            self.network,
            "--tmpfs",
            self.tmpfs,
            "--cap-drop",
            self.cap_drop,
            "--security-opt",
            self.security_opt,
            "--user",
            self.user,
            "--memory",
            self.memory,
            "--pids-limit",
            str(self.pids),
            "--ulimit",
            f"nofile={self.open_files}:{self.open_files}",
        ]
        return flags + (["--read-only"] if self.read_only else [])

    def compose_service(self) -> dict:
        """The same settings as compose.yaml service keys."""
        return {
            "network_mode": self.network,
            "read_only": self.read_only,
            "tmpfs": [self.tmpfs],
            "cap_drop": [self.cap_drop],
            "security_opt": [self.security_opt],
            "user": self.user,
            "mem_limit": self.memory,
            "pids_limit": self.pids,
            "ulimits": {"nofile": {"soft": self.open_files, "hard": self.open_files}},
        }


CONTAINER_ISOLATION = Isolation()


def mount_flag(source: str, target: str, read_only: bool) -> list[str]:
    """A bind mount for `docker run`."""
    return ["--mount", f"type=bind,source={source},target={target}" + (",readonly" if read_only else "")]

"""Locally built base images: Debian root filesystems made with mmdebstrap from the apt sources this host uses,
imported into Docker. They stand in for the upstream bases on a machine with no registry. Each lab's own are in its
folder (lab/<lab>/local-bases.toml); containers/local-bases.toml holds those no one lab owns (the fresh machine's)."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from harness.builds.watched_process import WatchedBuild, run_watched
from harness.config.data_files import TomlTable, TomlValue, display, read_toml, toml_array
from harness.containers.engine import docker
from harness.model.defaults import LABS_DIR, REPO_ROOT
from harness.model.errors import BuildError, ConfigError, MissingToolError

#: The bases no one lab owns (the fresh machine's).
LOCAL_BASES_FILE = REPO_ROOT / "containers" / "local-bases.toml"
#: A lab's own bases, in its folder (lab/<lab>/local-bases.toml, same schema): those only that lab's images build on.
LAB_BASES_FILE = "local-bases.toml"

#: Debian architecture → Docker's (architecture, variant).
DOCKER_ARCH = {"amd64": ("amd64", ""), "arm64": ("arm64", "v8")}

#: This host's Debian architecture.
DOCKER_ARCH_HOST = {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)

#: Seconds one mmdebstrap may take (an arm64 root filesystem under emulation takes about 2 minutes).
MMDEBSTRAP_TIMEOUT_S = 20 * 60


@dataclass(frozen=True)
class LocalBase:
    """One base image to build locally."""

    name: str
    stands_in_for: str
    suite: str
    architecture: str
    include: tuple[str, ...]
    host_dotnet_sdk: bool = False
    # The host's Node.js and npm (the `node` binary and npm's package), as a machine of this kind has them.
    host_node: bool = False
    # Files of the host copied to the same path (registry settings such as ~/.npmrc); a missing one is left out.
    host_files: tuple[str, ...] = ()
    # The host's own certificate authorities (/usr/local/share/ca-certificates), trusted in the image as on the host:
    # where the registries are reached through a proxy with its own CA, a machine of this kind trusts it.
    host_ca_certificates: bool = False
    # Seconds to make it (mmdebstrap and the import), as measured here: the plan's estimate of builds.
    estimate_s: float = 60.0

    @property
    def platform(self) -> str:
        arch, variant = DOCKER_ARCH[self.architecture]
        return f"linux/{arch}" + (f"/{variant}" if variant else "")


def local_bases_files(path: pathlib.Path = LOCAL_BASES_FILE, labs_dir: pathlib.Path = LABS_DIR) -> list[pathlib.Path]:
    """The files of the local bases: the repository's (the bases no one lab owns), then each lab's, by lab name."""
    found = sorted(labs_dir.glob(f"*/{LAB_BASES_FILE}"))
    for file in found:
        if not (file.parent / "lab.toml").is_file():
            raise ConfigError(
                f"{display(file)} has no lab.toml beside it",
                f"move it into its lab's folder: lab/<lab>/{LAB_BASES_FILE}",
            )
    return [path, *found]


def _read_bases(path: pathlib.Path) -> dict[str, LocalBase]:
    """The bases of one file."""
    fix = "each [bases.NAME] has `suite`; compare it with containers/local-bases.toml (docs/containers.md)"
    data = read_toml(path, fix)
    try:
        bases = data["bases"]
        if not isinstance(bases, dict):
            raise TypeError(f"bases is {bases!r}, not a table of [bases.NAME] tables")
        return {name: _base(name, spec) for name, spec in bases.items()}
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ConfigError(f"{display(path)} is malformed: {e!r}", fix) from e


def _base(name: str, spec: TomlValue) -> LocalBase:
    """One [bases.NAME] table: KeyError without a `suite`, TypeError (or float's ValueError) for a value of the wrong
    kind."""
    if not isinstance(spec, dict):
        raise TypeError(f"[bases.{name}] is {spec!r}, not a table")
    estimate = spec.get("estimate_s", 60.0)
    if not isinstance(estimate, (int, float, str)):
        raise TypeError(f"estimate_s is {estimate!r}, not a number")
    return LocalBase(
        name,
        _text(spec, "stands_in_for", ""),
        _text(spec, "suite"),
        _text(spec, "architecture", "amd64"),
        _texts(spec, "include"),
        bool(spec.get("host_dotnet_sdk", False)),
        bool(spec.get("host_node", False)),
        _texts(spec, "host_files"),
        bool(spec.get("host_ca_certificates", False)),
        float(estimate),
    )


def _text(spec: TomlTable, key: str, default: str | None = None) -> str:
    """A string of a [bases.NAME] table (`default` when left out, KeyError without one); TypeError else."""
    value = spec[key] if default is None else spec.get(key, default)
    if not isinstance(value, str):
        raise TypeError(f"{key} is {value!r}, not a string")
    return value


def _texts(spec: TomlTable, key: str) -> tuple[str, ...]:
    """A list of strings of a [bases.NAME] table (none when left out); TypeError when it is not one."""
    value: TomlValue = spec.get(key, [])
    texts = tuple(v for v in toml_array(value) if isinstance(v, str))
    if not isinstance(value, list) or len(texts) != len(value):
        raise TypeError(f"{key} is {value!r}, not a list of strings")
    return texts


def load_local_bases(path: pathlib.Path = LOCAL_BASES_FILE, labs_dir: pathlib.Path = LABS_DIR) -> dict[str, LocalBase]:
    """Every local base by name: containers/local-bases.toml's, then each lab's own (lab/<lab>/local-bases.toml, by lab
    name). A base named in two files is refused, naming both."""
    bases: dict[str, LocalBase] = {}
    found_in: dict[str, pathlib.Path] = {}
    for file in local_bases_files(path, labs_dir):
        for name, base in _read_bases(file).items():
            if name in found_in:
                raise ConfigError(
                    f"local base {name!r} is in both {display(found_in[name])} and {display(file)}",
                    f"keep it in one: the folder of the one lab that builds on it (lab/<lab>/{LAB_BASES_FILE}), else "
                    f"{display(LOCAL_BASES_FILE)}",
                )
            bases[name], found_in[name] = base, file
    return bases


def host_dotnet_root() -> pathlib.Path:
    """The folder the host's `dotnet` runs from (its SDKs, packs and shared runtime)."""
    found = shutil.which("dotnet")
    if found is None:
        raise MissingToolError(
            "the SDK base copies the host's .NET SDK, and `dotnet` is not on PATH", "install the .NET 10 SDK"
        )
    return pathlib.Path(found).resolve().parent


#: Where Debian keeps the certificate authorities an administrator added (update-ca-certificates reads them).
HOST_CA_DIR = pathlib.Path("/usr/local/share/ca-certificates")


def host_node() -> pathlib.Path:
    """The host's `node` binary (npm's package sits beside it in ../lib/node_modules/npm)."""
    found = shutil.which("node")
    if found is None:
        raise MissingToolError(
            "the base copies the host's Node.js, and `node` is not on PATH", "install Node.js and npm"
        )
    return pathlib.Path(found).resolve()


def mmdebstrap_command(base: LocalBase, output: pathlib.Path) -> list[str]:
    """The mmdebstrap call for one base (no mirror argument: it uses this host's apt sources)."""
    command = ["mmdebstrap", "--variant=minbase", f"--architectures={base.architecture}", "--format=tar"]
    if base.include:
        command.append("--include=" + ",".join(base.include))
    if base.host_dotnet_sdk:
        command += [
            f"--customize-hook=copy-in {host_dotnet_root()} /usr/share",
            f'--customize-hook=mv "$1/usr/share/{host_dotnet_root().name}" "$1/usr/share/dotnet" 2>/dev/null || true',
            '--customize-hook=chroot "$1" ln -sf /usr/share/dotnet/dotnet /usr/bin/dotnet',
        ]
    if base.host_node:
        node = host_node()
        npm = node.parent.parent / "lib" / "node_modules" / "npm"
        command += [
            f"--customize-hook=copy-in {node} /usr/bin",
            '--customize-hook=mkdir -p "$1/usr/lib/node_modules"',
            f"--customize-hook=copy-in {npm} /usr/lib/node_modules",
            '--customize-hook=chroot "$1" ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/bin/npm',
            '--customize-hook=chroot "$1" ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/bin/npx',
        ]
    for name in base.host_files:
        path = pathlib.Path(name).expanduser()
        if path.is_file():
            command += [
                f'--customize-hook=mkdir -p "$1{path.parent}"',
                f"--customize-hook=copy-in {path} {path.parent}",
            ]
    if base.host_ca_certificates:
        certificates = sorted(HOST_CA_DIR.glob("*.crt"))
        command += [f"--customize-hook=copy-in {c} {HOST_CA_DIR}" for c in certificates]
        command += ['--customize-hook=chroot "$1" update-ca-certificates'] if certificates else []
    # Apt lists and caches are not part of an image.
    command += ['--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*', base.suite, str(output)]
    return command


def image_exists(name: str) -> bool:
    return docker("image", "inspect", name, timeout=30).returncode == 0


def build_local_base(base: LocalBase, log: pathlib.Path, say: Callable[[str], None] = lambda line: None) -> None:
    """mmdebstrap (a line to `say` at least every 30 s), then `docker import` with the base's platform recorded in the
    image config."""
    if shutil.which("mmdebstrap") is None:
        raise MissingToolError(
            "local base images are made with mmdebstrap, which is not on PATH", "apt-get install mmdebstrap"
        )
    with tempfile.TemporaryDirectory(prefix="jsonlab-base-") as scratch:
        tar = pathlib.Path(scratch) / "rootfs.tar"
        command = mmdebstrap_command(base, tar)
        code, _ = run_watched(
            WatchedBuild(command, f"base {base.name}", (), "made"), log, {}, REPO_ROOT, MMDEBSTRAP_TIMEOUT_S, say
        )
        if code != 0:
            hint = (
                "a foreign architecture needs qemu-user-static and binfmt-support"
                if base.architecture != DOCKER_ARCH_HOST
                else "check that apt can reach this host's Debian mirror"
            )
            raise BuildError(
                f"mmdebstrap could not make base {base.name} ({'timed out' if code is None else f'exit {code}'})",
                f"{hint}; log: {log}",
            )
        changes = ["ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]
        if base.host_dotnet_sdk:
            changes += ["ENV DOTNET_ROOT=/usr/share/dotnet", "ENV DOTNET_CLI_TELEMETRY_OPTOUT=1"]
        args = ["import", *(x for c in changes for x in ("--change", c)), str(tar), base.name]
        done = docker(*args, timeout=MMDEBSTRAP_TIMEOUT_S)
        if done.returncode != 0:
            raise BuildError(f"docker import of base {base.name} failed: {done.stderr.strip()}", f"log: {log}")
    if base.architecture != DOCKER_ARCH_HOST:
        _set_platform(base, pathlib.Path(log).parent)


def _set_platform(base: LocalBase, scratch_parent: pathlib.Path) -> None:
    """dockerd 20.10 ignores `docker import --platform`: the image is re-labelled by editing its saved config."""
    arch, variant = DOCKER_ARCH[base.architecture]
    with tempfile.TemporaryDirectory(prefix="jsonlab-base-", dir=scratch_parent) as scratch:
        folder = pathlib.Path(scratch)
        saved = folder / "image.tar"
        if docker("save", "-o", str(saved), base.name, timeout=600).returncode != 0:
            raise BuildError(f"docker save of {base.name} failed", "check the Docker engine")
        unpacked = folder / "image"
        with tarfile.open(saved) as tar:
            if hasattr(tarfile, "data_filter"):
                # The filter argument (Python 3.12, backported to 3.11.4 and to Debian 12's 3.11.2 updates) postdates
                # mypy 1.0's stubs of extractall.
                cast(Callable[..., None], tar.extractall)(unpacked, filter="tar")
            else:
                tar.extractall(unpacked)
        manifest = json.loads((unpacked / "manifest.json").read_text())
        config_name = manifest[0]["Config"]
        config = json.loads((unpacked / config_name).read_text())
        config["architecture"], config["variant"] = arch, variant
        if not variant:
            config.pop("variant")
        data = json.dumps(config, separators=(",", ":")).encode()
        new_name = hashlib.sha256(data).hexdigest() + ".json"
        (unpacked / config_name).unlink()
        (unpacked / new_name).write_bytes(data)
        manifest[0]["Config"] = new_name
        (unpacked / "manifest.json").write_text(json.dumps(manifest))
        repacked = folder / "relabelled.tar"
        with tarfile.open(repacked, "w") as tar:
            for item in sorted(unpacked.iterdir()):
                tar.add(item, arcname=item.name)
        if docker("load", "-i", str(repacked), timeout=600).returncode != 0:
            raise BuildError(f"docker load of the relabelled {base.name} failed", "check the Docker engine")


def ensure_local_bases(
    names: list[str], log: pathlib.Path, rebuild: bool = False, say: Callable[[str], None] = lambda line: None
) -> list[str]:
    """Builds the named local bases that are missing (all of them with rebuild), saying each one's start and time;
    returns the ones it built."""
    bases = load_local_bases()
    for name in names:
        if name not in bases:
            raise ConfigError(
                f"no local base {name!r} in {display(LOCAL_BASES_FILE)} or a lab's {LAB_BASES_FILE}",
                f"known: {', '.join(bases)}",
            )
    wanted = [name for name in names if rebuild or not image_exists(name)]
    for number, name in enumerate(wanted, 1):
        say(f"local base {number}/{len(wanted)}: {name} (mmdebstrap, then docker import)")
        build_local_base(bases[name], log, say)
    return wanted

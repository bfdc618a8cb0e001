"""The list of prerequisites is the repository's prerequisites.toml (what is shared) and each lab's own,
lab/<lab>/prerequisites.toml (its need and what only it needs), read by harness/config/lab/prerequisites.py: in a fixed
order, with a lab's file held to its own need, and every fault a ConfigError naming the lab, the file and the key."""

from __future__ import annotations

import re
import subprocess

import pytest

from harness.config.lab.prerequisites import LAB_NEED_PREFIX, lab_files, lab_need, load_prerequisites
from harness.host.preflight import Finding, render_doctor
from harness.model.defaults import LABS_DIR, PREREQUISITES_FILE, REPO_ROOT
from harness.model.errors import ConfigError

#: How `just doctor` grouped the list when it was one file (the commit before the labs' own files): each need's
#: prerequisites in the order shown. The merged list still shows these, in this order within each group.
DOCTOR_GROUPS_OF_THE_ONE_FILE = {
    "harness": ["python3", "scipy", "rich", "git", "jsonschema"],
    "report": ["pandas", "matplotlib", "markdown"],
    "recipes": ["just"],
    "lab:dotnet": ["dotnet"],
    "lab:reference-node": ["npm"],
    "lab:cpp": ["cmake", "g++", "simdjson", "RapidJSON", "nlohmann/json", "Google Benchmark"],
    "host": ["taskset"],
    "host-cold": ["hyperfine"],
    "host-aot": ["gcc", "C library headers", "zlib headers"],
    "docker": ["docker", "docker buildx"],
    "docker-engine": ["dockerd"],
    "compose": ["pyyaml"],
    "local-bases": ["mmdebstrap", "arch-test"],
    "tests": ["pytest", "hypothesis"],
    "lint": ["black", "flake8", "isort", "mypy", "typeshed stubs"],
    "screenshot": ["chromium"],
    "arm64-emulation": ["qemu-aarch64-static", "update-binfmts"],
}

TINY_NEED = '[needs."lab:tiny"]\nwhat = "the tiny lab"\n'
TINY_ITEM = '[[prerequisite]]\nname = "tiny-sh"\nneeded_by = ["lab:tiny"]\ncommand = "sh"\napt = ["dash"]\n'


def _doctor_groups(prerequisites) -> dict[str, list[str]]:
    """The groups `just doctor` shows: each need's prerequisites by name, in the order listed."""
    findings = [Finding(item, True, False, "1.0") for item in prerequisites.items]
    text = render_doctor(prerequisites, findings, prerequisites.set_up_needs(extras=True), "the lab", False)
    groups: dict[str, list[str]] = {}
    shown: list[str] = []
    for line in text.splitlines()[:-1]:
        if line.startswith("  ok       "):
            shown.append(line[11:31].rstrip())
        else:
            shown = groups.setdefault(line.split(": ", 1)[0], [])
    return groups


def _labs(tmp_path, **files: str):
    """A labs folder: one lab per keyword (its folder's name, `_` for `-`), holding a lab.toml and this
    prerequisites.toml."""
    labs = tmp_path / "lab"
    for name, text in files.items():
        folder = labs / name.replace("_", "-")
        folder.mkdir(parents=True)
        (folder / "lab.toml").write_text(f'name = "{folder.name}"\n')
        (folder / "prerequisites.toml").write_text(text)
    return labs


def test_the_list_is_the_shared_file_then_each_labs_own_in_the_order_of_their_names():
    shared = load_prerequisites(labs_dir=REPO_ROOT / "no-such-folder")
    assert not shared.lab_needs, "a lab's need is declared in its own folder"
    assert not [item.name for item in shared.items if any(n.startswith(LAB_NEED_PREFIX) for n in item.needed_by)]
    merged = load_prerequisites()
    labs = [lab for _, lab in lab_files()]
    assert labs == sorted(labs) and {"cpp", "dotnet", "reference-node"} <= set(labs)
    assert merged.lab_needs == tuple(lab_need(lab) for lab in labs)
    assert merged.items[: len(shared.items)] == shared.items
    assert list(merged.needs)[: len(shared.needs)] == list(shared.needs)
    for path, lab in lab_files():
        assert path == LABS_DIR / lab / "prerequisites.toml"
        own = [item for item in merged.items if lab_need(lab) in item.needed_by]
        assert own and all(item.needed_by == (lab_need(lab),) for item in own), lab


def test_doctor_groups_the_merged_list_as_it_grouped_the_one_file():
    groups = _doctor_groups(load_prerequisites())
    for need, names in DOCTOR_GROUPS_OF_THE_ONE_FILE.items():
        shown = [name for name in groups[need] if name in names]
        assert shown == names, need
    assert {name for names in groups.values() for name in names} >= {
        name for names in DOCTOR_GROUPS_OF_THE_ONE_FILE.values() for name in names
    }


def test_set_up_reads_the_merged_list_unchanged():
    for manager in ("--apt", "--npm"):
        done = subprocess.run(
            ["/usr/bin/python3", "-m", "harness.config.lab.prerequisites", "missing", manager, "--all"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and not done.stderr, done.stderr


def test_a_lab_file_declaring_another_labs_need_is_refused_naming_the_lab_the_file_and_the_need(tmp_path):
    labs = _labs(tmp_path, tiny=f'schema_version = 1\n{TINY_NEED}\n[needs."lab:dotnet"]\nwhat = "not mine"\n')
    with pytest.raises(ConfigError) as error:
        load_prerequisites(labs_dir=labs)
    message = str(error.value)
    assert message.startswith("lab tiny: ") and str(labs / "tiny" / "prerequisites.toml") in message
    assert '[needs."lab:dotnet"] is not this lab\'s need' in message and "prerequisites.toml" in error.value.hint


HEAD = f"schema_version = 1\n{TINY_NEED}\n"
SHARING = TINY_ITEM.replace('["lab:tiny"]', '["lab:tiny", "harness"]')
ONE_STRING = TINY_ITEM.replace('["lab:tiny"]', '"lab:tiny"')


@pytest.mark.parametrize(
    "text, says",
    [
        (HEAD + SHARING, "[[prerequisite]] 'tiny-sh' has needed_by = ['lab:tiny', 'harness'], not [\"lab:tiny\"]"),
        (f"schema_version = 1\n{TINY_ITEM}", 'no [needs."lab:tiny"]'),
        (f'{HEAD}[needs.harness]\nwhat = "shared"\n', '[needs."harness"] is not this lab'),
        (f"{TINY_NEED}\n{TINY_ITEM}", "schema_version is not 1"),
        (f"schema_version = 2\n{TINY_NEED}", "schema_version is not 1"),
        (f"schema_version = 1\nrequires = []\n{TINY_NEED}", "unknown key `requires`"),
        ('schema_version = 1\n[needs."lab:tiny"]\nextra = true\n', '[needs."lab:tiny"] has no `what`'),
        (
            HEAD + ONE_STRING,
            "[[prerequisite]] 'tiny-sh' is malformed: `needed_by` is 'lab:tiny', not a list of strings",
        ),
        (f'{HEAD}[[prerequisite]]\nneeded_by = ["lab:tiny"]\n', "[[prerequisite]] number 1 has no `name`"),
        (f"{HEAD}needs = 3\n", '[needs."lab:tiny"] is malformed: unknown key `needs`'),
        (
            HEAD + TINY_ITEM.replace("command", "comand"),
            "[[prerequisite]] 'tiny-sh' is malformed: unknown key `comand`",
        ),
        (f"{HEAD}what = \n", "is not valid TOML"),
        ("schema_version = 1\nprerequisite = 3\n", "`needs` is not a table or `prerequisite` not an array"),
    ],
)
def test_a_malformed_lab_file_is_refused_naming_the_file_and_the_key(tmp_path, text, says):
    labs = _labs(tmp_path, tiny=text)
    with pytest.raises(ConfigError) as error:
        load_prerequisites(labs_dir=labs)
    assert str(labs / "tiny" / "prerequisites.toml") in str(error.value) and says in str(error.value)


def test_a_prerequisite_or_need_named_twice_is_refused_naming_both_files(tmp_path):
    twice = TINY_ITEM.replace("tiny-sh", "python3")  # the shared file's
    labs = _labs(tmp_path, tiny=f"schema_version = 1\n{TINY_NEED}\n{twice}")
    with pytest.raises(ConfigError, match=r"lab tiny: .*tiny/prerequisites.toml: prerequisite 'python3' is also in "):
        load_prerequisites(labs_dir=labs)
    labs = _labs(
        tmp_path / "two",
        a_lab=f"schema_version = 1\n{TINY_NEED.replace('tiny', 'a-lab')}\n{TINY_ITEM.replace('lab:tiny', 'lab:a-lab')}",
        b_lab=f"schema_version = 1\n{TINY_NEED.replace('tiny', 'b-lab')}\n{TINY_ITEM.replace('lab:tiny', 'lab:b-lab')}",
    )
    with pytest.raises(ConfigError) as error:
        load_prerequisites(labs_dir=labs)
    assert re.search(
        r"b-lab/prerequisites.toml: prerequisite 'tiny-sh' is also in \S*a-lab/prerequisites.toml", str(error.value)
    )
    shared = tmp_path / "prerequisites.toml"
    shared.write_text(PREREQUISITES_FILE.read_text() + f"\n{TINY_NEED}")
    labs = _labs(tmp_path / "three", tiny=f"schema_version = 1\n{TINY_NEED}\n{TINY_ITEM}")
    with pytest.raises(ConfigError, match=r"need 'lab:tiny' is also in "):
        load_prerequisites(shared, labs)


def test_a_prerequisites_file_outside_a_labs_folder_is_refused(tmp_path):
    stray = tmp_path / "lab" / "notes"
    stray.mkdir(parents=True)
    (stray / "prerequisites.toml").write_text(f"schema_version = 1\n{TINY_NEED}")
    with pytest.raises(ConfigError, match="has no lab.toml beside it"):
        load_prerequisites(labs_dir=tmp_path / "lab")

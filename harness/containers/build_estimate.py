"""What a run will build before it measures, and about how long: the lab images that are not current on the engine
(all of them where no engine answers yet: a run starts the lab's own, whose image store may be empty), and the local
bases they need that it lacks, each at its measured cost (lab.toml [container] build_estimate_s, local-bases.toml
estimate_s, the lab's own or containers/). The plan says it up front: builds count against the run's budget."""

from __future__ import annotations

from dataclasses import dataclass

from harness.config.lab.labs import LabSpec
from harness.containers.bases import image_exists, load_local_bases
from harness.containers.engine import find_engine
from harness.containers.images import LabImage, auto_bases, build_seconds, is_current


@dataclass(frozen=True)
class BuildEstimate:
    """The images and bases to build, their seconds, and whether an engine was asked (False: all assumed missing)."""

    images: tuple[str, ...]
    bases: tuple[str, ...]
    seconds: float
    total_images: int
    engine_asked: bool

    def describe(self) -> str:
        if not self.total_images:
            return "images: none (no planned lab has a [container] table)"
        if not self.images and not self.bases:
            return f"images: all {self.total_images} current on this engine, nothing to build"
        where = (
            "on this engine"
            if self.engine_asked
            else "if the image store is empty (no Docker engine answers now; a run starts the lab's own)"
        )
        bases = f" and {len(self.bases)} local base(s)" if self.bases else ""
        return (
            f"images: {len(self.images)} of {self.total_images}{bases} to build {where}, about "
            f"{self.seconds / 60:.1f} min of the run's time before the first cell"
        )


def estimate_builds(labs: dict[str, LabSpec], engine_answers: bool | None = None) -> BuildEstimate:
    """The builds a run of these lab builds makes first (local bases, as `--bases auto` picks them)."""
    images = [LabImage(lab) for lab in labs.values() if lab.container is not None]
    if engine_answers is None:
        engine_answers = find_engine(probe_builder=False)[0] is not None
    wanted = [i for i in images if not engine_answers or not is_current(i, auto_bases(i))]
    known = load_local_bases()
    names = sorted({base for image in wanted for base in image.local_bases().values() if base in known})
    bases = [name for name in names if not engine_answers or not image_exists(name)]
    seconds = build_seconds(wanted) + sum(known[name].estimate_s for name in bases)
    return BuildEstimate(tuple(i.tag for i in wanted), tuple(bases), seconds, len(images), engine_answers)

"""Bisecting a version factor, as a perf-regression bisector finds a commit: a figure's ratio moves (its 99% intervals
lie apart) between the lab's version of a library and the write-up's, so the versions the registry serves between the
two are measured, halving the range each time, until two neighbouring versions are found, one measured like each end:
the release that made the change. A middle reading whose interval overlaps both ends' (or neither's) cannot say which
side it is on; the bisection then stops there and says so, with the range it had narrowed to."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.model.errors import ConfigError


@dataclass(frozen=True)
class Reading:
    """A figure's ratio measured with one version, its 99% interval, and the run that measured it."""

    version: str
    ratio: float
    lower: float
    upper: float
    run: str

    def apart(self, other: Reading) -> bool:
        """True when the two 99% intervals do not overlap."""
        return self.upper < other.lower or other.upper < self.lower

    @property
    def text(self) -> str:
        return f"{self.version}: {self.ratio:.3f}× [{self.lower:.3f}, {self.upper:.3f}] (run {self.run})"


@dataclass(frozen=True)
class Bisection:
    """Where the change lies: after `old` (the last version measured like the first end) and at `new` (the first
    measured like the other end); `undecided` says why it stopped before they were neighbours, or that the ends do not
    differ."""

    package: str
    versions: tuple[str, ...]  # served, from the lab's end to the write-up's
    readings: tuple[Reading, ...]  # in the order measured
    old: str
    new: str
    undecided: str = ""

    @property
    def found(self) -> bool:
        """True when two neighbouring served versions were found, one like each end."""
        if self.undecided:
            return False
        return self.versions.index(self.new) - self.versions.index(self.old) == 1

    def summary(self) -> str:
        """One sentence: the release that changed the ratio, or how far the bisection got and why it stopped."""
        if self.found:
            return (
                f"the ratio changed between {self.package} {self.old} and {self.new} (neighbouring releases served; "
                f"{len(self.readings)} versions measured)"
            )
        if self.undecided:
            return f"{self.package}: {self.undecided} (narrowed to {self.old} … {self.new})"
        return f"{self.package}: narrowed to {self.old} … {self.new}"


def between(served: Sequence[str], start: str, end: str) -> tuple[str, ...]:
    """The served versions from `start` to `end`, both included, in the registry's order (reversed when `start` comes
    later); ConfigError naming the served versions when either end is not served."""
    for version in (start, end):
        if version not in served:
            shown = ", ".join(served[-12:]) or "none"
            raise ConfigError(
                f"version {version} is not among the versions the registry serves",
                f"bisect between served versions (the newest served: {shown})",
            )
    a, b = served.index(start), served.index(end)
    return tuple(served[a : b + 1]) if a <= b else tuple(reversed(served[b : a + 1]))


def bisect(package: str, versions: Sequence[str], measure: Callable[[str], Reading]) -> Bisection:
    """Measures both ends, then the middle of the range left, until neighbours are found or a reading is like both
    ends (or neither). `measure` runs the figure with one version and returns its reading."""
    versions = tuple(versions)
    if len(versions) < 2:
        raise ConfigError("a bisection needs two different versions", "name the lab's version and the write-up's")
    first, last = measure(versions[0]), measure(versions[-1])
    readings = [first, last]
    if not first.apart(last):
        return Bisection(
            package,
            versions,
            tuple(readings),
            versions[0],
            versions[-1],
            "the two ends' 99% intervals overlap in this bisection's runs: the version does not move the ratio here",
        )
    low, high = 0, len(versions) - 1
    while high - low > 1:
        middle = (low + high) // 2
        reading = measure(versions[middle])
        readings.append(reading)
        like_first, like_last = not reading.apart(first), not reading.apart(last)
        if like_last and not like_first:
            high = middle
        elif like_first and not like_last:
            low = middle
        else:
            which = "both ends" if like_first else "neither end"
            return Bisection(
                package,
                versions,
                tuple(readings),
                versions[low],
                versions[high],
                f"{versions[middle]} measured like {which} ({reading.ratio:.3f}×): its side cannot be told",
            )
    return Bisection(package, versions, tuple(readings), versions[low], versions[high])

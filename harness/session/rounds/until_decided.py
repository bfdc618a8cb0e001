"""What `--until-decided` left open when it stopped: each unit's open claims, those more rounds would decide (with the
machine time they are forecast to need) and those no run on this host can (harness/model/stats/decision_forecast.py),
said at the end of the session, and each group's final state: 'budget' while a claim of its is decidable with more time
(`just resume` with a longer --max measures on), 'done' otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from harness.model.groups import BUDGET, DONE
from harness.model.stats.allocation import Claims
from harness.planning.designs import Unit
from harness.session.rounds.noise_probe import unit_label

#: At most this many units are named with the time their open claims need.
NAMED = 10


class Turns(Protocol):
    """harness/session/rounds/priority.py's units on the clock, as far as this module reads them."""

    units: Sequence[Unit]

    def claims(self, index: int, rounds_done: int) -> Claims:
        ...

    def round_s(self, index: int) -> float:
        ...


@dataclass(frozen=True)
class OpenUnit:
    """A unit's claims still open when the session stopped: how many more rounds would decide (the rounds the soonest
    needs), and how many no number of rounds would."""

    index: int
    decidable: int
    undecidable: int
    soonest_s: float  # machine seconds the soonest decidable claim is forecast to need (math.inf: none)


def open_units(turns: Turns, rounds: Sequence[int]) -> list[OpenUnit]:
    """Every unit with an open claim when the session stopped."""
    found = []
    for index in range(len(turns.units)):
        needs = turns.claims(index, rounds[index]).to_decide
        finite = [r for r in needs if math.isfinite(r)]
        if needs:
            soonest = min(finite, default=math.inf) * turns.round_s(index)
            found.append(OpenUnit(index, len(finite), len(needs) - len(finite), soonest))
    return found


def final_state(open_unit: OpenUnit | None) -> str:
    """A running group's state once --until-decided stopped: 'budget' while more time would decide a claim of its."""
    return BUDGET if open_unit is not None and open_unit.decidable else DONE


def describe(turns: Turns, rounds: Sequence[int], left: Sequence[OpenUnit], minutes: float) -> list[str]:
    """The session's last lines: claims decided, those more time would decide (the units named, soonest first, with
    the machine time each needs), and those undecidable here."""
    read = sum(turns.claims(i, rounds[i]).read for i in range(len(turns.units)))
    decidable = sum(u.decidable for u in left)
    undecidable = sum(u.undecidable for u in left)
    lines = [
        f"until decided: {read - decidable - undecidable} of the {read} claims read decided; {decidable} open that "
        f"more rounds would decide (beyond the {minutes:g}-min --max: a longer --max with `just resume` measures "
        f"on); {undecidable} undecidable at this host's noise (a centre on a band edge, or beyond any run)"
    ]
    waiting = sorted((u for u in left if u.decidable), key=lambda u: u.soonest_s)
    for u in waiting[:NAMED]:
        label = unit_label(turns.units[u.index])
        lines.append(f"  {label}: {u.decidable} claim(s) decidable, the soonest in about {u.soonest_s / 60:.1f} min")
    if len(waiting) > NAMED:
        lines.append(f"  … and {len(waiting) - NAMED} more group(s)")
    return lines

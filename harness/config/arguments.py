"""Values a user types on the command line, checked as argparse reads them: a bad one is argparse's `error:` line with
what the option takes (exit 2), before anything is planned, built or written."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

#: A run id becomes a folder name under results/ and part of row ids: no path separators, no leading dot or dash.
RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
#: A name in a selection list (ISA level, runtime, experiment, benchmark, variant, lab): what the data files use; '='
#: for a runtime with library versions (8.0.0+Newtonsoft.Json=13.0.3) and a variant with settings
#: (stj-default+indented=true).
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+=-]{0,399}")
#: A week: no session's budget is longer.
MAX_BUDGET_MINUTES = 7 * 24 * 60


def run_id(text: str) -> str:
    """A run folder's name: letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100."""
    if not RUN_ID.fullmatch(text) or text in (".", ".."):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a run id: letters, digits, '.', '_' and '-' (a folder name under results/, no '/' "
            "and no leading dot or dash), at most 100 characters"
        )
    return text


def experiment_id(text: str) -> str:
    """An experiment id: three digits (the file's NNN-)."""
    if not re.fullmatch(r"[0-9]{3}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not an experiment id: three digits, e.g. 008")
    return text


def names(text: str) -> str:
    """One or more names separated by commas (`--isa avx2,sse2`), each a name the data files could hold."""
    parts = text.split(",")
    if not any(parts):
        raise argparse.ArgumentTypeError(f"{text!r} names nothing: give one or more names, separated by commas")
    bad = [part for part in parts if part and not NAME.fullmatch(part)]
    if bad or "" in parts:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a comma-separated list of names ({'an empty name' if not bad else repr(bad[0])}): "
            "letters, digits, '.', '_', '+', '=' and '-'"
        )
    return text


def _number(text: str, what: str, fits: Callable[[float], bool], takes: str) -> float:
    """A finite number that `fits`, else the argparse error: '{text} is not {what}: {takes}'."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number: {what} is {takes}") from None
    if not math.isfinite(value) or not fits(value):
        raise argparse.ArgumentTypeError(f"{text} is not {what}: {takes}")
    return value


def minutes(text: str) -> float:
    """A time budget in minutes: a finite number from 0 (no budget) to a week."""
    return _number(
        text,
        "a budget",
        lambda value: 0 <= value <= MAX_BUDGET_MINUTES,
        f"a finite number of minutes from 0 (none) to {MAX_BUDGET_MINUTES} (a week)",
    )


def fraction(text: str) -> float:
    """A relative threshold: a finite number above 0 and below 1 (0.05 is 5 %)."""
    return _number(text, "a relative threshold", lambda value: 0 < value < 1, "above 0 and below 1 (0.05 is 5%)")


#: A duration: minutes alone (90), or with units: 45m, 1.5h, 2h30m.
DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m?)?")


def duration(text: str) -> float:
    """A duration in minutes, from '90', '45m', '1.5h' or '2h30m': above 0, at most a week."""
    match = DURATION.fullmatch(text.strip().lower()) if len(text) <= 40 else None
    if not match or not any(match.groups()):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a duration: minutes (90) or with units (45m, 1.5h, 2h30m)"
        )
    hours, mins = (float(g) if g else 0.0 for g in match.groups())
    value = 60 * hours + mins
    if not 0 < value <= MAX_BUDGET_MINUTES:
        raise argparse.ArgumentTypeError(f"{text} is not a duration for a run: above 0 and at most a week")
    return value

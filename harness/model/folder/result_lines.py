"""Reading results.jsonl as untrusted bytes: each line parsed on its own; a line that cannot be read is reported with
its number and why, never a traceback.

A run killed mid-write (Ctrl-C, SIGKILL, a full disk) can leave its last line torn. That one line is set aside: a
reader leaves it out and says so, and a resumed run moves it to results.quarantine.jsonl (kept, never deleted) and
measures that process again, since its row is missing. An unreadable line anywhere else means the file was damaged
after it was written: an error naming the line and the fix."""

from __future__ import annotations

import json
from dataclasses import dataclass

from harness.model.errors import HarnessError
from harness.model.json_value import JsonObject, JsonValue, as_object

#: Where a resumed run keeps the lines it set aside (beside results.jsonl).
QUARANTINE_FILE = "results.quarantine.jsonl"


class DamagedResultsError(HarnessError):
    """A results.jsonl line other than the last cannot be read."""


@dataclass(frozen=True)
class UnreadableLine:
    """A line that does not parse as a JSON object: its number, its bytes and why."""

    number: int
    raw: bytes
    why: str

    def describe(self, name: str) -> str:
        return f"{name} line {self.number} could not be read ({self.why}; a run stopped mid-write leaves such a line)"


def parse_lines(data: bytes, name: str) -> tuple[list[tuple[int, JsonObject]], UnreadableLine | None]:
    """The JSON objects of a JSON-lines file with their line numbers, and its torn last line if it has one; an
    unreadable line before the last is DamagedResultsError."""
    lines = [(n, raw) for n, raw in enumerate(data.split(b"\n"), 1) if raw.strip()]
    parsed: list[tuple[int, JsonObject]] = []
    for index, (number, raw) in enumerate(lines):
        why = ""
        try:
            value: JsonValue = json.loads(raw.decode("utf-8"))
            why = "" if isinstance(value, dict) else f"a JSON {type(value).__name__}, not an object"
        except UnicodeDecodeError as e:
            why = f"not UTF-8 at byte {e.start}"
        except ValueError as e:
            why = f"not JSON: {e.args[0] if e.args else e}"
        except RecursionError:
            why = "JSON nested deeper than the reader goes"
        if not why:
            parsed.append((number, as_object(value)))  # an object: `why` says so
        elif index == len(lines) - 1:
            return parsed, UnreadableLine(number, raw, why)
        else:
            raise DamagedResultsError(
                f"{name} line {number} cannot be read ({why}), and it is not the last line: the file was damaged after "
                "it was written",
                f"restore the run folder from a copy, or move line {number} out of {name} by hand and `just resume` to "
                "measure that process again",
            )
    return parsed, None

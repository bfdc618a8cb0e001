"""Writes a large generated document in the shape of the cross-language JSON benchmark's input (kostya/benchmarks,
json/generate_json.rb at 1dd7deb): {"coordinates": [{x, y, z, name, opts}, ...], "info": "some info"}, 524,288
entries by default, pretty-printed as Ruby's JSON.pretty_generate lays it out (2-space indentation, one value per line).

The values are not the original's (that script calls Ruby's unseeded `rand`): they come from Python's
random.Random(seed).random() alone, the one method whose sequence Python guarantees across versions, so the same seed
writes the same bytes anywhere (x = -1e-29·r, y = 1e31·r, z = r, name = 6 distinct letters and a number below 10000,
as there). Floats are Python's shortest repr. The file is streamed out, never held whole in memory.

Run: python3 datasets/generators/coordinates.py --seed 2019 --out datasets/generated/coordinates.json
(the manifest entry gives the arguments; `just datasets` and a run that needs the file call it).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import string
import sys

LETTERS = string.ascii_lowercase
ENTRY = (
    "    {{\n"
    '      "x": {x},\n'
    '      "y": {y},\n'
    '      "z": {z},\n'
    '      "name": "{name}",\n'
    '      "opts": {{\n'
    '        "1": [\n'
    "          1,\n"
    "          true\n"
    "        ]\n"
    "      }}\n"
    "    }}"
)


def _below(rng: random.Random, n: int) -> int:
    return int(rng.random() * n)


def _name(rng: random.Random) -> str:
    """Six distinct lower-case letters (a partial Fisher-Yates shuffle), a space, a number below 10000."""
    letters = list(LETTERS)
    for i in range(6):
        j = i + _below(rng, len(letters) - i)
        letters[i], letters[j] = letters[j], letters[i]
    return "".join(letters[:6]) + " " + str(_below(rng, 10_000))


def write(out, count: int, seed: int) -> None:
    rng = random.Random(seed)
    out.write('{\n  "coordinates": [\n')
    for index in range(count):
        x, y, z = rng.random() * -10e-30, rng.random() * 10e30, rng.random()
        out.write(ENTRY.format(x=repr(x), y=repr(y), z=repr(z), name=_name(rng)))
        out.write(",\n" if index + 1 < count else "\n")
    out.write('  ],\n  "info": "some info"\n}\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=524_288)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="ascii", newline="\n", buffering=1 << 20) as out:
        write(out, args.count, args.seed)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

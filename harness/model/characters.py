"""The characters a text handed to the lab may not hold: the invisible ones, which make a text read differently from
what it holds (two names that look equal and are not, a line that displays reversed), and lone surrogates, which are
not Unicode. One home for the patterns: data files and imported reports refuse them (harness/config/data_files.py),
reports drop them (analysis/render/untrusted.py), the canonical digest counts a lone surrogate as U+FFFD
(harness/model/canonical.py)."""

from __future__ import annotations

import re

#: Control characters, tab and newline excepted (a carriage return too: data_files.read_text reads a CRLF line ending
#: as a newline first, so one left is inside a value); the zero-width characters (U+200B-U+200D space, non-joiner,
#: joiner; U+2060 word joiner and the invisible operators to U+2064; U+FEFF no-break space, a byte order mark anywhere
#: but a file's start); the bidirectional marks (U+200E, U+200F, U+061C), embeddings and overrides (U+202A-U+202E) and
#: isolates (U+2066-U+2069).
INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
#: Half of a UTF-16 surrogate pair with no other half (JSON's "\ud800"): Python's JSON reader joins an escaped pair
#: into one code point, so a surrogate left in a string is unpaired, and the text is not Unicode (RFC 8259 §8.2;
#: labs keep it, replace it or refuse it, each its own way).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def code_point(character: str) -> str:
    """How an error names a character: U+200B."""
    return f"U+{ord(character):04X}"

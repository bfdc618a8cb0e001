"""The characters a text handed to the lab may not hold (harness/model/characters.py): one pattern of invisible
characters, the union of those the data files refused and those the reports dropped, and lone surrogates."""

from __future__ import annotations

import re

import pytest

from analysis.render import untrusted
from harness.config import data_files
from harness.model.characters import INVISIBLE, LONE_SURROGATE, code_point

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
BIDI_MARKS = "\u200e\u200f\u061c"
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("character", [*ZERO_WIDTH, *BIDI_MARKS, *BIDI_CONTROLS, "\r", "\x00", "\x07", "\x1b", "\x85"])
def test_every_invisible_character_is_found(character):
    assert INVISIBLE.search(f"New{character}tonsoft") is not None, code_point(character)


@pytest.mark.parametrize(
    "text", ["tab\tand\nnewline", "caf\u00e9", "\u00a0", "emoji \U0001f600", "\u0645\u0631\u062d\u0628\u0627"]
)
def test_tab_newline_and_visible_text_pass(text):
    assert INVISIBLE.search(text) is None and LONE_SURROGATE.search(text) is None


def test_the_pattern_covers_what_the_data_files_and_the_reports_each_refused_before():
    """The patterns it replaced (data_files allowed a carriage return, the reports' knew no bidi marks, then no
    zero-width character): each character they found, it finds; data files, imported reports and reports use it."""
    before = [
        re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"),
        re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]"),
    ]
    for pattern in before:
        missed = [code_point(chr(c)) for c in range(0x3000) if pattern.match(chr(c)) and not INVISIBLE.match(chr(c))]
        assert missed == [], pattern.pattern
    assert data_files.INVISIBLE is INVISIBLE, "data files and imported reports use the one pattern"
    assert untrusted.INVISIBLE is INVISIBLE, "reports drop what data files refuse"


def test_a_lone_surrogate_is_found_and_a_pair_is_one_character():
    assert LONE_SURROGATE.search("a\ud800b") and LONE_SURROGATE.search("\udfff")
    assert LONE_SURROGATE.search("\U0001f600") is None  # what JSON's "\ud83d\ude00" reads as
    assert code_point("\u200b") == "U+200B" and code_point("\ud800") == "U+D800"

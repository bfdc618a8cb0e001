"""Numbers as BenchmarkDotNet prints them: times with their unit ('1.234 μs'), sizes ('3.03 KB', with the rounding of a
figure printed in KB or MB as its tolerance), and ratios ('0.52'); a unit may come from the column header instead."""

from __future__ import annotations

import math
import re

#: Nanoseconds per time unit as BenchmarkDotNet prints them (μ: U+03BC, µ: U+00B5). A mean under 1 ns is printed in
# picoseconds ('512.3 ps'): BenchmarkDotNet's TimeUnit list starts there.
TIME_UNITS = {"ps": 1e-3, "ns": 1.0, "μs": 1e3, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9}


#: Bytes per size unit (BenchmarkDotNet: 1 KB = 1024 B).
SIZE_UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}


#: BenchmarkDotNet prints sizes above 1 KB with at most two decimals ("0.##"): the printed figure is known to half of
# 0.01 unit.
SIZE_DECIMALS = 2


#: A number as BenchmarkDotNet prints it in the invariant culture: commas only between groups of three digits.
_INVARIANT = re.compile(r"[-+]?(\d{1,3}(,\d{3})+|\d*)(\.\d+)?([eE][-+]?\d+)?")


def _number(text: str) -> float | None:
    """The number, or None for anything else, including a decimal comma ('914,4', '1.536,0': a report printed in
    another culture is not read rather than misread as 9144)."""
    if not _INVARIANT.fullmatch(text):
        return None
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def decimal_comma(text: str) -> bool:
    """True when a cell's number is written with a decimal comma ('914,4 ns', '1.536,0 ns')."""
    return re.search(r"\d,\d{1,2}(?!\d)|\d\.\d{3},\d", text) is not None


def parse_time_ns(text: str, header_unit: str | None = None) -> float | None:
    """'1,536.0 ns' -> 1536.0; '512.3 ps' -> 0.5123; '1.671 μs' -> 1671.0; '20.88 ms' -> 20880000.0; None for 'NA',
    '?' and anything else."""
    m = re.fullmatch(r"([-+]?[\d,]*\.?\d+(?:[eE][-+]?\d+)?)\s*([^\d\s]*)", text.strip())
    if not m:
        return None
    unit = m.group(2) or header_unit
    value = _number(m.group(1))
    if value is None or unit not in TIME_UNITS:
        return None
    return round(value * TIME_UNITS[unit], 9 if unit == "ps" else 6)  # float noise off; a ps figure keeps its digits


def parse_size_bytes(text: str, header_unit: str | None = None) -> tuple[int, int] | None:
    """(bytes, tolerance in bytes) of an Allocated cell: '224 B' -> (224, 0); '3.03 KB' -> (3103, 6) (the rounding of
    two
    decimals); '-' -> (0, 0) (BenchmarkDotNet's mark for nothing allocated); None for 'NA', '?' and anything else."""
    text = text.strip()
    if text == "-":
        return 0, 0
    m = re.fullmatch(r"([\d,]*\.?\d+)\s*([A-Za-z]*)", text)
    if not m:
        return None
    unit = m.group(2) or header_unit
    value = _number(m.group(1))
    if value is None or unit not in SIZE_UNITS or value < 0:
        return None
    factor = SIZE_UNITS[unit]
    tolerance = 0 if factor == 1 else math.ceil(factor * 0.5 * 10**-SIZE_DECIMALS)
    return round(value * factor), tolerance


def parse_ratio(text: str) -> float | None:
    """'0.51' -> 0.51; '1.00' -> 1.0; BenchmarkDotNet's trend style: 'baseline' -> 1.0, '1.47x slower' -> 1.47,
    '2.00x faster' -> 0.5; None for 'NA', '?', '-'."""
    text = text.strip()
    if text.lower() == "baseline":
        return 1.0
    m = re.fullmatch(r"([\d,]*\.?\d+)\s*x\s+(slower|faster)", text, flags=re.I)
    if m:
        value = _number(m.group(1))
        return None if not value else (value if m.group(2).lower() == "slower" else round(1 / value, 6))
    value = _number(text)
    return value if value is not None and value > 0 else None

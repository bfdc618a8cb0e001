"""Values written into a TOML file the harness makes (an imported experiment): every value through one function, so
nothing copied from a report can break the file."""

from __future__ import annotations

import json
import re


def toml_value(value) -> str:
    """A TOML literal; a string as a basic string with every control character (DEL included, which JSON leaves raw
    and TOML refuses) escaped."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return re.sub("[\x00-\x1f\x7f]", lambda m: f"\\u{ord(m.group(0)):04x}", json.dumps(str(value), ensure_ascii=False))

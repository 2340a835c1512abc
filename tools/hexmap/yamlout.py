"""Hand-written YAML for the generated map files: a stable, readable layout in which every string is
JSON-quoted (valid YAML), so regenerating gives the same bytes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def plain(s: str) -> str:
    """A bare word if it is safely one, else quoted."""
    ok = s.replace("-", "").isalnum() and not s[0].isdigit() and s not in ("true", "false", "null", "yes", "no")
    return s if ok else q(s)


def value(v: Any) -> str:
    """A flow-style YAML value: booleans, integers, strings, lists and mappings."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return q(v)
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{plain(k) if not k[0].isdigit() else q(k)}: {value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def hex_list(hexes: Sequence[str], indent: int, width: int) -> str:
    """A flow list of hex numbers, wrapped at ``width`` with continuation lines indented past ``indent``."""
    items = [q(h) for h in hexes]
    lines: list[str] = []
    cur = "["
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "]")
        used = len(cur) + (indent if not lines else 0)
        if used + len(piece) + 1 > width and cur != "[":
            lines.append(cur)
            cur = " " * (indent + 1) + piece
        else:
            cur = cur + ("" if cur.endswith("[") else " ") + piece
    if not items:
        cur = "[]"
    lines.append(cur)
    return "\n".join(lines)


def comment(text: str, width: int) -> list[str]:
    """``text`` as YAML comment lines of at most ``width`` characters."""
    out: list[str] = []
    cur = "#"
    for w in text.split():
        if len(cur) + 1 + len(w) > width:
            out.append(cur)
            cur = "#  "
        cur += " " + w
    out.append(cur)
    return out

"""Words for people: counts with their plural, values written as a player would write them (never a
Python repr), and prose wrapped to the terminal. No heavy imports: the command line uses it at once."""

from __future__ import annotations

import textwrap
from typing import Any

WIDTH = 80

_IRREGULAR = {"city": "cities", "try": "tries", "property": "properties", "entry": "entries", "copy": "copies",
              "battery": "batteries", "is": "are", "was": "were", "has": "have", "this": "these"}


def plural_word(word: str, count: int) -> str:
    """``word`` as it reads after ``count``: 1 packet, 2 packets, 1 city, 3 cities."""
    if count == 1:
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def plural(count: int, word: str) -> str:
    """``count`` and ``word`` in its number: ``plural(1, "packet")`` is "1 packet", ``plural(2, "city")``
    "2 cities"."""
    return f"{count} {plural_word(word, count)}"


def plain_value(value: Any) -> str:
    """A value on one line as a player reads it, never a Python repr: ``{'a': 1, 'b': ['x', 'y']}`` reads
    ``a: 1; b: [x, y]``, a list ``x, y``; true/false, none, text unquoted."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        if not value:
            return "nothing"
        return "; ".join(f"{key}: {_inner(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        if not value:
            return "none"
        return ", ".join(_inner(item) for item in value)
    return str(value)


def _inner(value: Any) -> str:
    """A value inside a list or mapping: nested collections in brackets so the reading stays unambiguous."""
    if isinstance(value, dict):
        return "(" + plain_value(value) + ")" if value else "nothing"
    if isinstance(value, list | tuple):
        return "[" + plain_value(value) + "]" if value else "none"
    return plain_value(value)


def wrapped(text: str, width: int = WIDTH) -> str:
    """Lines of prose wrapped at ``width`` columns: each continuation keeps the line's own indent plus two
    spaces; words (hex numbers, ids, file names) are never broken."""
    out = []
    for line in text.splitlines() or [""]:
        indent = line[: len(line) - len(line.lstrip(" "))]
        if len(line) <= width or not line.strip():
            out.append(line)
            continue
        out.append(textwrap.fill(line.strip(), width=width, initial_indent=indent,
                                 subsequent_indent=indent + "  ", break_on_hyphens=False,
                                 break_long_words=False))
    return "\n".join(out)

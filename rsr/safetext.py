"""Strings from a packet or a mail made safe for a terminal, a text or Markdown report, or a rich screen.

A player's name, a packet's message, a request id or a From: header come from the opponent (or from anyone
who can send mail); printed raw, an ESC or C1 CSI sequence clears the screen, recolours it, sets the window
title or forges a line, and a bidi override shows text in another order than it is.
Every such string passes through :func:`visible` (or :func:`visible_lines`) before it reaches a person;
Markdown output also through :func:`markdown`, a rich console through :func:`screen`. HTML and SVG are
escaped by their own writers.
"""

from __future__ import annotations

import unicodedata

# categories never shown raw: controls (C0, DEL, C1), format characters (bidi overrides and isolates,
# zero-width joiners, the BOM), line and paragraph separators, private use, surrogates, unassigned
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
MARKDOWN_SPECIAL = frozenset("\\`*_[]<>#|~")


def is_hidden(ch: str) -> bool:
    """Whether ``ch`` would act on the terminal or hide text instead of showing itself."""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES


def has_hidden(text: str) -> bool:
    """Whether ``text`` holds any control, format (bidi) or separator character."""
    return any(is_hidden(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: object, limit: int = 2000) -> str:
    """One line that shows exactly what ``text`` holds: every hidden character as an escape (``\\x1b``,
    ``\\u202e``), the length bounded."""
    value = str(text)
    shown = "".join(_escape(ch) if is_hidden(ch) else ch for ch in value[:limit])
    return shown + ("..." if len(value) > limit else "")


def visible_lines(text: object, limit: int = 2000) -> list[str]:
    """A multi-line text (a packet's message) as lines, each made :func:`visible`."""
    return [visible(line, limit) for line in str(text)[:limit].split("\n")]


def markdown(text: object) -> str:
    """:func:`visible`, with every character Markdown gives a meaning escaped by a backslash (no link, image,
    HTML tag, emphasis or heading can come from a packet)."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIAL else ch for ch in visible(text))


def screen(text: object) -> str:
    """:func:`visible`, with rich's markup brackets escaped, for a string printed through a rich console."""
    from rich.markup import escape

    return escape(visible(text))

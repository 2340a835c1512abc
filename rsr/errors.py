"""The error hierarchy. Every error says *why*, and where, in one line.

* :class:`BadInput` — the user's input is malformed (exit status 2, nothing changed).
* :class:`VerificationError` — a packet or the log fails a protocol check (exit status 1).
* :class:`RulesError` — an input is well formed but illegal under the rules (exit 1 at replay,
  exit 2 when caught before signing).
"""

from __future__ import annotations

from rsr.safetext import visible


class RsrError(Exception):
    """Base of every error rsr reports to a person."""

    exit_code = 1


class BadInput(RsrError):
    """Malformed input: a file, an argument, an orders file. Nothing was changed."""

    exit_code = 2


class VerificationError(RsrError):
    """A packet or the log fails a protocol check (signature, chain, reveal, dice, seal)."""

    def __init__(self, message: str, seq: int | None = None) -> None:
        self.seq = seq
        self.reason = message
        super().__init__(f"packet {seq}: {message}" if seq is not None else message)


class RulesError(RsrError):
    """An input is well formed but not allowed by the rules; the message cites the case."""


class NeedDice(Exception):
    """Raised by the no-dice source of a dry run: the next step depends on a die (docs/protocol.md)."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose
        super().__init__(f"this step needs a die ({purpose})")


def printable(text: str, limit: int = 80) -> str:
    """``text`` safe to echo in a one-line message: :func:`rsr.safetext.visible` with a bound for a message.

    Unsigned parts of a packet (the armor's header lines, a file name) come from the opponent or from
    email; they must never move the cursor or hide the rest of a message.
    """
    return visible(text, limit)

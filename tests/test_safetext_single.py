"""One escaping for a terminal line (issue 20 §6): rsr.errors.printable, the accept terms and the one-line
error of every command go through rsr.safetext.visible, so they escape the same characters the same way."""

from __future__ import annotations

import pytest

from rsr import safetext
from rsr.cli import fail
from rsr.errors import BadInput, printable

HOSTILE = "Eve\x1b[2J\x9b31m\u202egnp.exe\u2028x\x7f\tz"


def test_printable_is_visible_with_a_message_bound() -> None:
    assert printable(HOSTILE) == safetext.visible(HOSTILE, 80)
    assert not safetext.has_hidden(printable(HOSTILE))
    assert "\\x1b" in printable(HOSTILE) and "\\u202e" in printable(HOSTILE) and "\\x09" in printable(HOSTILE)
    long = "a" * 100
    assert printable(long) == "a" * 80 + "..." and printable(long, 200) == long


def test_a_commands_error_line_escapes_as_visible_does(capsys: pytest.CaptureFixture[str]) -> None:
    message = f"bad name {HOSTILE}\nsecond line"
    with pytest.raises(SystemExit) as stopped:
        fail(BadInput(message))
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err == f"rsr: {safetext.visible(' '.join(message.splitlines()))}\n" and "second line" in err
    assert not safetext.has_hidden(err.rstrip("\n"))

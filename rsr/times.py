"""Signed times, read strictly (docs/protocol.md, "Times").

A packet's ``time`` is UTC to the second, ``YYYY-MM-DDTHH:MM:SSZ``. Contract version 2 reads it strictly:
a real calendar date of the years 1970 to 2999 (no 30 February, no hour 24), never earlier than the time of
the packet before it in the chain, and, when a packet arrives, not more than :data:`FUTURE_TOLERANCE` after
the receiver's clock. Each of these is decided without the packet's dice. Reading a time never raises
anything but :class:`BadTime` (one line; no traceback in ``status`` or ``claim``).
"""

from __future__ import annotations

import datetime
import re

from rsr.errors import BadInput, printable

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
FIRST_YEAR = 1970
LAST_YEAR = 2999
FUTURE_TOLERANCE = datetime.timedelta(hours=1)
_SHAPE = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z$")


class BadTime(BadInput):
    """A signed time that is not a real UTC time of 1970-2999 to the second."""


def parse_time(text: object) -> datetime.datetime:
    """The UTC time ``text`` names; raises :class:`BadTime` for anything that is not a real time."""
    match = _SHAPE.match(text) if isinstance(text, str) else None
    if match is None:
        raise BadTime(f"time {printable(str(text))!r} is not YYYY-MM-DDTHH:MM:SSZ")
    year, month, day, hour, minute, second = (int(g) for g in match.groups())
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise BadTime(f"time {text}: the year is outside {FIRST_YEAR}-{LAST_YEAR}")
    try:
        return datetime.datetime(year, month, day, hour, minute, second, tzinfo=datetime.UTC)
    except ValueError as exc:
        raise BadTime(f"time {text} is not a real date and time ({exc})") from exc


def format_time(when: datetime.datetime) -> str:
    return when.astimezone(datetime.UTC).strftime(TIME_FORMAT)


def check_not_backwards(earlier: str | None, later: str | None) -> None:
    """A chain's times never go backwards (contract version 2); either may be absent."""
    if earlier is None or later is None:
        return
    if parse_time(later) < parse_time(earlier):
        raise BadTime(f"signed at {later}, before the packet it follows ({earlier}): times never go backwards")


def check_not_future(text: str | None, now: datetime.datetime) -> None:
    """Refuse a time more than :data:`FUTURE_TOLERANCE` after ``now`` (the receiver's clock)."""
    if text is None:
        return
    if parse_time(text) > now + FUTURE_TOLERANCE:
        raise BadTime(f"signed at {text}, more than {int(FUTURE_TOLERANCE.total_seconds() // 3600)} h after this "
                      f"machine's clock ({format_time(now)}): a packet cannot come from the future")

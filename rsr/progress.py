"""Where a game stands for one player: what happened, what is asked now, whether the game is over.

``rsr status``, ``rsr receive`` and the game-over guard of ``submit``/``play`` read the log through these
functions, so they never disagree. What the game asks next is worked out from the position the log
implies *including* the inputs of the last packet (they are signed, only their dice are still hidden):
right after Russia signs its attacks, the game no longer asks Russia for them; it waits for Japan's packet.
The clock is read here only to say how long ago a packet was signed (front end, not rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rsr.engine import Event, Position, Request, is_resignation, resolve_pass
from rsr.errors import BadInput, NeedDice, RsrError
from rsr.fairdice import NoDice
from rsr.log import PassRecord, Replay
from rsr.words import plural

MAX_SUMMARY_EVENTS = 12


# -- the end of the game -------------------------------------------------------------------------------------


def game_result(result: Replay, state: Any) -> dict[str, Any] | None:
    """The ruleset's verdict on ``state`` (``result(state)``: winner, level, case), if it gives one."""
    resigned = result.position.resigned
    if resigned is not None:  # docs/protocol.md, "Resigning": the other side's decisive victory
        winner = next(side for side in result.ruleset.sides if side != resigned)
        return {"winner": winner, "level": "decisive", "case": f"{resigned} resigned", "resigned": resigned}
    return result.ruleset.result(state)


def is_over(result: Replay) -> bool:
    """The log has ended the game: nothing more is asked of anyone, or the ruleset reports a result."""
    if len(result.packets) < 2:
        return False
    waiting = result.passes[-1].waiting if result.passes else result.start_waiting
    return waiting is None or game_result(result, result.position.state) is not None


def verdict_text(verdict: dict[str, Any] | None) -> str:
    """Who won and at which level, with the case that decides it: ``japan wins (marginal, RSR 20.2)``."""
    if verdict is None:
        return "the ruleset names no winner for this scenario"
    winner = verdict.get("winner")
    detail = ", ".join(str(verdict[k]) for k in ("level", "case") if verdict.get(k))
    return (f"{winner} wins" if winner else "nobody wins") + (f" ({detail})" if detail else "")


def result_line(verdict: dict[str, Any] | None) -> str:
    """One line naming the winner and the level of victory, with the case that decides it."""
    if verdict is None:
        return "the game is over; " + verdict_text(None)
    return "the game is over: " + verdict_text(verdict)


def refuse_if_over(result: Replay) -> None:
    """Bad input: no orders and no packets once the log has ended the game."""
    if is_over(result):
        verdict = game_result(result, result.position.state)
        raise BadInput(f"{result_line(verdict)}; no more packets (rsr status shows the result)")


# -- what the game asks next -----------------------------------------------------------------------------------


@dataclass
class Lookahead:
    """What follows the last packet's inputs as far as anyone can tell without the hidden dice."""

    waiting: Request | None
    needs_die: str | None


def lookahead(result: Replay) -> Lookahead:
    """Run the queued inputs of the log without dice: stop at the first die or the first missing answer."""
    try:
        _, outcome = resolve_pass(result.ruleset, result.position, NoDice())
    except NeedDice as need:
        return Lookahead(None, need.purpose)
    except RsrError:
        waiting = result.passes[-1].waiting if result.passes else result.start_waiting
        return Lookahead(waiting, None)
    return Lookahead(outcome.waiting, None)


def signed_time(payload: dict[str, Any]) -> datetime | None:
    """The signing time a packet carries (optional payload field ``time``: ISO 8601 or Unix seconds)."""
    value = payload.get("time")
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return datetime.fromtimestamp(value, UTC)
        if isinstance(value, str):
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return when if when.tzinfo else when.replace(tzinfo=UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def ago(when: datetime, now: datetime | None = None) -> str:
    seconds = max(0, int(((now or datetime.now(UTC)) - when).total_seconds()))
    if seconds < 120:
        return "just now"
    if seconds < 2 * 3600:
        return f"{seconds // 60} minutes ago"
    if seconds < 2 * 86400:
        return f"{seconds // 3600} hours ago"
    return f"{seconds // 86400} days ago"


def asks_line(request: Request, me: str | None) -> str:
    who = f"{request.side} (you)" if request.side == me else request.side
    return f"the game asks {who}: {request.prompt} [{request.id}, {request.case}]"


def next_lines(result: Replay, me: str | None, author_view: tuple[Position, Request | None, PassRecord | None]
               | None) -> list[str]:
    """What happens next, for the player ``me`` (None: a third party). ``author_view`` is
    ``position_for_author`` when ``me`` writes the next packet (it resolves the opponent's packet with
    this player's own secret, so it knows exactly what is asked)."""
    if is_over(result):
        return [result_line(game_result(result, result.position.state))]
    author = result.next_author()
    if me == author and author_view is not None:
        position, waiting, record = author_view
        if waiting is None or game_result(result, position.state) is not None:
            return [f"your packet ends the game: send it (no orders) so that the dice of packet "
                    f"{len(result.packets) - 1} are revealed; then "
                    + result_line(game_result(result, position.state))]
        if waiting.side == me:
            return [f"next packet: {me}'s (yours)", asks_line(waiting, me)]
        if record is not None and record.rolls:
            why = f"so the dice of packet {record.resolved} ({result.packets[record.resolved].side}'s) can be revealed"
        else:
            why = f"so that {waiting.side} can go on"
        return [f"next packet: {me}'s (yours): send a packet with no orders {why}",
                f"  then {waiting.side} is asked: {waiting.prompt} [{waiting.id}]"]
    last = result.packets[-1]
    sent = signed_time(last.payload)
    when = f" (your packet {last.seq} was sent {ago(sent)})" if sent and last.side == me else (
        f" (packet {last.seq} was sent {ago(sent)})" if sent else "")
    head = f"waiting for {author}'s packet{when}"
    ahead = lookahead(result)
    if ahead.needs_die is not None:
        return [head, f"  it reveals the dice of packet {last.seq} (first: {ahead.needs_die}); what comes after "
                      "depends on them"]
    if ahead.waiting is None:
        return [head, "  it records the end of the game"]
    if ahead.waiting.side == author:
        return [head, f"  {author} is asked: {ahead.waiting.prompt} [{ahead.waiting.id}]"]
    return [head, f"  then {asks_line(ahead.waiting, me)}"]


# -- after receiving a packet ------------------------------------------------------------------------------------


def _event_lines(events: list[Event], limit: int = MAX_SUMMARY_EVENTS) -> list[str]:
    shown = [e for e in events if e.kind != "policy"] or events
    lines = [f"    {e.text}" for e in shown[:limit]]
    if len(shown) > limit:
        lines.append(f"    ... {len(shown) - limit} more in the report")
    return lines


def _report_path(result: Replay, record: PassRecord) -> str:
    return f"reports/{record.resolved:04d}-{result.packets[record.resolved].side}.md"


def receive_summary(result: Replay, me: str | None, new_seqs: list[int],
                    author_view: tuple[Position, Request | None, PassRecord | None] | None) -> list[str]:
    """A few lines after ``rsr receive``: what the opponent's packet did, my dice now public, what is next,
    and which report holds what."""
    if not new_seqs:
        return []
    lines: list[str] = []
    latest = result.packets[new_seqs[-1]]
    mine = [r for r in result.passes if r.resolver == latest.seq]
    quiet = mine and not mine[0].events and not result.packets[mine[0].resolved].payload.get("inputs")
    if mine and result.packets[mine[0].resolved].side == me and not quiet:
        record = mine[0]
        lines.append(f"your packet {record.resolved}, resolved with the dice {latest.side} revealed in packet "
                     f"{latest.seq}:")
        lines += _event_lines(record.events) or ["    nothing was applied"]
        if record.rolls:
            rolled = ", ".join(f"d{r.sides}={r.value} ({r.purpose})" for r in record.rolls[:8])
            more = f", ... {len(record.rolls) - 8} more" if len(record.rolls) > 8 else ""
            lines.append(f"  your dice, now public: {rolled}{more}")
        lines.append(f"  report: {_report_path(result, record)}")
    inputs = latest.payload.get("inputs") or []
    pending = author_view[2] if author_view else None
    if latest.seq >= 2 or inputs:
        orders = plural(len(inputs), "order") if inputs else "no orders"
        if any(is_resignation(item) for item in inputs):
            lines.append(f"{latest.side}'s packet {latest.seq} is a resignation")
        else:
            lines.append(f"{latest.side}'s packet {latest.seq} carries {orders}")
        if pending is not None and pending.resolved == latest.seq and (pending.events or pending.rolls):
            lines.append("  what they did, with the dice your next packet reveals:" if pending.rolls
                         else "  what they did (no die rolled):")
            lines += _event_lines(pending.events)
            lines.append(f"  report: {_report_path(result, pending)}")
    lines += ["now: " + line if i == 0 else line for i, line in enumerate(next_lines(result, me, author_view))]
    return lines
